import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that plays a broken HTTP/2 peer: it reads and ignores everything,
/// and, when `sendsSettings` is true, writes one empty SETTINGS frame (RFC 9113 section 6.5) so the
/// client counts the connection as ready — and then never answers a request or a PING.
final class SilentHTTP2Server: Sendable {
    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    init(sendsSettings: Bool) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(SilentHandler(sendsSettings: sendsSettings))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func close() async {
        try? await channel.close()
    }

    private final class SilentHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let sendsSettings: Bool

        init(sendsSettings: Bool) { self.sendsSettings = sendsSettings }

        func channelActive(context: ChannelHandlerContext) {
            if sendsSettings {
                // Length 0, type 0x4 (SETTINGS), no flags, stream 0.
                let frame = context.channel.allocator.buffer(bytes: [0, 0, 0, 0x4, 0, 0, 0, 0, 0])
                context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}
