import GRPCNIOTransportHTTP2
import NIOCore
import Synchronization

/// Records the connection of each HTTP/2 stream (each call) a client opens, in order.
final class StreamLog: Sendable {
    // Holding the channels keeps each connection's identity unique for the whole test.
    private let connections = Mutex<[any Channel]>([])

    var count: Int { connections.withLock { $0.count } }

    /// How many different connections the streams went on.
    var connectionCount: Int {
        connections.withLock { connections in
            Set(connections.map { ObjectIdentifier($0) }).count
        }
    }

    func install(in config: inout HTTP2ClientTransport.Posix.Config) {
        config.channelDebuggingCallbacks.onCreateHTTP2Stream = { stream in
            if let connection = stream.parent { self.connections.withLock { $0.append(connection) } }
            return stream.eventLoop.makeSucceededVoidFuture()
        }
    }
}
