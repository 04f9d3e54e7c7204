import FleetEngineStatus
import FleetEngineWire
import NIOCore
import NIOHPACK
import NIOHTTP2

/// The calls in flight on one HTTP/2 connection, kept at the level of frames.
///
/// It sits on the connection's pipeline after `NIOHTTP2Handler` (which does the framing, HPACK,
/// the stream state machine, outbound flow control, and holds back new streams beyond the server's
/// `SETTINGS_MAX_CONCURRENT_STREAMS`) and does the rest of what a stream needs for a unary gRPC
/// call, without a channel per stream: it numbers the streams, writes each request as one HEADERS
/// and one DATA frame, feeds the frames of each stream to the Wire layer's
/// ``GRPCResponseReader``, resets a stream whose call ends early (RST_STREAM CANCEL), keeps the
/// receive windows open (WINDOW_UPDATE, RFC 9113 section 6.9), and settles the calls a GOAWAY
/// left unprocessed (section 6.8) or a closed connection took with it.
///
/// Requests started in the same turn of the event loop are flushed together, in one write to the
/// socket.
///
/// Everything here runs on the connection's event loop: `start`, `cancel` and `closeWhenIdle`
/// are called there by ``HTTP2Connection``, which is what makes the `@unchecked Sendable` sound.
final class CallTable: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The receive window kept open for each stream and for the connection as a whole: wide enough
    /// that a response of a few trips never waits for, or costs, a WINDOW_UPDATE.
    static let streamWindow = 1 << 20
    static let connectionWindow = 8 << 20
    /// The highest stream id a client can open (RFC 9113 section 5.1.1: ids are 31 bits, and a
    /// client's are odd).
    static let lastStreamID = Int32.max
    /// The window every HTTP/2 connection starts with (RFC 9113 section 6.9.2).
    private static let initialConnectionWindow = 65_535

    private let status: ConnectionStatus
    private var context: ChannelHandlerContext?
    private var calls: [HTTP2StreamID: CallAttempt] = [:]
    /// The id of the next stream the client opens (odd, RFC 9113 section 5.1.1); internal so that
    /// tests can bring a connection near the end of its ids.
    var nextStreamID: Int32 = 1
    private var usedUpStreamIDs = false
    private var goAwayLastStreamID: HTTP2StreamID?
    private var isClosed = false
    private var closesWhenIdle = false
    private var flushScheduled = false
    private var openedConnectionWindow = false
    /// The `authorization` value of the last request started here (``authorizationIndexing(for:)``).
    private var lastAuthorization: String?
    /// The timer that ends calls at their deadlines, set for the earliest deadline in flight.
    private var deadlineTimer: (id: UInt64, at: NIODeadline, task: Scheduled<Void>)?
    private var lastDeadlineTimerID: UInt64 = 0

    init(status: ConnectionStatus) {
        self.status = status
    }

    /// Whether calls are in flight.
    var hasCalls: Bool { !calls.isEmpty }

    // MARK: Calls

    /// Opens a stream for `attempt` and writes its request; `continuation` is resumed when the
    /// attempt ends, however it ends.
    func start(_ attempt: CallAttempt, continuation: UnsafeContinuation<CallAttemptOutcome, Never>) {
        attempt.attach(continuation)
        if let failure = attempt.pendingFailure {
            attempt.complete(.failed(failure))
            return
        }
        guard let context, !isClosed else {
            attempt.complete(
                .failed(
                    FleetEngineError(
                        code: .unavailable, message: "the connection closed before the call could start",
                        origin: .connection(requestSent: false), cause: status.closeReason)))
            return
        }
        guard goAwayLastStreamID == nil, !usedUpStreamIDs else {
            // No new streams on a connection that is going away (or has used up its stream ids):
            // the call is sent again on a new connection.
            attempt.complete(
                .failed(
                    FleetEngineError(
                        code: .unavailable, message: "the connection takes no new streams",
                        origin: .connection(requestSent: false))))
            return
        }
        let streamID = HTTP2StreamID(nextStreamID)
        if nextStreamID == Self.lastStreamID {
            // Stream ids cannot be reused: new calls go to a new connection, and this one closes
            // when its calls have ended.
            usedUpStreamIDs = true
            status.recordDraining()
            closesWhenIdle = true
        } else {
            nextStreamID += 2
        }
        attempt.streamID = streamID
        calls[streamID] = attempt
        armDeadlineTimer(for: attempt.deadline)
        var headers = attempt.request.headers
        if let authorization = attempt.request.authorization {
            headers.add(
                name: "authorization", value: authorization, indexing: authorizationIndexing(for: authorization))
        }
        context.write(
            wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers)))), promise: nil)
        context.write(
            wrapOutboundOut(
                HTTP2Frame(
                    streamID: streamID, payload: .data(.init(data: .byteBuffer(attempt.request.body), endStream: true)))
            ),
            promise: nil)
        scheduleFlush()
    }

    /// How the token provider's `authorization` value goes into this connection's HPACK encoder:
    /// indexed when it is the value of the request before, never indexed otherwise.
    ///
    /// A service's own token is the same on every call for its lifetime: indexed, it costs one
    /// byte after the second call, where a literal costs the Huffman coding of some 700 characters
    /// (about a twentieth of a call's CPU) and as many bytes on the wire, every time. Consumer
    /// tokens, one per trip, seldom come twice in a row: never indexed, they do not push the
    /// fields every call repeats out of the table (RFC 7541 section 4.4) for a value not sent
    /// again, and they are kept out of the tables of intermediaries. Indexing a token is not the
    /// exposure RFC 7541 section 7.1 guards against: an entry matches only a whole name and
    /// value, so guessing it means guessing all of a signed token at once (section 7.1.2), and a
    /// caller cannot send a field of that name beside it (the client refuses `authorization` in a
    /// call's metadata when it writes the token). grpc-swift-2's client indexes it too, as it does
    /// every field.
    private func authorizationIndexing(for value: String) -> HPACKIndexing {
        defer { lastAuthorization = value }
        return value == lastAuthorization ? .indexable : .neverIndexed
    }

    /// Ends `attempt` with `error` (a deadline, a cancellation) and resets its stream.
    func cancel(_ attempt: CallAttempt, with error: FleetEngineError) {
        guard !attempt.isCompleted else { return }
        guard let streamID = attempt.streamID, calls[streamID] === attempt else {
            // Not started yet: ``start(_:continuation:)`` will end it at once.
            attempt.pendingFailure = error
            attempt.complete(.failed(error))
            return
        }
        finish(attempt, .failed(error))
    }

    /// Closes the connection once no call is in flight: now, if none is.
    func closeWhenIdle() {
        closesWhenIdle = true
        if calls.isEmpty { context?.close(promise: nil) }
    }

    /// Takes `attempt` out of the table, resets its stream unless the server ended it, and
    /// resumes its caller.
    private func finish(_ attempt: CallAttempt, _ outcome: CallAttemptOutcome) {
        if let streamID = attempt.streamID, calls.removeValue(forKey: streamID) != nil, !attempt.streamEndedByServer,
            let context
        {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
            scheduleFlush()
        }
        attempt.complete(outcome)
        if closesWhenIdle, calls.isEmpty { context?.close(promise: nil) }
    }

    /// Whether the server may have seen the attempt's request: not when it was never written, nor
    /// when the server's GOAWAY named a last stream id below its stream (RFC 9113 section 6.8:
    /// such streams were not processed).
    private func requestReachedServer(_ attempt: CallAttempt) -> Bool {
        guard attempt.requestWritten, let streamID = attempt.streamID else { return false }
        if let last = goAwayLastStreamID, streamID > last { return false }
        return true
    }

    // MARK: Deadlines

    // One timer for the table, not one per call. Nearly every call ends before its deadline, so a
    // timer per call would be cancelled per call, and NIO finds a cancelled timer by scanning all
    // the timers of its loop: with the refresh timers of thousands of followed trips on the same
    // loop, that scan was about a tenth of the client's CPU. A timer that is no longer the
    // earliest is left to fire and finds nothing due.

    /// Makes sure a timer goes off by `deadline`.
    private func armDeadlineTimer(for deadline: NIODeadline) {
        if let timer = deadlineTimer, timer.at <= deadline { return }
        guard let context else { return }
        lastDeadlineTimerID &+= 1
        let id = lastDeadlineTimerID
        let task = context.eventLoop.scheduleTask(deadline: deadline) { [weak self] () -> Void in
            self?.deadlineTimerFired(id)
        }
        deadlineTimer = (id, deadline, task)
    }

    /// Ends the calls whose deadline has passed, then sets the timer for the next deadline.
    private func deadlineTimerFired(_ id: UInt64) {
        if deadlineTimer?.id == id { deadlineTimer = nil }
        let now = NIODeadline.now()
        let due = calls.values.filter { $0.deadline <= now }
        for attempt in due {
            cancel(
                attempt,
                with: FleetEngineError(
                    code: .deadlineExceeded,
                    message: "the call's deadline passed before the server answered",
                    origin: .local
                ))
        }
        if let next = calls.values.lazy.map(\.deadline).min() { armDeadlineTimer(for: next) }
    }

    private func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.execute { [self] in
            flushScheduled = false
            self.context?.flush()
        }
    }

    // MARK: Inbound

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failAll(message: "the connection was torn down before the call ended")
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(message: "the connection closed before the call ended")
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.streamID != .rootStream else {
            switch frame.payload {
            case .settings(.settings) where !openedConnectionWindow:
                // The connection's own window starts at 64 KiB whatever SETTINGS say; open it wide
                // once the connection is up.
                openedConnectionWindow = true
                sendWindowUpdate(.rootStream, increment: Self.connectionWindow - Self.initialConnectionWindow)
            case .goAway(let lastStreamID, _, _):
                receivedGoAway(lastStreamID: lastStreamID)
            default:
                break
            }
            return
        }
        guard let attempt = calls[frame.streamID] else { return }
        switch frame.payload {
        case .headers(let headers):
            if headers.endStream { attempt.streamEndedByServer = true }
            let fields = headers.headers.map { (name: $0.name, value: $0.value) }
            deliver(attempt.reader.receiveHeaders(fields, endStream: headers.endStream), to: attempt)
        case .data(let data):
            guard case .byteBuffer(let buffer) = data.data else { return }
            if data.endStream { attempt.streamEndedByServer = true }
            let events = buffer.withUnsafeReadableBytes { bytes in
                attempt.reader.receiveData(bytes, endStream: data.endStream)
            }
            deliver(events, to: attempt)
        case .rstStream(let code):
            attempt.streamEndedByServer = true
            deliver(
                attempt.reader.receiveReset(FleetEngineStatus.HTTP2ErrorCode(rawValue: UInt32(code.networkCode))),
                to: attempt)
        default:
            break
        }
    }

    private func deliver(_ events: [GRPCResponseReader.Event], to attempt: CallAttempt) {
        for event in events {
            switch event {
            case .responseHead:
                break
            case .message(let payload):
                guard attempt.payload == nil else {
                    // A unary call has one response message. Ending the call at the second keeps
                    // a server that streams messages from piling them up until its deadline.
                    finish(attempt, .failed(Self.secondMessage))
                    return
                }
                attempt.payload = payload
            case .end(let callStatus, let trailers):
                finish(
                    attempt,
                    .ended(payload: attempt.payload, status: callStatus, pushback: trailers.retryPushbackAdvice))
                return
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Several events reach this handler on every call. A cast from `Any` that fails costs
        // more than one that succeeds, so each event is cast once, to the type it has.
        let eventType = ObjectIdentifier(type(of: event))
        if eventType == ObjectIdentifier(NIOHTTP2WindowUpdatedEvent.self),
            let update = event as? NIOHTTP2WindowUpdatedEvent, let inbound = update.inboundWindowSize
        {
            let isConnection = update.streamID == .rootStream
            let target = isConnection ? Self.connectionWindow : Self.streamWindow
            if inbound <= target / 2, isConnection ? openedConnectionWindow : calls[update.streamID] != nil {
                sendWindowUpdate(update.streamID, increment: target - inbound)
            }
        } else if eventType == ObjectIdentifier(NIOHTTP2StreamCreatedEvent.self),
            let created = event as? NIOHTTP2StreamCreatedEvent
        {
            // swift-nio-http2 opens a stream when its HEADERS leave the handler (at once, or when
            // the server's stream limit lets it): from then on the server may have the request.
            calls[created.streamID]?.requestWritten = true
        } else if eventType == ObjectIdentifier(StreamClosedEvent.self), let closed = event as? StreamClosedEvent {
            guard let attempt = calls[closed.streamID] else { return }
            // The stream closed without the END_STREAM or RST_STREAM that ends a call: swift-nio-http2
            // closes the streams a GOAWAY left out, and the GOAWAY may be read after this event.
            // Decide on the next turn of the event loop, when it has been.
            let reason = closed.reason
            context.eventLoop.execute { [self] in
                streamClosedUnderCall(attempt, reason: reason)
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // swift-nio-http2 resets a stream that broke the protocol and reports it here; the
        // connection's own errors are handled before this handler.
        guard let streamError = error as? NIOHTTP2Errors.StreamError, let attempt = calls[streamError.streamID] else {
            return
        }
        attempt.streamEndedByServer = true
        finish(
            attempt,
            .failed(
                FleetEngineError(
                    code: .unavailable,
                    message: "the HTTP/2 stream failed: \(streamError.baseError)",
                    origin: .connection(requestSent: requestReachedServer(attempt)),
                    cause: streamError
                )))
    }

    private func streamClosedUnderCall(_ attempt: CallAttempt, reason: NIOHTTP2.HTTP2ErrorCode?) {
        guard let streamID = attempt.streamID, calls[streamID] === attempt else { return }
        attempt.streamEndedByServer = true
        if let last = goAwayLastStreamID, streamID > last {
            finish(attempt, .failed(Self.leftOutByGoAway(streamID: streamID, last: last)))
        } else {
            let code = FleetEngineStatus.HTTP2ErrorCode(rawValue: UInt32((reason ?? .internalError).networkCode))
            finish(attempt, .ended(payload: nil, status: CallStatus(rstStreamErrorCode: code), pushback: .absent))
        }
    }

    private func receivedGoAway(lastStreamID: HTTP2StreamID) {
        // A server may send several GOAWAYs, each with a lower or equal last stream id.
        let last = min(goAwayLastStreamID ?? lastStreamID, lastStreamID)
        goAwayLastStreamID = last
        let leftOut = calls.values.filter { ($0.streamID ?? .rootStream) > last }
        for attempt in leftOut {
            // swift-nio-http2 has closed these streams already; they were never processed.
            attempt.streamEndedByServer = true
            finish(attempt, .failed(Self.leftOutByGoAway(streamID: attempt.streamID ?? last, last: last)))
        }
        // The connection takes no new calls: it is closed once the calls below the last stream id
        // have ended, as gRPC's clients do, rather than left open beside the next connection for
        // as long as the server (which may wait for the client, RFC 9113 section 6.8) keeps it.
        closeWhenIdle()
    }

    private static let secondMessage = FleetEngineError(
        code: .internalError, message: "the server sent a second response message on a unary call",
        origin: .malformedResponse)

    private static func leftOutByGoAway(streamID: HTTP2StreamID, last: HTTP2StreamID) -> FleetEngineError {
        FleetEngineError(
            code: .unavailable,
            message: "the server's GOAWAY (last stream \(last)) left this call's stream \(streamID) unprocessed",
            origin: .connection(requestSent: false)
        )
    }

    private func failAll(message: String) {
        isClosed = true
        deadlineTimer?.task.cancel()
        deadlineTimer = nil
        let attempts = Array(calls.values)
        calls.removeAll()
        for attempt in attempts {
            attempt.complete(
                .failed(
                    FleetEngineError(
                        code: .unavailable, message: message,
                        origin: .connection(requestSent: requestReachedServer(attempt)), cause: status.closeReason)))
        }
    }

    private func sendWindowUpdate(_ streamID: HTTP2StreamID, increment: Int) {
        guard let context, increment > 0 else { return }
        context.write(
            wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .windowUpdate(windowSizeIncrement: increment))),
            promise: nil)
        scheduleFlush()
    }
}
