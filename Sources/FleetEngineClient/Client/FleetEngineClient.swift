import FleetEngineCodec
public import FleetEngineStatus
import FleetEngineWire
public import Logging
public import Metrics
public import NIOCore
public import NIOPosix
public import ServiceLifecycle

/// Calls Fleet Engine's TripService (`maps.fleetengine.v1.TripService`) over gRPC on HTTP/2.
///
/// Create one per process and share it: it multiplexes all calls over one HTTP/2 connection,
/// opened on first use and opened again (with backoff) when it is lost or the server sends
/// GOAWAY. Its background work lives in ``run()``, which must be running while calls are made —
/// either as a `ServiceLifecycle` service, in a task group of yours, or through
/// ``withFleetEngineClient(configuration:tokenProvider:eventLoopGroup:logger:metricsFactory:_:)``.
///
/// Every failure is a `FleetEngineError`: a status from the server (with its details decoded),
/// a connection that could not be made or was lost, a deadline, a cancellation, or a response
/// that the codec refused (INTERNAL).
public final class FleetEngineClient: Sendable, Service {
    /// This library's version, sent in `user-agent` and in each request's header.
    public static let version = "0.1.0"

    /// The configuration the client was made with.
    public let configuration: ClientConfiguration
    let manager: ConnectionManager
    let tokens: TokenCache
    let logger: Logger
    let metrics: ClientMetrics
    /// What every call's header block shares (`:authority`, `:scheme`, `user-agent`,
    /// `grpc-accept-encoding`, the configuration's metadata), checked once; a call sets its
    /// method, timeout and metadata.
    let requestHeadTemplate: GRPCRequestHead
    /// Whether the configuration's metadata carries `authorization`, which a call whose token
    /// provider gave a token must not send a second time.
    let configurationSendsAuthorization: Bool
    /// The request header of a call whose caller gave none: built once, so that such calls share
    /// its storage rather than each building its own copy.
    let defaultRequestHeader: RequestHeader
    private let executor: EventLoopTaskExecutor

    /// The event loop that carries the client's connection (one loop of the group it was made
    /// with, chosen once): its socket, its calls' timers and the tasks that prefer
    /// ``taskExecutor`` run there.
    public var eventLoop: any EventLoop { executor.eventLoop }

    /// A task executor on ``eventLoop``. A task that makes many calls runs cheaper when it prefers
    /// it (`withTaskExecutorPreference(client.taskExecutor) { ... }`, or
    /// `group.addTask(executorPreference: client.taskExecutor) { ... }`): its calls start on the
    /// connection's thread and it resumes there when the answer is read, without a hand-off to a
    /// thread of Swift's global pool and back. TripTracking's `TripService` runs its refreshes this way. Keep
    /// blocking or long computations off it: they would hold up every call of the client.
    public var taskExecutor: any TaskExecutor { executor }

