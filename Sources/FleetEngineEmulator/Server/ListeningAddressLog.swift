import Logging
import NIOCore

/// Logs the address the emulator's listening socket is bound to, once it is bound.
///
/// The address is known only then (a port of 0 becomes a real one), and the transport's own
/// `listeningAddress` is no way to wait for it beside `serve()`: it never completes for a server
/// shut down before it started listening, so a task waiting on it would keep `run()` from
/// returning. A handler on the listening channel sees the bind, or nothing, and waits for nothing.
final class ListeningAddressLog: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The callback for the transport's `onBindTCPListener`: adds the handler to the listening channel.
    static func installer(logger: Logger) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ListeningAddressLog(logger: logger))
            }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        // A listening channel becomes active when it is bound.
        if let address = context.channel.localAddress, let ip = address.ipAddress, let port = address.port {
            let host = ip.contains(":") ? "[\(ip)]" : ip
            logger.info("emulator listening", metadata: ["address": "\(host):\(port)"])
        }
        context.fireChannelActive()
    }
}
