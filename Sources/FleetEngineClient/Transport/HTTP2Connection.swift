import FleetEngineStatus
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP2

/// What other threads need to know about a connection: whether it takes new calls, and why it
/// ended.
final class ConnectionStatus: Sendable {
    private struct State {
        var isDraining = false
        var closeReason: (any Error)?
    }

    private let state = NIOLockedValueBox(State())

    /// Whether the connection takes no new calls: the server sent GOAWAY, or the client has used up
    /// the connection's stream ids.
    var isDraining: Bool { state.withLockedValue { $0.isDraining } }

    /// Why the connection ended, if it ended with an error.
    var closeReason: (any Error)? { state.withLockedValue { $0.closeReason } }

    func recordDraining() {
        state.withLockedValue { $0.isDraining = true }
    }

    func recordCloseReason(_ error: any Error) {
        state.withLockedValue { state in
            if state.closeReason == nil { state.closeReason = error }
        }
    }
}

/// One HTTP/2 connection to the server and the calls it carries.
///
/// swift-nio-http2's `NIOHTTP2Handler` does the protocol: framing, HPACK, SETTINGS, outbound flow
/// control, and it holds back new streams beyond the server's `SETTINGS_MAX_CONCURRENT_STREAMS`
/// until others close. The connection's ``CallTable`` runs the calls on it, one stream each.
final class HTTP2Connection: Sendable {
    /// A number for logs, unique within the process.
    let id: Int
    let channel: any Channel
    let status: ConnectionStatus
    let table: CallTable

    init(id: Int, channel: any Channel, status: ConnectionStatus, table: CallTable) {
        self.id = id
        self.channel = channel
        self.status = status
        self.table = table
    }

    /// Whether new calls may use this connection: open, with no GOAWAY received and stream ids
    /// left.
    var acceptsNewCalls: Bool {
        channel.isActive && !status.isDraining
    }

    /// Why the connection ended, if it ended with an error.
    var closeReason: (any Error)? { status.closeReason }

    /// Runs one attempt of a unary call on a new stream and returns how it ended; every failure
    /// is an outcome. When the calling task is cancelled the stream is reset and the outcome is
    /// `cancellation`.
    func call(
        _ request: CallRequest, deadline: NIODeadline, cancellation: FleetEngineError
    ) async -> CallAttemptOutcome {
        let attempt = CallAttempt(request: request, deadline: deadline)
        let eventLoop = channel.eventLoop
        let table = self.table
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                if eventLoop.inEventLoop {
                    table.start(attempt, continuation: continuation)
                } else {
                    eventLoop.execute { table.start(attempt, continuation: continuation) }
                }
            }
        } onCancel: {
            eventLoop.execute { table.cancel(attempt, with: cancellation) }
        }
    }

    /// Closes the connection once no call is in flight on it: now, if none is.
    func closeWhenIdle() {
        let table = self.table
        channel.eventLoop.execute { table.closeWhenIdle() }
    }

    /// Closes the connection now; calls in flight fail with UNAVAILABLE.
    func close() {
        channel.close(promise: nil)
    }
}