    /// A client; no connection is made until the first call.
    ///
    /// - Parameters:
    ///   - configuration: where and how to connect, deadlines and retries.
    ///   - tokenProvider: where JWTs come from; ``NoTokenProvider`` for an emulator without auth.
    ///   - eventLoopGroup: the event loops to choose the connection's loop from (one, for the
    ///     client's life; see ``eventLoop``); the process's shared ones by default.
    ///   - logger: where the client logs; nothing above `debug` on the happy path, and never a
    ///     token. Logs nowhere by default.
    ///   - metricsFactory: where the metrics go: counters `fleetengine_client_calls_total` and
    ///     `fleetengine_client_failures_total` (dimensions `method` and `code`, the status name,
    ///     `UNRECOGNIZED` for a number gRPC does not define)
    ///     and the timer `fleetengine_client_call_duration` (dimension `method`, retries
    ///     included); the process's bootstrapped backend by default.
    /// - Throws: INVALID_ARGUMENT when the TLS configuration cannot be used (its `serverHostname`
    ///   an IP address or empty among the reasons), the endpoint's host, the authority
    ///   or the user agent cannot be sent in a header (a space, a byte outside printable ASCII), the
    ///   configuration's metadata cannot be sent (``ClientConfiguration/metadata``), or
    ///   a backoff (the retry policy's, the reconnect one) has a negative wait or a multiplier that
    ///   is not a finite number above zero, the endpoint's port is not 1 to 65535, or the
    ///   keepalive's interval or timeout is not above zero.
    public init(
        configuration: ClientConfiguration = ClientConfiguration(),
        tokenProvider: any TokenProvider,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "fleet-engine-client", factory: { _ in SwiftLogNoOpLogHandler() }),
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(FleetEngineError) {
        // NIO cuts a port to 16 bits: 70000 would connect to 4464, and send the token there.
        guard (1...65_535).contains(configuration.endpoint.port) else {
            throw FleetEngineError(
                code: .invalidArgument,
                message: "the endpoint's port \(configuration.endpoint.port) is not a TCP port (1 to 65535)",
                origin: .local)
        }
        if let keepalive = configuration.keepalive {
            // A zero interval would run the PING task without pause for the connection's life.
            for (field, value) in [("interval", keepalive.interval), ("timeout", keepalive.timeout)]
            where value <= .zero {
                throw FleetEngineError(
                    code: .invalidArgument, message: "keepalive.\(field) \(value) is not above zero", origin: .local)
            }
        }
        try configuration.retryPolicy.check(field: "retryPolicy")
        try configuration.reconnectBackoff.check(field: "reconnectBackoff")
        self.configuration = configuration
        self.logger = logger
        let connector = try Connector(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger)
        self.manager = ConnectionManager(connector: connector, logger: logger)
        self.executor = EventLoopTaskExecutor(eventLoop: connector.eventLoop)
        self.tokens = TokenCache(provider: tokenProvider)
        self.metrics = ClientMetrics(factory: metricsFactory)
        self.defaultRequestHeader = Self.populated(RequestHeader(), defaults: configuration.requestHeader)
        var template: GRPCRequestHead
        do throws(WireError) {
            template = try GRPCRequestHead(
                method: .getTrip,
                authority: configuration.authority ?? configuration.endpoint.description,
                scheme: configuration.transportSecurity.isPlaintext ? .http : .https,
                userAgent: configuration.userAgent + " grpc-swift-fleet-engine/\(Self.version)",
                acceptedEncodings: [.gzip, .deflate])
        } catch {
            // Neither the endpoint, the authority nor the user agent is a secret: the message may name them.
            throw FleetEngineError(
                code: .invalidArgument,
                message: "the configuration's endpoint, authority or user agent cannot go in a request's headers: "
                    + error.message,
                origin: .local, cause: error)
        }
        for field in configuration.metadata {
            guard field.name != Self.routingHeaderName else {
                throw FleetEngineError(
                    code: .invalidArgument,
                    message: "the configuration's metadata may not carry \(field.name): the client writes it itself "
                        + "from each call's provider",
                    origin: .local)
            }
            do throws(WireError) {
                try template.appendMetadata(name: field.name, value: field.value)
            } catch {
                // The wire layer's message names the field and the offending byte, never the value.
                throw FleetEngineError(
                    code: .invalidArgument, message: "the configuration's metadata cannot be sent: \(error.message)",
                    origin: .local, cause: error)
            }
        }
        self.requestHeadTemplate = template
        self.configurationSendsAuthorization = configuration.metadata.contains { $0.name == "authorization" }
    }

    /// The metadata that routes a call to the trip's provider (`x-goog-request-params`), which
    /// the client writes on every call.
    static let routingHeaderName = "x-goog-request-params"

    /// Runs the client's connections until ``beginGracefulShutdown()`` is called (then returns
    /// once the calls in flight have finished) or the task is cancelled (then closes at once).
    /// As a `ServiceLifecycle` service, a graceful shutdown of the group shuts the client down
    /// gracefully. It runs once at a time: called again while it runs, it throws
    /// FAILED_PRECONDITION and the first goes on.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await manager.run()
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
    }

    /// Refuses new calls, lets the calls in flight finish, then closes the connection; ``run()``
    /// returns after that.
    public func beginGracefulShutdown() {
        manager.beginGracefulShutdown()
    }
}

/// Runs `body` with a client whose ``FleetEngineClient/run()`` runs beside it, and shuts the
/// client down gracefully when `body` returns or throws.
public func withFleetEngineClient<Result: Sendable>(
    configuration: ClientConfiguration = ClientConfiguration(),
    tokenProvider: any TokenProvider,
    eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "fleet-engine-client", factory: { _ in SwiftLogNoOpLogHandler() }),
    metricsFactory: any MetricsFactory = MetricsSystem.factory,
    _ body: (FleetEngineClient) async throws -> Result
) async throws -> Result {
    let client = try FleetEngineClient(
        configuration: configuration, tokenProvider: tokenProvider, eventLoopGroup: eventLoopGroup, logger: logger,
        metricsFactory: metricsFactory)
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
        group.addTask { try await client.run() }
        do {
            let result = try await body(client)
            client.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            client.beginGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
    }
}
