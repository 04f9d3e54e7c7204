import FleetEngineStatus
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// Opens HTTP/2 connections: TCP, then TLS with ALPN `h2` (or plaintext h2c), then the HTTP/2
/// preface and the server's SETTINGS.
///
/// Every connection of a client is made on the same event loop, chosen once from the group: the
/// client's calls, their timers and the tasks that prefer ``FleetEngineClient/taskExecutor`` all
/// run on that one thread.
struct Connector: Sendable {
    let configuration: ClientConfiguration
    let eventLoop: any EventLoop
    private let sslContext: NIOSSLContext?
    /// The name sent as SNI and checked against the certificate; nil for plaintext and for an
    /// endpoint given as an IP address (whose certificate is checked for that address).
    private let serverHostname: String?
    /// The check of the certificate's DNS names, when a host name is verified (see
    /// ``ServerNameVerifier`` for why swift-nio-ssl's own check is not used for it).
    private let serverNameVerifier: ServerNameVerifier?

    /// A connector for `configuration`; `logger` gets the one warning of a key log file that
    /// cannot be written.
    init(
        configuration: ClientConfiguration, eventLoopGroup: any EventLoopGroup, logger: Logger
    ) throws(FleetEngineError) {
        self.configuration = configuration
        self.eventLoop = eventLoopGroup.next()
        switch configuration.transportSecurity.mode {
        case .plaintext:
            sslContext = nil
            serverHostname = nil
            serverNameVerifier = nil
        case .tls(var tls, let name):
            if let name, name.isEmpty || Self.isIPAddress(name) {
                // SNI carries host names only (RFC 6066 section 3): swift-nio-ssl refuses an IP
                // address there at each connection attempt, which read as UNAVAILABLE and was
                // retried; a wrong configuration is the caller's to fix, said once, at once.
                let what = name.isEmpty ? "is empty" : "is an IP address"
                throw FleetEngineError(
                    code: .invalidArgument,
                    message: "the TLS serverHostname \"\(name)\" \(what), not a host name: to check a server by its "
                        + "IP address, make the endpoint that address and leave serverHostname nil",
                    origin: .local
                )
            }
            let host = configuration.endpoint.host
            let serverHostname = name ?? (Self.isIPAddress(host) ? nil : host)
            self.serverHostname = serverHostname
            if let serverHostname, tls.certificateVerification == .fullVerification {
                tls.certificateVerification = .noHostnameVerification
                serverNameVerifier = ServerNameVerifier(hostname: serverHostname)
            } else {
                serverNameVerifier = nil
            }
            if let keyLog = configuration.tlsKeyLog {
                tls.keyLogCallback = keyLog.keyLogCallback(chainingTo: tls.keyLogCallback, logger: logger)
            }
            do {
                sslContext = try NIOSSLContext(configuration: tls)
            } catch {
                throw FleetEngineError(
                    code: .invalidArgument,
                    message: "the TLS configuration is not usable: \(error)",
                    origin: .local,
                    cause: error
                )
            }
        }
    }

