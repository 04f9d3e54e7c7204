import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCResponseReader: response shapes")
struct GRPCResponseReaderTests {
    typealias Frame = ResponseScript.Frame
    static let head = ResponseScript.head

    @Test("a normal response gives its head, its messages, then the trailers' status")
    func normalResponse() {
        let (events, reader) = ResponseScript([
            .headers(Self.head + [("grpc-accept-encoding", "gzip, deflate"), ("x-server", "a")], endStream: false),
            .data(grpcFramed([1, 2, 3]) + grpcFramed([]), endStream: false),
            .headers([("grpc-status", "0"), ("x-trailer", "t")], endStream: true),
        ]).play()
        let expectedHead = GRPCResponseHead(acceptedEncodings: [.gzip, .deflate], metadata: ["x-server": "a"])
        #expect(
            events == [
                .responseHead(expectedHead), .message([1, 2, 3]), .message([]),
                .end(CallStatus(code: .ok), trailers: ["x-trailer": "t"]),
            ])
        #expect(reader.head == expectedHead)
        #expect(reader.messageCount == 2)
        #expect(reader.status == CallStatus(code: .ok))
        #expect(reader.trailers == ["x-trailer": "t"])
        #expect(reader.isFinished)
        #expect(reader.isStreamClosedByPeer)
        #expect(!reader.shouldResetStream)
    }

    @Test("a Trailers-Only response ends the call with its grpc-status and metadata, without a head")
    func trailersOnly() {
        let (events, reader) = ResponseScript([
            .headers(
                Self.head + [("grpc-status", "5"), ("grpc-message", "trip%20not%20found"), ("x-a", "1")],
                endStream: true)
        ]).play()
        #expect(events == [.end(CallStatus(code: .notFound, message: "trip not found"), trailers: ["x-a": "1"])])
        #expect(reader.head == nil)
        #expect(!reader.shouldResetStream)
    }

    @Test("in a Trailers-Only response grpc-status wins over a non-200 :status")
    func grpcStatusWinsOverHTTPStatus() {
        let (events, _) = ResponseScript([
            .headers([(":status", "503"), ("content-type", "application/grpc"), ("grpc-status", "8")], endStream: true)
        ]).play()
        #expect(events == [.end(CallStatus(code: .resourceExhausted), trailers: [:])])
    }

    @Test(
        "a non-200 :status without grpc-status maps by http-grpc-status-mapping.md",
        arguments: [
            (400, StatusCode.internalError), (401, .unauthenticated), (403, .permissionDenied), (404, .unimplemented),
            (429, .unavailable), (500, .unknown), (502, .unavailable), (503, .unavailable), (504, .unavailable),
        ])
    func httpStatusMapping(httpStatus: Int, code: StatusCode) {
        let (events, reader) = ResponseScript([
            .headers([(":status", String(httpStatus)), ("content-type", "application/grpc")], endStream: true)
        ]).play()
        let expected = CallStatus(
            code: code, message: "HTTP status \(httpStatus) without grpc-status", origin: .httpStatus(httpStatus))
        #expect(events == [.end(expected, trailers: [:])])
        #expect(!reader.shouldResetStream)
    }

    @Test("a proxy's HTML error page ends the call with the HTTP mapping and says what content type came")
    func proxyErrorPage() {
        let (events, reader) = ResponseScript([
            .headers(
                [(":status", "502"), ("content-type", "text/html; charset=UTF-8"), ("server", "gfe")], endStream: false),
            .data(Array("<html>".utf8), endStream: true),
        ]).play()
        let expected = CallStatus(
            code: .unavailable,
            message:
                "HTTP status 502 without grpc-status, content-type \"text/html; charset=UTF-8\", not application/grpc",
            origin: .httpStatus(502))
        #expect(events == [.end(expected, trailers: ["server": "gfe"])])
        #expect(!reader.shouldResetStream, "the DATA frame with END_STREAM ended the server's side")
    }

    @Test("a 200 response that is not application/grpc is UNKNOWN, naming the content type")
    func wrongContentType() {
        let (events, reader) = ResponseScript([
            .headers([(":status", "200"), ("content-type", "application/json")], endStream: false)
        ]).play()
        let expected = CallStatus(
            code: .unknown, message: "HTTP status 200, content-type \"application/json\", not application/grpc",
            origin: .malformedResponse)
        #expect(events == [.end(expected, trailers: [:])])
        #expect(reader.shouldResetStream)

        let (noType, _) = ResponseScript([.headers([(":status", "200")], endStream: true)]).play()
        #expect(
            noType == [
                .end(
                    CallStatus(code: .unknown, message: "HTTP status 200, no content-type", origin: .malformedResponse),
                    trailers: [:])
            ])
    }

    @Test("a Trailers-Only 200 gRPC response without grpc-status is UNKNOWN")
    func trailersOnlyWithoutStatus() {
        let (events, _) = ResponseScript([.headers(Self.head, endStream: true)]).play()
        let expected = CallStatus(
            code: .unknown, message: "HTTP status 200 without grpc-status", origin: .httpStatus(200))
        #expect(events == [.end(expected, trailers: [:])])
    }

    @Test("trailers without grpc-status end the call UNKNOWN, saying so")
    func trailersWithoutStatus() {
        let (events, _) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([7]), endStream: false),
            .headers([("x-trailer", "t")], endStream: true),
        ]).play()
        let expected = CallStatus(
            code: .unknown, message: "the response trailers (after 1 message) have no grpc-status",
            origin: .malformedResponse)
        #expect(events.last == .end(expected, trailers: ["x-trailer": "t"]))
    }

    @Test("interim 1xx headers are skipped; one that ends the stream is INTERNAL")
    func informationalHeaders() {
        let (events, _) = ResponseScript([
            .headers([(":status", "103"), ("link", "</a>")], endStream: false),
            .headers(Self.head, endStream: false),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        #expect(events == [.responseHead(GRPCResponseHead()), .end(CallStatus(code: .ok), trailers: [:])])

        let (ended, _) = ResponseScript([.headers([(":status", "100")], endStream: true)]).play()
        let expected = CallStatus(
            code: .internalError, message: "the informational :status 100 ended the stream (RFC 9113 section 8.1)",
            origin: .malformedResponse)
        #expect(ended == [.end(expected, trailers: [:])])
    }

    @Test(
        "a missing or malformed :status is INTERNAL",
        arguments: [
            ([("content-type", "application/grpc")], "the response's :status is missing"),
            ([(":status", "2000")], "the response's :status is \"2000\", not a 3-digit status"),
            ([(":status", "ok")], "the response's :status is \"ok\", not a 3-digit status"),
        ] as [([(name: String, value: String)], String)])
    func malformedStatus(fields: [(name: String, value: String)], message: String) {
        let (events, _) = ResponseScript([.headers(fields, endStream: false)]).play()
        #expect(
            events == [
                .end(CallStatus(code: .internalError, message: message, origin: .malformedResponse), trailers: [:])
            ])
    }

    @Test("RST_STREAM before the end maps by PROTOCOL-HTTP2's Errors table; after it, it is ignored")
    func reset() {
        let (events, reader) = ResponseScript([
            .headers(Self.head, endStream: false),
            .reset(.refusedStream),
            .reset(.cancel),
            .headers(ResponseScript.okTrailers, endStream: true),
        ]).play()
        #expect(
            events == [
                .responseHead(GRPCResponseHead()), .end(CallStatus(rstStreamErrorCode: .refusedStream), trailers: [:]),
            ])
        #expect(reader.status?.code == .unavailable)
        #expect(reader.status?.origin == .streamReset(.refusedStream))
        #expect(!reader.shouldResetStream)

        let (afterEnd, _) = ResponseScript([
            .headers(Self.head + ResponseScript.okTrailers, endStream: true), .reset(.noError),
        ]).play()
        #expect(afterEnd == [.end(CallStatus(code: .ok), trailers: [:])])
    }

    @Test("the end of the connection is UNAVAILABLE, and says whether the request could have been processed")
    func endOfConnection() {
        let (before, _) = ResponseScript([.endOfConnection(requestSent: false, reason: "GOAWAY")]).play()
        let beforeStatus = CallStatus(
            code: .unavailable,
            message: "the connection closed before the response ended (no response headers): GOAWAY",
            origin: .connection(requestSent: false))
        #expect(before == [.end(beforeStatus, trailers: [:])])
        #expect(beforeStatus.error?.requestWasProcessed == false)

        let (after, reader) = ResponseScript([
            .headers(Self.head, endStream: false),
            .data(grpcFramed([1]) + grpcFramed([2]), endStream: false),
            .endOfConnection(requestSent: false, reason: nil),
        ]).play()
        let afterStatus = CallStatus(
            code: .unavailable, message: "the connection closed before the response ended (after 2 messages)",
            origin: .connection(requestSent: true))
        #expect(after.last == .end(afterStatus, trailers: [:]))
        #expect(!reader.shouldResetStream)
    }

    @Test("a call cancelled by the caller ends with the caller's status and asks for a reset")
    func cancel() {
        var reader = GRPCResponseReader()
        _ = reader.receiveHeaders(Self.head, endStream: false)
        let deadline = CallStatus(code: .deadlineExceeded, message: "deadline passed", origin: .local)
        #expect(reader.cancel(with: deadline) == [.end(deadline, trailers: [:])])
        #expect(reader.shouldResetStream)
        #expect(reader.receiveData(grpcFramed([1]), endStream: false) == [])
        #expect(reader.cancel(with: CallStatus(code: .cancelled)) == [])
        #expect(reader.status == deadline)
    }
}
