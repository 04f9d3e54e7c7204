import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCResponseReader: messages")
struct GRPCResponseReaderMessageTests {
    static let payloads: [[UInt8]] = [[0x0A, 0x03, 0x61, 0x62, 0x63], [], Array(0..<40)]

    /// Plays a response whose body is cut into DATA frames as `cut` says.
    static func play(
        head: [(name: String, value: String)] = ResponseScript.head,
        cut: DeframerVerifier.Cut
    ) -> [GRPCResponseReader.Event] {
        let frames =
            [ResponseScript.Frame.headers(head, endStream: false)]
            + cut.pieces.map { .data(Array($0), endStream: false) }
            + [.headers(ResponseScript.okTrailers, endStream: true)]
        return ResponseScript(frames).play().events
    }

    @Test("returns the same messages however DATA frames cut them, down to every byte offset")
    func everyCut() {
        let body = Self.payloads.flatMap { grpcFramed($0) }
        let expected: [GRPCResponseReader.Event] =
            [.responseHead(GRPCResponseHead())] + Self.payloads.map { .message($0) }
            + [.end(CallStatus(code: .ok), trailers: [:])]
        for cut in DeframerVerifier.cuts(of: body) {
            #expect(Self.play(cut: cut) == expected, "\(cut)")
        }
    }

    @Test("decompresses gzip messages and passes uncompressed ones through, however the frames cut them")
    func gzip() throws {
        let framer = GRPCMessageFramer(encoding: .gzip)
        let trip = Array(repeating: Array("providers/p/trips/t".utf8), count: 20).flatMap { $0 }
        let body = try framer.frame(trip) + framer.frame([1, 2, 3], compress: false) + framer.frame([])
        #expect(body[0] == 1)
        #expect(body.count < trip.count)
        let head = ResponseScript.head + [("grpc-encoding", "gzip")]
        let expected: [GRPCResponseReader.Event] = [
            .responseHead(GRPCResponseHead(encoding: .gzip)), .message(trip), .message([1, 2, 3]), .message([]),
            .end(CallStatus(code: .ok), trailers: [:]),
        ]
        for cut in DeframerVerifier.cuts(of: body) {
            #expect(Self.play(head: head, cut: cut) == expected, "\(cut)")
        }
    }

    @Test("decompresses deflate (zlib format) messages from another implementation")
    func deflate() {
        let body = grpcFramed(MessageEncodingTests.helloZlib, flag: 1)
        let (events, _) = ResponseScript([
            .headers(ResponseScript.head + [("grpc-encoding", "deflate")], endStream: false),
            .data(body, endStream: false),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        #expect(events.dropFirst().first == .message(MessageEncodingTests.hello))
    }

    @Test("bytes that break the framing on a DATA frame with END_STREAM: INTERNAL, and the server closed its side")
    func badFramingWithEndStream() {
        let (_, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .data(grpcFramed([1, 2, 3], flag: 2), endStream: true),
        ]).play()
        #expect(reader.status?.code == .internalError)
        #expect(reader.isStreamClosedByPeer)
        #expect(!reader.shouldResetStream, "no RST_STREAM is owed on a stream the server ended")
    }

    @Test("a compressed message without grpc-encoding is INTERNAL")
    func compressedWithoutEncoding() {
        let (events, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .data(grpcFramed(MessageEncodingTests.helloGzip, flag: 1), endStream: false),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        let expected = CallStatus(
            code: .internalError,
            message: "response message 1: compressed without encoding: message of 25 bytes is flagged compressed, "
                + "but the grpc-encoding is identity (message at byte offset 0)",
            origin: .malformedResponse)
        #expect(events == [.responseHead(GRPCResponseHead()), .end(expected, trailers: [:])])
        #expect(!reader.shouldResetStream, "the trailers ended the server's side after the call ended")
    }

    @Test("a compressed message under an encoding this library lacks is INTERNAL; uncompressed ones still read")
    func unknownEncoding() {
        let snappy = MessageEncoding(rawValue: "snappy")
        let (events, _) = ResponseScript([
            .headers(ResponseScript.head + [("grpc-encoding", "snappy")], endStream: false),
            .data(grpcFramed([4]) + grpcFramed([5, 6], flag: 1), endStream: false),
        ]).play()
        let expected = CallStatus(
            code: .internalError,
            message: "response message 2: unsupported encoding: grpc-encoding 'snappy' is not one of identity, gzip, "
                + "deflate (message at byte offset 6)",
            origin: .malformedResponse)
        #expect(
            events == [.responseHead(GRPCResponseHead(encoding: snappy)), .message([4]), .end(expected, trailers: [:])])
    }

    @Test("a compressed message that inflates past the limit is RESOURCE_EXHAUSTED")
    func decompressionBomb() throws {
        let body = try GRPCMessageFramer(encoding: .gzip).frame(Array(repeating: 0, count: 1_000))
        let (events, _) = ResponseScript(
            [
                .headers(ResponseScript.head + [("grpc-encoding", "gzip")], endStream: false),
                .data(body, endStream: false),
            ],
            maxMessageSize: 100
        ).play()
        guard case .end(let status, _) = events.last else {
            Issue.record("no end event: \(events)")
            return
        }
        #expect(status.code == .resourceExhausted)
        #expect(status.origin == .malformedResponse)
        #expect(status.message.hasPrefix("response message 1: message too large: "))
    }

    @Test("a message split across many DATA frames is delivered once it is complete, not before")
    func deliveredWhenComplete() {
        var reader = GRPCResponseReader()
        _ = reader.receiveHeaders(ResponseScript.head, endStream: false)
        let message = grpcFramed([1, 2, 3, 4])
        #expect(reader.receiveData(message[0..<2], endStream: false) == [])
        #expect(reader.receiveData(message[2..<7], endStream: false) == [])
        #expect(reader.receiveData([UInt8](), endStream: false) == [])
        #expect(reader.receiveData(message[7...], endStream: false) == [.message([1, 2, 3, 4])])
        #expect(reader.messageCount == 1)
    }
}