    /// A ready connection (the server's SETTINGS arrived), or UNAVAILABLE with the reason.
    func connect(
        id: Int,
        onGoAway: @escaping @Sendable (HTTP2Connection) -> Void,
        onClose: @escaping @Sendable (HTTP2Connection) -> Void
    ) async throws(FleetEngineError) -> HTTP2Connection {
        let endpoint = configuration.endpoint
        let serverHostname = self.serverHostname
        let serverNameVerifier = self.serverNameVerifier
        let keepalive = configuration.keepalive
        let sslContext = self.sslContext
        let box = ConnectionBox()
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let sslContext, let serverNameVerifier {
                        // Runs after the chain is verified and before the handshake completes, so
                        // nothing is sent to a server whose certificate names another host.
                        let handler = try NIOSSLClientHandler._makeSSLClientHandler(
                            context: sslContext, serverHostname: serverHostname
                        ) { certificate, channel in
                            channel.eventLoop.makeCompletedFuture { try serverNameVerifier.verify(certificate) }
                        }
                        try sync.addHandler(handler)
                    } else if let sslContext {
                        try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverHostname))
                    }
                    let ready = channel.eventLoop.makePromise(of: Void.self)
                    box.ready = ready.futureResult
                    try sync.addHandler(
                        NIOHTTP2Handler(
                            mode: .client, connectionConfiguration: Self.connectionConfiguration,
                            streamConfiguration: NIOHTTP2Handler.StreamConfiguration()))
                    let status = ConnectionStatus()
                    let table = CallTable(status: status)
                    let connection = HTTP2Connection(id: id, channel: channel, status: status, table: table)
                    box.connection = connection
                    try sync.addHandler(
                        ConnectionEventsHandler(
                            ready: ready,
                            keepalive: keepalive,
                            hasCallsInFlight: { table.hasCalls },
                            onGoAway: {
                                status.recordDraining()
                                onGoAway(connection)
                            },
                            onClose: { error in
                                if let error { status.recordCloseReason(error) }
                                onClose(connection)
                            }
                        ))
                    try sync.addHandler(table)
                }
            }
        do {
            let channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
            guard let ready = box.ready, let connection = box.connection else {
                channel.close(promise: nil)
                throw FleetEngineError(code: .internalError, message: "the connection was not set up", origin: .local)
            }
            // TCP's connect timeout does not cover TLS and the HTTP/2 preface: a server that
            // accepts the connection and then says nothing is given up on after the same time.
            let setupTimeout = channel.eventLoop.scheduleTask(in: TimeAmount(configuration.connectTimeout)) {
                connection.status.recordCloseReason(
                    FleetEngineError(
                        code: .unavailable,
                        message: "\(endpoint) did not complete the TLS and HTTP/2 set-up within "
                            + "\(configuration.connectTimeout)",
                        origin: .connection(requestSent: false)
                    ))
                channel.close(promise: nil)
            }
            defer { setupTimeout.cancel() }
            do {
                try await ready.get()
            } catch {
                throw connection.closeReason ?? error
            }
            return connection
        } catch let error as FleetEngineError {
            throw error
        } catch {
            throw FleetEngineError(
                code: .unavailable,
                message: "cannot connect to \(endpoint): " + ConnectionFailureText.describe(error),
                origin: .connection(requestSent: false),
                cause: error
            )
        }
    }

    /// The settings the client opens with: per-stream receive windows of ``CallTable/streamWindow``
    /// (the ``CallTable`` keeps them, and the connection's, open), no server push (gRPC has none),
    /// a bound on the header list, and frames up to the stream window (RFC 9113 section 6.5.2
    /// allows up to 16 MiB), so that a response of a trip or a page of them comes in one DATA frame
    /// rather than in pieces of the default 16 KiB, each with its own frame processing.
    ///
    /// NIOHTTP2's checks of header blocks and content lengths are off. Every field the client sends
    /// was checked by the Wire layer when the request head was built (``GRPCRequestHead``: names,
    /// values, pseudo-header order), so NIOHTTP2's second check of each outgoing block only cost
    /// time (with its check of incoming blocks, about 3% of a call's CPU). Incoming blocks go to
    /// ``GRPCResponseReader``, which checks them as RFC 9113 sections 8.2 and 8.3 ask (a malformed
    /// block ends its call INTERNAL), takes the fields gRPC gives a meaning by name and turns a
    /// response that lacks them or does not read as gRPC into a status (as it does for bytes from
    /// a capture); gRPC responses carry no `content-length`. With NIOHTTP2's check, a malformed
    /// block from the server closed the whole connection and failed every call on it; now it fails
    /// its own call only.
    static let connectionConfiguration: NIOHTTP2Handler.ConnectionConfiguration = {
        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
        configuration.headerBlockValidation = .disabled
        configuration.contentLengthValidation = .disabled
        configuration.initialSettings = [
            HTTP2Setting(parameter: .enablePush, value: 0),
            HTTP2Setting(parameter: .initialWindowSize, value: CallTable.streamWindow),
            HTTP2Setting(parameter: .maxHeaderListSize, value: HPACKDecoder.defaultMaxHeaderListSize),
            HTTP2Setting(parameter: .maxFrameSize, value: CallTable.streamWindow),
        ]
        return configuration
    }()

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// Hands the pieces built inside the channel initializer back to the connecting task.
private final class ConnectionBox: @unchecked Sendable {
    // @unchecked: written once in the channel initializer, read after `connect` completes, which
    // orders the two.
    var ready: EventLoopFuture<Void>?
    var connection: HTTP2Connection?
}
