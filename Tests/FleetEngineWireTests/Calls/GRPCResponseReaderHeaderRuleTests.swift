import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCResponseReader: header blocks that RFC 9113 makes malformed")
struct GRPCResponseReaderHeaderRuleTests {
    /// The event that ends a call whose response is malformed, saying `message`.
    static func malformedEnd(_ message: String) -> GRPCResponseReader.Event {
        .end(CallStatus(code: .internalError, message: message, origin: .malformedResponse), trailers: [:])
    }

    /// The last event of a response whose headers are well-formed and whose trailers are `trailers`.
    static func endAfterTrailers(_ trailers: [(name: String, value: String)]) -> GRPCResponseReader.Event? {
        ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .headers(trailers, endStream: true),
        ]).play().events.last
    }

    @Test(
        "response headers that break RFC 9113's field rules end the call INTERNAL, and the stream is to be reset",
        arguments: [
            (
                [(":status", "200"), (":status", "500"), ("content-type", "application/grpc")],
                "header field 1 (:status) appears more than once (RFC 9113 section 8.3)"
            ),
            (
                [("content-type", "application/grpc"), (":status", "200")],
                "header field 1 (:status) comes after the regular field 0; pseudo-header fields come first "
                    + "(RFC 9113 section 8.3)"
            ),
            (
                [(":status", "200"), (":path", "/a/b"), ("content-type", "application/grpc")],
                "header field 1 (:path) is not a response pseudo-header (RFC 9113 section 8.3.2)"
            ),
            (
                [(":status", "200"), ("content-type", "application/grpc"), ("X-Trace", "1")],
                "header field 2 (X-Trace) has upper-case letters (RFC 9113 section 8.2.1)"
            ),
            (
                [(":status", "200"), ("content-type", "application/grpc"), ("connection", "close")],
                "header field 2 (connection) is a connection-specific field, which HTTP/2 forbids "
                    + "(RFC 9113 section 8.2.2)"
            ),
        ] as [([(String, String)], String)])
    func malformedHead(fields: [(String, String)], problem: String) {
        let block = fields.map { (name: $0.0, value: $0.1) }
        let (events, reader) = ResponseScript([
            .headers(block, endStream: false),
            .data(grpcFramed([1]), endStream: false),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        #expect(events == [Self.malformedEnd("the response headers are malformed: " + problem)])
        #expect(reader.head == nil)

        let (atHead, open) = ResponseScript([.headers(block, endStream: false)]).play()
        #expect(atHead == events)
        #expect(open.shouldResetStream)
    }

    @Test("a Trailers-Only response with a repeated :status is INTERNAL, not the status it carries")
    func malformedTrailersOnly() {
        let block = [
            (name: ":status", value: "200"), (name: ":status", value: "503"), (name: "grpc-status", value: "0"),
        ]
        let (events, reader) = ResponseScript([.headers(block, endStream: true)]).play()
        #expect(
            events == [
                Self.malformedEnd(
                    "the response headers are malformed: header field 1 (:status) appears more than once "
                        + "(RFC 9113 section 8.3)")
            ])
        #expect(!reader.shouldResetStream)
    }

    @Test("trailers that carry a pseudo-header are INTERNAL, whatever grpc-status they hold")
    func pseudoHeaderInTrailers() {
        let trailers = [(name: ":status", value: "200"), (name: "grpc-status", value: "0")]
        let (events, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .data(grpcFramed([1]), endStream: false),
            .headers(trailers, endStream: true),
        ]).play()
        #expect(
            events.last
                == Self.malformedEnd(
                    "the response trailers are malformed: header field 0 (:status) is a pseudo-header, which "
                        + "trailers do not carry (RFC 9113 section 8.1)"))
        #expect(events.dropLast() == [.responseHead(GRPCResponseHead()), .message([1])])
        #expect(!reader.shouldResetStream)

        var headless = GRPCResponseReader()
        let found = headless.receiveTrailersWithoutHead([
            (name: ":path", value: "/a/b"), (name: "grpc-status", value: "0"),
        ])
        #expect(
            found == [
                Self.malformedEnd(
                    "the response trailers are malformed: header field 0 (:path) is a pseudo-header, which "
                        + "trailers do not carry (RFC 9113 section 8.1)")
            ])
    }

    @Test(
        "a field name or value with bytes RFC 9113 forbids makes the trailers malformed",
        arguments: [
            (("x trace", "1"), "header field 1 (x trace) has byte 0x20 at byte 1, which a field name may not hold"),
            (("", "1"), "header field 1 () has an empty name"),
            (("x:trace", "1"), "header field 1 (x:trace) has ':' at byte 1, which a field name may not hold"),
            (("x-trace", "a\r\nb"), "header field 1 (x-trace) has a value with byte 0xd at byte 1"),
            (("x-trace", "a\u{0}"), "header field 1 (x-trace) has a value with byte 0x0 at byte 1"),
        ] as [((String, String), String)])
    func forbiddenBytes(field: (String, String), problem: String) {
        let trailers = [(name: "grpc-status", value: "0"), (name: field.0, value: field.1)]
        #expect(
            Self.endAfterTrailers(trailers)
                == Self.malformedEnd(
                    "the response trailers are malformed: " + problem + " (RFC 9113 section 8.2.1)"))
    }

    @Test(
        "each connection-specific field makes the trailers malformed",
        arguments: ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"])
    func connectionSpecificTrailer(name: String) {
        let trailers = [(name: "grpc-status", value: "0"), (name: name, value: "x")]
        #expect(
            Self.endAfterTrailers(trailers)
                == Self.malformedEnd(
                    "the response trailers are malformed: header field 1 (\(name)) is a connection-specific field, "
                        + "which HTTP/2 forbids (RFC 9113 section 8.2.2)"))
    }

    @Test(
        "names as long as a connection-specific one, but other, are metadata",
        arguments: ["x-grade", "connectiom", "keep-alivf", "proxy-connectioo", "transfer-encodinh"])
    func connectionSpecificLookalike(name: String) {
        #expect(
            Self.endAfterTrailers([(name: "grpc-status", value: "0"), (name: name, value: "x")])
                == .end(CallStatus(code: .ok), trailers: [name: "x"]))
    }

    @Test("a repeated grpc-status is INTERNAL, not the first of the two", arguments: [false, true])
    func repeatedGRPCStatus(trailersOnly: Bool) {
        let statuses = [(name: "grpc-status", value: "0"), (name: "grpc-status", value: "13")]
        let frames: [ResponseScript.Frame] =
            trailersOnly
            ? [.headers(ResponseScript.head + statuses, endStream: true)]
            : [.headers(ResponseScript.head, endStream: false), .headers(statuses, endStream: true)]
        let (events, reader) = ResponseScript(frames).play()
        let block = trailersOnly ? "headers" : "trailers"
        let field = trailersOnly ? 3 : 1
        #expect(
            events.last
                == Self.malformedEnd(
                    "the response \(block) are malformed: header field \(field) (grpc-status) appears more than "
                        + "once; a call ends with one status"))
        #expect(!reader.shouldResetStream)
    }

    @Test("lower-case names, :status first and once, and ordinary metadata are read as before")
    func wellFormed() {
        let head = [
            (name: ":status", value: "200"), (name: "content-type", value: "application/grpc"),
            (name: "x-trace", value: "1"),
        ]
        let (events, _) = ResponseScript([
            .headers(head, endStream: false),
            .headers(ResponseScript.okTrailers + [(name: "x-done", value: "yes")], endStream: true),
        ]).play()
        #expect(
            events == [
                .responseHead(GRPCResponseHead(metadata: ["x-trace": "1"])),
                .end(CallStatus(code: .ok), trailers: ["x-done": "yes"]),
            ])
    }
}
