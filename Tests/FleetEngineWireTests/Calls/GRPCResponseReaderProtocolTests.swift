import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCResponseReader: streams that break the protocol")
struct GRPCResponseReaderProtocolTests {
    static let head = ResponseScript.head

    static func malformed(_ message: String) -> CallStatus {
        CallStatus(code: .internalError, message: message, origin: .malformedResponse)
    }

    @Test("DATA before the headers is INTERNAL, and the stream is to be reset")
    func dataBeforeHeaders() {
        let (events, reader) = ResponseScript([
            .data(grpcFramed([]), endStream: false),
            .headers(Self.head, endStream: false),
        ]).play()
        #expect(
            events == [
                .end(Self.malformed("a DATA frame of 5 bytes arrived before the response headers"), trailers: [:])
            ])
        #expect(reader.shouldResetStream)
    }

    @Test("data and headers after the trailers are ignored")
    func afterTrailers() {
        var reader = GRPCResponseReader()
        _ = reader.receiveHeaders(Self.head, endStream: false)
        #expect(
            reader.receiveHeaders(ResponseScript.okTrailers, endStream: true) == [
                .end(CallStatus(code: .ok), trailers: [:])
            ])
        #expect(reader.receiveData(grpcFramed([1]), endStream: false) == [])
        #expect(reader.receiveHeaders(Self.head, endStream: false) == [])
        #expect(reader.receiveHeaders(ResponseScript.okTrailers, endStream: true) == [])
        #expect(reader.receiveEndOfConnection(requestSent: true) == [])
        #expect(reader.messageCount == 0)
        #expect(reader.status == CallStatus(code: .ok))
    }

    @Test(
        "the server ending its side after the reader ended the call is still recorded, so no reset is asked for",
        arguments: [
            ("END_STREAM on DATA", ResponseScript.Frame.data([], endStream: true)),
            ("trailers", .headers(ResponseScript.okTrailers, endStream: true)),
            ("RST_STREAM", .reset(.noError)),
            ("the end of the connection", .endOfConnection(requestSent: true, reason: nil)),
        ] as [(String, ResponseScript.Frame)])
    func peerClosesAfterEnd(name: String, closing: ResponseScript.Frame) {
        // A proxy's error page: the reader ends the call at its headers, before the server's side ends.
        let errorPage = [(name: ":status", value: "502"), (name: "content-type", value: "text/html")]
        let (atHead, open) = ResponseScript([.headers(errorPage, endStream: false)]).play()
        #expect(atHead.count == 1)
        #expect(open.shouldResetStream)

        let (events, reader) = ResponseScript([.headers(errorPage, endStream: false), closing]).play()
        #expect(events == atHead)
        #expect(reader.isStreamClosedByPeer, "after \(name)")
        #expect(!reader.shouldResetStream, "after \(name)")
    }

    @Test("a second header block without END_STREAM is INTERNAL")
    func headersTwice() {
        let (events, reader) = ResponseScript([
            .headers(Self.head, endStream: false),
            .headers(Self.head, endStream: false),
        ]).play()
        #expect(
            events.last
                == .end(
                    Self.malformed(
                        "a second header block without END_STREAM arrived after the response headers and 0 messages; "
                            + "only trailers may follow them (RFC 9113 section 8.1)"),
                    trailers: [:]))
        #expect(reader.shouldResetStream)
    }

    @Test("trailers that arrive inside a message are INTERNAL, naming the byte offset of the message")
    func partialMessageAtTrailers() {
        let partial = Array(grpcFramed(Array(0..<10)).dropLast(3))
        let (events, _) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([1, 2, 3]) + partial, endStream: false),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        #expect(
            events == [
                .responseHead(GRPCResponseHead()), .message([1, 2, 3]),
                .end(
                    Self.malformed(
                        "the response ended inside a message: truncated message: stream ended after 7 of the "
                            + "message's 10 bytes; 3 bytes are missing (message at byte offset 8)"),
                    trailers: [:]),
            ])
    }

    @Test("a partial message under an error status keeps the server's status in the message")
    func partialMessageUnderError() {
        let (events, _) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data([0, 0, 0], endStream: false),
            .headers([("grpc-status", "14"), ("grpc-message", "down")], endStream: true),
        ]).play()
        #expect(
            events.last
                == .end(
                    Self.malformed(
                        "the response ended inside a message: truncated message: stream ended 3 bytes into a "
                            + "message's 5-byte prefix; 2 bytes of the prefix are missing (message at byte offset 0); "
                            + "the trailers said UNAVAILABLE (14): down"),
                    trailers: [:]))
    }

    @Test("END_STREAM on DATA, without trailers, is INTERNAL, and says when it stopped inside a message")
    func endStreamOnData() {
        let (whole, _) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([9]), endStream: true),
        ]).play()
        #expect(
            whole == [
                .responseHead(GRPCResponseHead()), .message([9]),
                .end(
                    Self.malformed("the server ended the stream with a DATA frame, without trailers, after 1 message"),
                    trailers: [:]),
            ])

        let (partial, reader) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([9]) + [0, 0, 0, 0, 4, 1], endStream: true),
        ]).play()
        #expect(
            partial.last
                == .end(
                    Self.malformed(
                        "the server ended the stream with a DATA frame, without trailers, after 1 message; "
                            + "truncated message: stream ended after 1 of the message's 4 bytes; 3 bytes are missing "
                            + "(message at byte offset 6)"),
                    trailers: [:]))
        #expect(!reader.shouldResetStream)
    }

    @Test("a Compressed-Flag other than 0 or 1 is INTERNAL; messages before it are delivered")
    func invalidFlag() {
        let (events, reader) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([1]) + grpcFramed([2], flag: 2), endStream: false),
        ]).play()
        #expect(
            events == [
                .responseHead(GRPCResponseHead()), .message([1]),
                .end(
                    Self.malformed(
                        "response message 2: invalid compressed flag: Compressed-Flag is 2; gRPC defines only 0 and 1 "
                            + "(message at byte offset 6)"),
                    trailers: [:]),
            ])
        #expect(reader.shouldResetStream)
    }

    @Test("a message over the limit is RESOURCE_EXHAUSTED, as gRPC's libraries report it")
    func tooLarge() {
        let (events, reader) = ResponseScript(
            [
                .headers(Self.head, endStream: false),
                .data(grpcFramed(Array(repeating: 1, count: 16)) + [0, 0, 0, 0, 17], endStream: false),
            ],
            maxMessageSize: 16
        ).play()
        #expect(
            events == [
                .responseHead(GRPCResponseHead()), .message(Array(repeating: 1, count: 16)),
                .end(
                    CallStatus(
                        code: .resourceExhausted,
                        message: "response message 2: message too large: Message-Length is 17 bytes, more than the "
                            + "limit of 16 bytes (message at byte offset 21)",
                        origin: .malformedResponse),
                    trailers: [:]),
            ])
        #expect(reader.maxMessageSize == 16)
        #expect(reader.status?.error?.requestWasProcessed == true)
    }
}
