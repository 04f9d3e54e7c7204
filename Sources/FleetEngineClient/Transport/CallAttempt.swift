import FleetEngineStatus
import FleetEngineWire
import NIOCore
import NIOHPACK
import NIOHTTP2

/// What one attempt of a unary call came to, as the stream handler saw it.
enum CallAttemptOutcome: Sendable {
    /// The call ended with a status: the response payloads (one for a unary call that succeeded),
    /// the status, and the server's retry pushback from the trailers, if it sent one.
    case ended(payloads: [[UInt8]], status: CallStatus, pushback: GRPCRetryPushback)

    /// The call failed without a status from the server: a connection failure, a local deadline, a
    /// cancellation. The error says whether the request may have been processed.
    case failed(FleetEngineError)
}

/// The request of one attempt: the header block and the framed message, both built once per call
/// and reused by every attempt.
struct CallRequest: Sendable {
    var headers: HPACKHeaders
    var body: ByteBuffer
    var maxResponseSize: Int
}

/// The per-stream handler of one call attempt: writes the request when the stream channel is
/// active, feeds what arrives to the Wire layer's ``GRPCResponseReader``, and completes the
/// attempt's promise exactly once — with the status, or with a failure when the stream is reset,
/// the connection goes away, the deadline passes or the caller cancels.
///
/// Runs on the connection's event loop only.
final class CallStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let request: CallRequest
    private let promise: EventLoopPromise<CallAttemptOutcome>
    private let deadline: NIODeadline
    private let connection: HTTP2Connection
    private var reader: GRPCResponseReader
    private var payloads: [[UInt8]] = []
    private var completed = false
    private var requestWritten = false
    private var decidingClosure = false
    private var deadlineTask: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(
        request: CallRequest,
        deadline: NIODeadline,
        connection: HTTP2Connection,
        promise: EventLoopPromise<CallAttemptOutcome>
    ) {
        self.request = request
        self.deadline = deadline
        self.connection = connection
        self.promise = promise
        self.reader = GRPCResponseReader(maxMessageSize: request.maxResponseSize)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadlineTask = context.eventLoop.scheduleTask(deadline: deadline) {
            loopBound.value.cancel(
                with: FleetEngineError(
                    code: .deadlineExceeded,
                    message: "the call's deadline passed before the server answered",
                    origin: .local
                ))
        }
        if context.channel.isActive { writeRequest(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        deadlineTask?.cancel()
    }

    func channelActive(context: ChannelHandlerContext) {
        writeRequest(context: context)
        context.fireChannelActive()
    }

    private func writeRequest(context: ChannelHandlerContext) {
        guard !requestWritten, !completed else { return }
        requestWritten = true
        context.write(wrapOutboundOut(.headers(.init(headers: request.headers))), promise: nil)
        context.writeAndFlush(
            wrapOutboundOut(.data(.init(data: .byteBuffer(request.body), endStream: true))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !completed else { return }
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            let fields = headers.headers.map { (name: $0.name, value: $0.value) }
            handle(reader.receiveHeaders(fields, endStream: headers.endStream))
        case .data(let frame):
            guard case .byteBuffer(let buffer) = frame.data else { return }
            let events = buffer.withUnsafeReadableBytes { bytes in
                reader.receiveData(bytes, endStream: frame.endStream)
            }
            handle(events)
        case .rstStream(let code):
            handle(reader.receiveReset(FleetEngineStatus.HTTP2ErrorCode(rawValue: UInt32(code.networkCode))))
        default:
            break
        }
    }

    private func handle(_ events: [GRPCResponseReader.Event]) {
        for event in events {
            switch event {
            case .responseHead:
                break
            case .message(let payload):
                payloads.append(payload)
            case .end(let status, let trailers):
                complete(.ended(payloads: payloads, status: status, pushback: trailers.retryPushbackAdvice))
                context?.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let closed = error as? NIOHTTP2Errors.StreamClosed {
            // swift-nio-http2 closes the streams a GOAWAY left out with CANCEL, as if reset. The
            // connection's handler records that GOAWAY in the same read, so decide on the next turn
            // of the event loop: a stream above the last stream id was not processed (RFC 9113
            // section 6.8) and is safe to send again; any other closure is the server's reset.
            let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
            decidingClosure = true
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            let connection = self.connection
            context.eventLoop.execute {
                let handler = loopBound.value
                if let streamID, let last = connection.goAwayLastStreamID, streamID > last {
                    handler.complete(
                        .failed(
                            FleetEngineError(
                                code: .unavailable,
                                message: "the server's GOAWAY (last stream \(last)) left this call's stream "
                                    + "\(streamID) unprocessed",
                                origin: .connection(requestSent: false)
                            )))
                } else {
                    let code = FleetEngineStatus.HTTP2ErrorCode(rawValue: UInt32(closed.errorCode.networkCode))
                    handler.complete(
                        .ended(payloads: [], status: CallStatus(rstStreamErrorCode: code), pushback: .absent))
                }
            }
        } else {
            complete(
                .failed(
                    FleetEngineError(
                        code: .unavailable,
                        message: "the HTTP/2 stream failed: \(error)",
                        origin: .connection(requestSent: requestSentToServer),
                        cause: error
                    )))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A stream closure being decided (errorCaught) completes the attempt itself.
        if decidingClosure {
            context.fireChannelInactive()
            return
        }
        complete(
            .failed(
                FleetEngineError(
                    code: .unavailable,
                    message: "the connection closed before the call ended",
                    origin: .connection(requestSent: requestSentToServer),
                    cause: connection.closeReason
                )))
        context.fireChannelInactive()
    }

    /// Ends the attempt with `error` and resets the stream (RST_STREAM CANCEL), for a deadline or
    /// a cancellation.
    func cancel(with error: FleetEngineError) {
        complete(.failed(error))
        context?.close(promise: nil)
    }

    /// Whether the server may have seen this stream: false while it has no stream id, and false when
    /// the server's GOAWAY named a last stream id below it (RFC 9113 section 6.8: such streams were
    /// not processed).
    private var requestSentToServer: Bool {
        guard requestWritten, let channel = context?.channel,
            let streamID = try? channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
        else { return false }
        if let lastStreamID = connection.goAwayLastStreamID, streamID > lastStreamID { return false }
        return true
    }

    private func complete(_ outcome: CallAttemptOutcome) {
        guard !completed else { return }
        completed = true
        deadlineTask?.cancel()
        promise.succeed(outcome)
    }
}
