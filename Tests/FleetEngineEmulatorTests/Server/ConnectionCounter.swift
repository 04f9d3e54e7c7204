import GRPCNIOTransportHTTP2
import NIOCore
import Synchronization

/// Counts the TCP connections a client opens.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func install(in config: inout HTTP2ClientTransport.Posix.Config) {
        config.channelDebuggingCallbacks.onCreateTCPConnection = { channel in
            self.count.add(1, ordering: .relaxed)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
    }
}
