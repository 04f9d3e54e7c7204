public import FleetEngineCodec
import FleetEngineGRPCCore
public import FleetEngineStatus
import GRPCCore
import GRPCNIOTransportHTTP2
public import Logging
import NIOCore
public import ServiceLifecycle

/// A local Fleet Engine: the TripService over gRPC/HTTP/2, for tests and development.
///
/// It runs on grpc-swift's server (HTTP/2 by swift-nio-http2), with our protobuf-c codec as its
/// serializer, so a client under test always meets a gRPC stack other than its own. Plaintext h2c
/// by default, TLS when given a certificate and key.
///
/// ```swift
/// try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
///     let port = try await emulator.listeningPort()
///     // ... call 127.0.0.1:port ...
/// }
/// ```
///
/// Or, as a long-running service, in a `ServiceGroup` (it is a swift-service-lifecycle `Service`):
/// ``run()`` serves until its task is cancelled or a graceful shutdown begins, the group's (on
/// SIGTERM, say) or one asked for with ``beginGracefulShutdown()``.
///
/// ```swift
/// let emulator = try FleetEngineEmulator(configuration: configuration, logger: logger)
/// let group = ServiceGroup(services: [emulator], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// It logs to the logger it is given: when it starts (debug), the address it listens on and when it
/// stops (info), a graceful shutdown (debug), and why it failed (error).
public final class FleetEngineEmulator: Sendable, Service {
    /// The configuration it was made with.
    public let configuration: EmulatorConfiguration
    /// The service itself, callable without gRPC (for tests of the service's rules).
    public let service: TripServiceCore
    let store: TripStore
    private let transport: HTTP2ServerTransport.Posix
    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let outcome = RunOutcome()
    let faults: FaultInjector
    /// The project's quota, which ``setQuotaPerMinute(_:)`` changes while it runs.
    let quota: ProjectQuota
    private let logger: Logger

