import FleetEngineStatus
import NIOCore
import NIOHTTP2
import NIOTLS

/// Sits on the connection's pipeline between the HTTP/2 handler and the ``CallTable`` and sees the connection-level frames.
///
/// The connection counts as ready on the server's first SETTINGS frame (RFC 9113 section 3.4: the
/// server's preface), not when TCP or TLS comes up, so that a server that does not speak HTTP/2
/// fails the connection attempt rather than the first call. It records GOAWAY (RFC 9113 section
/// 6.8) and sends keepalive PINGs (section 6.7) when configured, after an interval without frames,
/// closing the connection when one goes unanswered.
final class ConnectionEventsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let ready: EventLoopPromise<Void>
    private var isReady = false
    private let keepalive: ClientConfiguration.Keepalive?
    private let onGoAway: @Sendable () -> Void
    private let onClose: @Sendable ((any Error)?) -> Void
    private var pingTask: RepeatedTask?
    private var pingTimeout: Scheduled<Void>?
    /// Whether a frame arrived since the keepalive task last looked: a connection that is heard
    /// from needs no PING (one store per frame, where a clock reading per frame would cost more).
    private var heardSinceLastLook = false
    private var error: (any Error)?
    /// Whether calls are in flight on the connection.
    private let hasCallsInFlight: @Sendable () -> Bool
    private static let pingData = HTTP2PingData(withInteger: 0x666C_6565_7474_7269)

    init(
        ready: EventLoopPromise<Void>,
        keepalive: ClientConfiguration.Keepalive?,
        hasCallsInFlight: @escaping @Sendable () -> Bool,
        onGoAway: @escaping @Sendable () -> Void,
        onClose: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.ready = ready
        self.keepalive = keepalive
        self.hasCallsInFlight = hasCallsInFlight
        self.onGoAway = onGoAway
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        heardSinceLastLook = true
        switch frame.payload {
        case .settings(.settings):
            if !isReady {
                isReady = true
                ready.succeed()
                startKeepalive(context: context)
            }
        case .goAway(_, let code, let opaque):
            onGoAway()
            if code != .noError {
                // The debug data is the server's: it reaches logs and terminals in this message.
                let text = opaque.map { TerminalText.escaped(String(buffer: $0)) } ?? ""
                error = FleetEngineError(
                    code: .unavailable,
                    message: "the server sent GOAWAY with \(code)" + (text.isEmpty ? "" : ": \(text)"),
                    origin: .connection(requestSent: true)
                )
            }
        case .ping(let data, ack: true) where data == Self.pingData:
            pingTimeout?.cancel()
            pingTimeout = nil
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The TLS handshake ends before the server's SETTINGS can be read: once ready, the events
        // are swift-nio-http2's (several per call) and need no cast.
        if !isReady, let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted(let negotiated) = tlsEvent,
            negotiated != "h2"
        {
            // gRPC needs HTTP/2; a server that picked another protocol (or none) cannot carry calls.
            let failure = FleetEngineError(
                code: .unavailable,
                message:
                    "the server did not negotiate HTTP/2 over TLS (ALPN chose \(negotiated.map { "\"\($0)\"" } ?? "nothing"))",
                origin: .connection(requestSent: false)
            )
            fail(context: context, failure)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A stream error affects only the stream it names: the call table settles its call.
        if error is NIOHTTP2Errors.StreamError {
            context.fireErrorCaught(error)
            return
        }
        fail(context: context, error)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // A connection that never became active (refused, unreachable) is torn down without
        // channelInactive: the attempt still needs its answer.
        tearDown()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        onClose(error)
        context.fireChannelInactive()
    }

    /// Stops the timers and answers a connection attempt still waiting for SETTINGS.
    private func tearDown() {
        pingTask?.cancel()
        pingTimeout?.cancel()
        if !isReady {
            isReady = true
            ready.fail(
                error
                    ?? FleetEngineError(
                        code: .unavailable,
                        message: "the connection closed before the server's HTTP/2 SETTINGS arrived",
                        origin: .connection(requestSent: false)
                    ))
        }
    }

    private func fail(context: ChannelHandlerContext, _ failure: any Error) {
        if error == nil { error = failure }
        if !isReady {
            isReady = true
            ready.fail(failure)
        }
        context.close(promise: nil)
    }

    private func startKeepalive(context: ChannelHandlerContext) {
        guard let keepalive else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pingTask = context.eventLoop.scheduleRepeatedTask(
            initialDelay: TimeAmount(keepalive.interval), delay: TimeAmount(keepalive.interval)
        ) { _ in
            let (handler, context) = loopBound.value
            handler.sendPing(context: context, timeout: keepalive.timeout)
        }
    }

    private func sendPing(context: ChannelHandlerContext, timeout: Duration) {
        if heardSinceLastLook {
            heardSinceLastLook = false
            return
        }
        // gRPC servers count PINGs on a connection without calls as abuse (and answer with GOAWAY
        // ENHANCE_YOUR_CALM), so by default only a connection carrying calls is probed.
        guard pingTimeout == nil, hasCallsInFlight() || keepalive?.permitWithoutCalls == true else { return }
        context.writeAndFlush(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(Self.pingData, ack: false))), promise: nil)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pingTimeout = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let (handler, context) = loopBound.value
            handler.fail(
                context: context,
                FleetEngineError(
                    code: .unavailable,
                    message: "the server did not answer a keepalive PING within \(timeout)",
                    origin: .connection(requestSent: true)
                ))
        }
    }
}
