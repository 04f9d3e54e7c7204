import NIOCore
import Synchronization

/// Closes a connection abruptly when its `n`-th call arrives (``FaultPlan/dropConnectionAtCall``,
/// read from the fault plan at each call, so that it may change while the emulator runs): the
/// call's request has been sent, its response never comes, and no GOAWAY warns the client.
final class ConnectionDropper: Sendable {
    private let callNumber: @Sendable () -> Int?
    private let counts = Mutex<[ObjectIdentifier: Int]>([:])

    init(callNumber: @escaping @Sendable () -> Int?) {
        self.callNumber = callNumber
    }

    /// Called by the transport for each new HTTP/2 stream (one per call).
    func streamAccepted(_ stream: any Channel) -> EventLoopFuture<Void> {
        guard let connection = stream.parent else { return stream.eventLoop.makeSucceededVoidFuture() }
        let key = ObjectIdentifier(connection)
        let count = counts.withLock { counts -> Int in
            let count = (counts[key] ?? 0) + 1
            counts[key] = count
            return count
        }
        if count == 1 {
            // Forget the connection when it closes, so the table holds only open connections.
            connection.closeFuture.whenComplete { _ in
                self.counts.withLock { $0[key] = nil }
            }
        }
        if count == callNumber() {
            // Close on the event loop's next turn: the request is on the wire by then, and the
            // handler's response (written from a task, later, through this same event loop) can
            // only queue up behind the close. Closing inside this callback would pull the stream
            // away while the transport is still setting it up; closing after a fixed delay let fast
            // calls be answered, so the drop hit a later call or none.
            stream.eventLoop.execute {
                connection.close(promise: nil)
            }
        }
        return stream.eventLoop.makeSucceededVoidFuture()
    }
}
