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
    /// is an outcome. When the calling task is cancelled, or `cancellation` is, the stream is reset
    /// and the outcome is `cancelledError`.
    func call(
        _ request: CallRequest, deadline: NIODeadline, cancellation: CallCancellation? = nil,
        cancelledError: FleetEngineError
    ) async -> CallAttemptOutcome {
        let attempt = CallAttempt(request: request, deadline: deadline)
        let eventLoop = channel.eventLoop
        let table = self.table
        let cancel: @Sendable () -> Void = {
            eventLoop.execute { table.cancel(attempt, with: cancelledError) }
        }
        // Set before the attempt starts: a cancellation that came first is seen here; one that
        // comes later cancels the attempt as the task's does (one that reaches the event loop
        // before the start is kept by the attempt, which the start then ends at once).
        if let cancellation, !cancellation.setHandler(cancel) { return .failed(cancelledError) }
        defer { cancellation?.clearHandler() }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                if eventLoop.inEventLoop {
                    table.start(attempt, continuation: continuation)
                } else {
                    eventLoop.execute { table.start(attempt, continuation: continuation) }
                }
            }
        } onCancel: {
            cancel()
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
