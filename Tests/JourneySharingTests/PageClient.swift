import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain HTTP/1.1 client for the pages' tests, over NIO on loopback: one request per connection
/// (`Connection: close`), the response's head, and its body as it arrives.
enum PageClient {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    /// GETs `path` from 127.0.0.1:`port` and reads the whole response (until the server ends it).
    static func get(port: Int, _ path: String) async throws -> Response {
        try await stream(port: port, path) { status, headers, body in
            var text = ""
            while let part = try await body.next() { text += part }
            return Response(status: status, headers: headers, body: text)
        }
    }

    /// A response's body, part by part as it arrives; nil at its end.
    struct Body: ~Copyable {
        fileprivate var parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator

        mutating func next() async throws -> String? {
            while let part = try await parts.next() {
                switch part {
                case .body(let buffer): return String(buffer: buffer)
                case .end: return nil
                case .head: continue
                }
            }
            return nil
        }
    }

    /// GETs `path` and hands `read` the status, the headers and the body; the connection closes
    /// when `read` returns.
    static func stream<Result: Sendable>(
        port: Int, _ path: String, _ read: (Int, HTTPHeaders, inout Body) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
            head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
            head.headers.add(name: "Connection", value: "close")
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))
            var parts = inbound.makeAsyncIterator()
            guard case .head(let response) = try await parts.next() else {
                throw PageClientError(message: "the server sent no response head")
            }
            var body = Body(parts: parts)
            return try await read(Int(response.status.code), response.headers, &body)
        }
    }
}

struct PageClientError: Error {
    var message: String
}
