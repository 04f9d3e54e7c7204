import FleetEngineStatus
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One HTTP/2 connection to the server and the calls it carries.
///
/// swift-nio-http2 does the protocol: framing, flow control, HPACK, SETTINGS, and it queues new
/// streams beyond the server's `SETTINGS_MAX_CONCURRENT_STREAMS` until others close. This type
/// opens a stream per call, remembers the server's GOAWAY (so a call on a stream the server never
/// processed is known to be safe to send again), and says when the connection is gone.
final class HTTP2Connection: Sendable {
    /// A number for logs, unique within the process.
    let id: Int
    let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    private let state: NIOLockedValueBox<State>

    private struct State {
        var goAwayLastStreamID: HTTP2StreamID?
        var closeReason: (any Error)?
        var activeCalls = 0
        var closeWhenIdle = false
    }

    init(id: Int, channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer) {
        self.id = id
        self.channel = channel
        self.multiplexer = multiplexer
        self.state = NIOLockedValueBox(State())
    }

    /// The last stream id of the server's GOAWAY, once one came: streams above it were not processed.
    var goAwayLastStreamID: HTTP2StreamID? { state.withLockedValue { $0.goAwayLastStreamID } }

    /// Whether new calls may use this connection: open, and no GOAWAY received.
    var acceptsNewCalls: Bool {
        channel.isActive && state.withLockedValue { $0.goAwayLastStreamID == nil }
    }

    /// Why the connection ended, if it ended with an error.
    var closeReason: (any Error)? { state.withLockedValue { $0.closeReason } }

    /// The number of calls in flight on this connection.
    var activeCalls: Int { state.withLockedValue { $0.activeCalls } }

    func receivedGoAway(lastStreamID: HTTP2StreamID) {
        state.withLockedValue { state in
            // A server may send several GOAWAYs, each with a lower or equal last stream id.
            state.goAwayLastStreamID = min(state.goAwayLastStreamID ?? lastStreamID, lastStreamID)
        }
    }

    func recordCloseReason(_ error: any Error) {
        state.withLockedValue { state in
            if state.closeReason == nil { state.closeReason = error }
        }
    }

    /// Starts one call attempt on a new stream. The returned future always succeeds, with the
    /// attempt's outcome; `cancel` on the returned handle ends it early.
    func startCall(_ request: CallRequest, deadline: NIODeadline) -> (
        EventLoopFuture<CallAttemptOutcome>, CallCanceller
    ) {
        let eventLoop = channel.eventLoop
        let promise = eventLoop.makePromise(of: CallAttemptOutcome.self)
        let canceller = CallCanceller(eventLoop: eventLoop)
        state.withLockedValue { $0.activeCalls += 1 }
        promise.futureResult.whenComplete { [state, channel] _ in
            let close = state.withLockedValue { state in
                state.activeCalls -= 1
                return state.closeWhenIdle && state.activeCalls == 0
            }
            if close { channel.close(promise: nil) }
        }
        let streamPromise = eventLoop.makePromise(of: (any Channel).self)
        multiplexer.createStreamChannel(promise: streamPromise) { [self] streamChannel in
            streamChannel.eventLoop.makeCompletedFuture {
                let handler = CallStreamHandler(
                    request: request, deadline: deadline, connection: self, promise: promise)
                try streamChannel.pipeline.syncOperations.addHandler(handler)
                canceller.attach(handler)
            }
        }
        streamPromise.futureResult.whenFailure { [self] error in
            promise.succeed(
                .failed(
                    FleetEngineError(
                        code: .unavailable,
                        message: "could not open an HTTP/2 stream: \(error)",
                        origin: .connection(requestSent: false),
                        cause: closeReason ?? error
                    )))
        }
        return (promise.futureResult, canceller)
    }

    /// Closes the connection once no call is in flight on it: now, if none is.
    func closeWhenIdle() {
        let idle = state.withLockedValue { state in
            state.closeWhenIdle = true
            return state.activeCalls == 0
        }
        if idle { channel.close(promise: nil) }
    }

    /// Closes the connection now; calls in flight fail with UNAVAILABLE.
    func close() {
        channel.close(promise: nil)
    }
}

/// Ends a call attempt early from any thread: hops to the connection's event loop and tells the
/// stream handler, which resets the stream.
final class CallCanceller: Sendable {
    private let eventLoop: any EventLoop
    /// The stream's handler once it exists, and the error of a cancellation that came first.
    private let state: NIOLockedValueBox<(handler: NIOLoopBound<CallStreamHandler>?, pending: FleetEngineError?)>

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.state = NIOLockedValueBox((nil, nil))
    }

    /// Called on the event loop when the stream's handler exists.
    func attach(_ streamHandler: CallStreamHandler) {
        let pending = state.withLockedValue { state in
            state.handler = NIOLoopBound(streamHandler, eventLoop: eventLoop)
            return state.pending
        }
        if let pending { streamHandler.cancel(with: pending) }
    }

    func cancel(with error: FleetEngineError) {
        let handler = state.withLockedValue { state in
            state.pending = error
            return state.handler
        }
        guard let handler else { return }  // attach() will cancel it
        eventLoop.execute { handler.value.cancel(with: error) }
    }
}