    /// An emulator, not yet listening.
    ///
    /// - Parameters:
    ///   - configuration: where to listen, who may call, where to keep trips, and the faults to inject.
    ///   - time: the clock trips, versions, simulations and the project's quota run on; the wall
    ///     clock by default.
    ///   - logger: where it logs its start, listening address, stop and failures; nowhere by default.
    /// - Throws: ``EmulatorError`` when the host resolves to no address or the port is outside 0 to
    ///   65535, when the data folder cannot be read or is corrupt, or is in use by
    ///   another emulator (in this process too: the folder is held until that emulator is deallocated), or the fault
    ///   plan has a setting no fault can come of (a ``FaultPlan/queriesPerSecond`` that is not a
    ///   number or negative, a ``FaultPlan/failEvery`` or ``FaultPlan/dropConnectionAtCall`` below 1,
    ///   a ``FaultPlan/goAwayAfter`` not above zero, a negative delay or grace time), or the
    ///   ``EmulatorConfiguration/quotaPerMinute`` is below 1.
    public init(
        configuration: EmulatorConfiguration,
        time: any TimeSource = SystemTimeSource(),
        logger: Logger = Logger(label: "fleet-engine-emulator", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(EmulatorError) {
        self.logger = logger
        if let problem = configuration.faults.problem { throw EmulatorError(.invalidConfiguration, problem) }
        if let problem = ProjectQuota.problem(callsPerMinute: configuration.quotaPerMinute) {
            throw EmulatorError(.invalidConfiguration, problem)
        }
        let address = try Self.listeningAddress(host: configuration.host, port: configuration.port)
        self.configuration = configuration
        if let directory = configuration.dataDirectory {
            store = try TripStore(time: time, directory: directory)
        } else {
            store = TripStore(time: time)
        }
        service = TripServiceCore(store: store)
        let faults = configuration.faults
        let injector = FaultInjector(plan: faults)
        let transportConfig = HTTP2ServerTransport.Posix.Config.defaults { config in
            config.channelDebuggingCallbacks.onBindTCPListener = ListeningAddressLog.installer(logger: logger)
            config.http2.maxConcurrentStreams = configuration.maxConcurrentStreamsPerConnection
            config.connection.maxIdleTime = configuration.connectionIdleTimeout
            config.rpc.maxRequestPayloadSize = configuration.maxRequestMessageSize
            // Installed whatever the plan says now: a plan set while running may drop or retire connections.
            let dropper = ConnectionDropper(callNumber: { injector.dropConnectionAtCall })
            config.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in dropper.streamAccepted(stream) }
            let retirer = ConnectionRetirer(plan: { injector.plan })
            config.channelDebuggingCallbacks.onAcceptTCPConnection = { connection in
                retirer.connectionAccepted(connection)
            }
        }
        let security: HTTP2ServerTransport.Posix.TransportSecurity
        if let tls = configuration.tls {
            security = .tls(
                certificateChain: [.bytes(Array(tls.certificateChainPEM.utf8), format: .pem)],
                privateKey: .bytes(Array(tls.privateKeyPEM.utf8), format: .pem)
            )
        } else {
            security = .plaintext
        }
        transport = HTTP2ServerTransport.Posix(
            address: address,
            transportSecurity: security,
            config: transportConfig
        )
        self.faults = injector
        let quota = ProjectQuota(callsPerMinute: configuration.quotaPerMinute, time: time)
        self.quota = quota
        let rpc = TripServiceRPC(
            core: service, policy: configuration.accessPolicy, faults: injector, quota: quota,
            decoding: DecodingOptions(
                maxMessageSize: configuration.maxRequestMessageSize,
                maxDecodedSize: configuration.maxDecodedRequestSize))
        server = GRPCServer(transport: transport, services: [rpc])
    }

    /// Serves calls until the task is cancelled or a graceful shutdown begins: the service group's,
    /// or one asked for with ``beginGracefulShutdown()``. In a graceful shutdown it stops accepting
    /// calls and returns once the calls in flight have finished.
    ///
    /// - Throws: the transport's error when it cannot listen (the port is taken, the address is not
    ///   this machine's), or fails later.
    public func run() async throws {
        logger.debug(
            "emulator starting",
            metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"]
        )
        do {
            try await withGracefulShutdownHandler {
                try await server.serve()
            } onGracefulShutdown: {
                self.logger.debug("emulator shutting down gracefully: letting calls in flight finish")
                self.server.beginGracefulShutdown()
            }
        } catch {
            outcome.finish(error)
            logger.error("emulator failed", metadata: ["error": "\(error)"])
            throw error
        }
        outcome.finish(nil)
        logger.info("emulator stopped")
    }

    /// The port it listens on, once it does (waits until then).
    ///
    /// - Throws: ``EmulatorError`` when the emulator is not listening: it could not (saying why, from
    ///   the error ``run()`` ended with), or it has shut down.
    public func listeningPort() async throws -> Int {
        let address: GRPCNIOTransportCore.SocketAddress
        do {
            address = try await transport.listeningAddress
        } catch {
            // The transport says only that it is not listening; why is the error run() ends with.
            let place = "\(configuration.host):\(configuration.port)"
            if let reason = await outcome.ended() {
                throw EmulatorError(
                    .cannotListen, "the emulator could not listen on \(place): \(reason)", cause: reason)
            }
            throw EmulatorError(.notListening, "the emulator is not listening on \(place): it has shut down")
        }
        if let ipv4 = address.ipv4 { return ipv4.port }
        if let ipv6 = address.ipv6 { return ipv6.port }
        throw EmulatorError(.cannotListen, "the emulator listens on \(address), which has no port")
    }

    /// Stops accepting calls, lets the calls in flight finish, then makes ``run()`` return: a
    /// graceful shutdown without a service group.
    public func beginGracefulShutdown() {
        server.beginGracefulShutdown()
    }

    /// How many calls have arrived, of every method, counted as they arrive (before faults,
    /// authorization or rate limits refuse any): to see how often a client asked.
    public var callCount: Int {
        faults.callCount
    }

    /// The billing reports ReportBillableTrip received, in order.
    public var billingReports: [ReportBillableTripRequest] {
        store.billingReports
    }

    /// The fastest a moving trip may run against the emulator's clock: a million times (a year in half
    /// a minute), far below where the elapsed time would no longer fit a `Duration`.
    public static let maximumMotionSpeed: Double = 1_000_000

    /// The most trips one call to ``simulate(providerID:count:seed:speed:keepingStoredTrips:)`` seeds.
    public static let maximumSimulatedTrips = 10_000

    /// Adds a trip that moves by itself: `motion` decides where it is at each moment, `speed` times
    /// faster than the emulator's clock. Returns the trip as it is at the start.
    ///
    /// - Throws: INVALID_ARGUMENT for a malformed name or a speed that is not above 0 and at most
    ///   ``maximumMotionSpeed``, ALREADY_EXISTS for a name in use.
    @discardableResult
    public func addMovingTrip(named name: String, motion: any TripMotion, speed: Double = 1) throws(FleetEngineError)
        -> Trip
    {
        try Self.checkMotionSpeed(speed)
        let tripName = try TripName(parsing: name)
        var trip = Trip()
        trip.name = tripName.description
        return try store.create(trip, motion: motion, speed: speed)
    }

    /// Seeds `count` simulated trips for `providerID` (``TripSimulation/seeded(providerID:count:seed:start:)``),
    /// starting now and running `speed` times faster than the emulator's clock. Deterministic for a
    /// seed. Returns their names, in order.
    ///
    /// - Parameters:
    ///   - providerID: The provider the trips belong to.
    ///   - count: How many trips, 0 to ``maximumSimulatedTrips``.
    ///   - seed: The seed of every random choice: the same seed gives the same trips.
    ///   - speed: How many times faster than the emulator's clock the trips run, above 0 and at most
    ///     ``maximumMotionSpeed``.
    ///   - keepingStoredTrips: Leave a seeded name that is already in use as it is (a trip
    ///     replayed from the data folder: a simulated trip someone updated stopped moving and was
    ///     kept), instead of refusing.
    /// - Throws: INVALID_ARGUMENT for a count below 0 or above ``maximumSimulatedTrips``, or a speed
    ///   that is not above 0 and at most ``maximumMotionSpeed``; ALREADY_EXISTS when a seeded name is
    ///   already in use, unless `keepingStoredTrips`.
    @discardableResult
    public func simulate(
        providerID: String, count: Int, seed: UInt64, speed: Double = 1, keepingStoredTrips: Bool = false
    ) throws(FleetEngineError) -> [String] {
        guard count >= 0, count <= Self.maximumSimulatedTrips else {
            throw EmulatorErrors.invalidArgument(
                field: "count", "cannot simulate \(count) trips: from 0 to \(Self.maximumSimulatedTrips) at a time")
        }
        try Self.checkMotionSpeed(speed)
        let simulations = TripSimulation.seeded(
            providerID: providerID, count: count, seed: seed, start: store.time.now())
        var names: [String] = []
        for simulation in simulations {
            let name = simulation.trip(at: .zero).name
            names.append(name)
            if keepingStoredTrips, let stored = try? TripName(parsing: name), (try? store.get(stored)) != nil {
                continue
            }
            try addMovingTrip(named: name, motion: simulation, speed: speed)
        }
        return names
    }
}

extension FleetEngineEmulator {
    /// Refuses a speed the store could not multiply elapsed time by: not a number, infinite, not above
    /// 0 (a trip that never moves), or so large that the elapsed time overflows `Duration`.
    fileprivate static func checkMotionSpeed(_ speed: Double) throws(FleetEngineError) {
        guard speed.isFinite, speed > 0, speed <= maximumMotionSpeed else {
            throw EmulatorErrors.invalidArgument(
                field: "speed",
                "a moving trip's speed must be above 0 and at most \(Int(maximumMotionSpeed)) times the clock's, "
                    + "not \(speed)")
        }
    }
}

/// Runs an emulator for the duration of `body`, then shuts it down gracefully.
///
/// - Parameters:
///   - configuration: how it listens, authenticates and behaves.
///   - time: the clock trips, versions, simulations and the project's quota run on; the wall clock
///     by default.
///   - logger: where the emulator logs; nowhere by default.
///   - body: what to do while it serves; the emulator's ``FleetEngineEmulator/listeningPort()``
///     says where to call.
public func withFleetEngineEmulator<Result: Sendable>(
    _ configuration: EmulatorConfiguration,
    time: any TimeSource = SystemTimeSource(),
    logger: Logger = Logger(label: "fleet-engine-emulator", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: @Sendable (FleetEngineEmulator) async throws -> Result
) async throws -> Result {
    let emulator = try FleetEngineEmulator(configuration: configuration, time: time, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await emulator.run() }
        do {
            let result = try await body(emulator)
            emulator.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            emulator.beginGracefulShutdown()
            group.cancelAll()
            throw error
        }
    }
}
