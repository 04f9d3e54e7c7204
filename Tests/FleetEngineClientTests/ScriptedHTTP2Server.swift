import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix

/// A plaintext HTTP/2 server on 127.0.0.1 that answers each call with what a script says, byte for
/// byte: the responses no correct gRPC server would send, to see what the client makes of them.
final class ScriptedHTTP2Server: Sendable {
    /// One answer to a call.
    enum Response: Sendable {
        /// HEADERS (:status 200, application/grpc), one DATA frame with `data` as it is (the gRPC
        /// prefix included or not, as the test wants), then trailers with `grpc-status`.
        case raw(data: [UInt8], grpcStatus: Int)
        /// HEADERS and one DATA frame as in ``raw(data:grpcStatus:)``, and then nothing: the stream
        /// stays open.
        case unending(data: [UInt8])
        /// One HEADERS frame with END_STREAM: `:status` and whatever `fields` say.
        case headersOnly(status: String, fields: [(String, String)])
        /// One HEADERS frame with END_STREAM holding exactly `fields`, in order, however malformed
        /// (a server made with `validatesHeaders: false` sends them as they are).
        case headerBlock([(String, String)])
        /// RST_STREAM with this HTTP/2 error code, before any response.
        case reset(NIOHTTP2.HTTP2ErrorCode)
        /// The response, after a delay (the connection answers PINGs meanwhile).
        indirect case delayed(Response, by: TimeAmount)
        /// GOAWAY (NO_ERROR) naming the stream before this one as the last processed, and no
        /// answer on this stream: RFC 9113 section 6.8 says it was not processed.
        case goAwayBeforeThisStream
        /// The connection closed, with no answer on this stream or any other.
        case closeConnection
    }

    let channel: any Channel
    private let calls = NIOLockedValueBox(0)
    private let open = NIOLockedValueBox((now: 0, peak: 0))
    private let heads = NIOLockedValueBox<[HPACKHeaders]>([])
    private let connections = NIOLockedValueBox(0)
    var port: Int { channel.localAddress?.port ?? 0 }
    /// How many calls (request streams that ended) the server saw.
    var callCount: Int { calls.withLockedValue { $0 } }
    /// The most calls the server held unanswered at once.
    var peakOpenCalls: Int { open.withLockedValue { $0.peak } }
    /// The request header blocks the server read, in arrival order, each field with the HPACK
    /// representation it came in (`indexable` is how swift-nio-http2 reports it).
    var requestHeaders: [HPACKHeaders] { heads.withLockedValue { $0 } }
    /// How many client connections are open now: the server itself closes none.
    var openConnections: Int { connections.withLockedValue { $0 } }

    /// A server that runs `script`, advertising `maxConcurrentStreams` (SETTINGS, RFC 9113
    /// section 6.5.2) when given; with `validatesHeaders` false, swift-nio-http2 sends header blocks
    /// that break RFC 9113's rules instead of refusing them.
    init(
        maxConcurrentStreams: Int? = nil, validatesHeaders: Bool = true,
        script: @escaping @Sendable (Int) -> Response
    ) async throws {
        let calls = self.calls
        let open = self.open
        let heads = self.heads
        let connections = self.connections
        let connection = {
            var connection = NIOHTTP2Handler.ConnectionConfiguration()
            if !validatesHeaders { connection.headerBlockValidation = .disabled }
            if let maxConcurrentStreams {
                connection.initialSettings = [
                    HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams)
                ]
            }
            return connection
        }()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                connections.withLockedValue { $0 += 1 }
                child.closeFuture.whenComplete { _ in connections.withLockedValue { $0 -= 1 } }
                return child.eventLoop.makeCompletedFuture {
                    _ = try child.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: connection, streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(
                                CallHandler(script: script, calls: calls, open: open, heads: heads))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func close() async {
        try? await channel.close()
    }

    private final class CallHandler: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload
        let script: @Sendable (Int) -> Response
        let calls: NIOLockedValueBox<Int>
        let open: NIOLockedValueBox<(now: Int, peak: Int)>
        let heads: NIOLockedValueBox<[HPACKHeaders]>
        var counted = false

        init(
            script: @escaping @Sendable (Int) -> Response, calls: NIOLockedValueBox<Int>,
            open: NIOLockedValueBox<(now: Int, peak: Int)>, heads: NIOLockedValueBox<[HPACKHeaders]>
        ) {
            self.script = script
            self.calls = calls
            self.open = open
            self.heads = heads
        }

        func channelInactive(context: ChannelHandlerContext) {
            if counted { open.withLockedValue { $0.now -= 1 } }
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let ended: Bool
            switch unwrapInboundIn(data) {
            case .headers(let headers):
                heads.withLockedValue { $0.append(headers.headers) }
                ended = headers.endStream
            case .data(let frame): ended = frame.endStream
            default: ended = false
            }
            guard ended else { return }
            let number = calls.withLockedValue {
                $0 += 1
                return $0
            }
            counted = true
            open.withLockedValue {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
            respond(script(number), context: context)
        }

        private func respond(_ response: Response, context: ChannelHandlerContext) {
            switch response {
            case .delayed(let response, let delay):
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: delay) {
                    let (handler, context) = loopBound.value
                    handler.respond(response, context: context)
                }
            case .raw(let bytes, let grpcStatus):
                let head: HPACKHeaders = [":status": "200", "content-type": "application/grpc"]
                context.write(wrapOutboundOut(.headers(.init(headers: head))), promise: nil)
                let buffer = context.channel.allocator.buffer(bytes: bytes)
                context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer)))), promise: nil)
                let trailers: HPACKHeaders = ["grpc-status": "\(grpcStatus)"]
                context.writeAndFlush(
                    wrapOutboundOut(.headers(.init(headers: trailers, endStream: true))), promise: nil)
            case .unending(let bytes):
                let head: HPACKHeaders = [":status": "200", "content-type": "application/grpc"]
                context.write(wrapOutboundOut(.headers(.init(headers: head))), promise: nil)
                let buffer = context.channel.allocator.buffer(bytes: bytes)
                context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer)))), promise: nil)
            case .headersOnly(let status, let fields):
                var headers: HPACKHeaders = [":status": status]
                for (name, value) in fields { headers.add(name: name, value: value) }
                context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
            case .headerBlock(let fields):
                var headers = HPACKHeaders()
                for (name, value) in fields { headers.add(name: name, value: value) }
                context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
            case .reset(let code):
                context.writeAndFlush(wrapOutboundOut(.rstStream(code)), promise: nil)
            case .goAwayBeforeThisStream:
                guard let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
                else { return }
                let last = HTTP2StreamID(Int32(Int(streamID) - 2))
                let frame = HTTP2Frame(
                    streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: .noError, opaqueData: nil))
                context.channel.parent?.writeAndFlush(frame, promise: nil)
            case .closeConnection:
                context.channel.parent?.close(promise: nil)
            }
        }
    }
}
