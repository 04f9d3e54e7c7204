import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("GRPCResponseReader: status details and trailer metadata")
struct GRPCResponseReaderStatusTests {
    static func errorInfo() -> ErrorInfo {
        var info = ErrorInfo()
        info.reason = "TRIP_NOT_FOUND"
        info.domain = "fleetengine.googleapis.com"
        info.metadata = ["trip": "providers/p/trips/t"]
        return info
    }

    /// A `google.rpc.Status` with one ErrorInfo detail, built and encoded without the status layer.
    static func rpcStatus() -> RPCStatus {
        var detail = AnyMessage()
        detail.typeURL = "type.googleapis.com/google.rpc.ErrorInfo"
        detail.value = errorInfo().serializedBytes()
        var status = RPCStatus()
        status.code = 5
        status.message = "trip not found"
        status.details = [detail]
        return status
    }

    static func detailsBin() -> String {
        var text: [UInt8] = []
        Base64.encode(rpcStatus().serializedBytes(), into: &text, padded: false)
        return String(decoding: text, as: UTF8.self)
    }

    @Test("decodes grpc-status-details-bin in the trailers into typed details")
    func detailsInTrailers() throws {
        let (events, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .headers(
                [
                    ("grpc-status", "5"), ("grpc-message", "trip%20providers%2Fp%2Ftrips%2Ft%20not%20found"),
                    ("grpc-status-details-bin", Self.detailsBin()), ("x-trailer", "t"),
                ],
                endStream: true),
        ]).play()
        let status = try #require(reader.status)
        #expect(status.code == .notFound)
        #expect(status.message == "trip providers/p/trips/t not found")
        #expect(status.details == [.errorInfo(Self.errorInfo())])
        #expect(status.rpcStatus == Self.rpcStatus())
        #expect(status.statusDetailsProblem == nil)
        #expect(status.origin == .status)
        #expect(events.last == .end(status, trailers: ["x-trailer": "t"]))
    }

    @Test(
        "decodes status details in a Trailers-Only response, taking the message from them when grpc-message is absent")
    func detailsInTrailersOnly() throws {
        let (_, reader) = ResponseScript([
            .headers(
                ResponseScript.head + [("grpc-status", "5"), ("grpc-status-details-bin", Self.detailsBin())],
                endStream: true)
        ]).play()
        let status = try #require(reader.status)
        #expect(status.code == .notFound)
        #expect(status.message == "trip not found")
        #expect(status.details == [.errorInfo(Self.errorInfo())])
    }

    @Test(
        "a non-200 Trailers-Only answer without grpc-status keeps the grpc-message and details that came with it",
        arguments: [
            ("application/grpc", "trip not found"),
            ("text/plain", "trip not found (HTTP status 503, content-type \"text/plain\", not application/grpc)"),
        ])
    func httpErrorKeepsGRPCMessageAndDetails(contentType: String, message: String) throws {
        let (_, reader) = ResponseScript([
            .headers(
                [
                    (":status", "503"), ("content-type", contentType), ("grpc-message", "trip%20not%20found"),
                    ("grpc-status-details-bin", Self.detailsBin()),
                ],
                endStream: true)
        ]).play()
        let status = try #require(reader.status)
        #expect(status.code == .unavailable)
        #expect(status.origin == .httpStatus(503))
        #expect(status.message == message)
        #expect(status.details == [.errorInfo(Self.errorInfo())])
    }

    @Test("status details that are not base64 keep the status and record the problem")
    func undecodableDetails() throws {
        let (_, reader) = ResponseScript([
            .headers(ResponseScript.head + [("grpc-status", "9"), ("grpc-status-details-bin", "***")], endStream: true)
        ]).play()
        let status = try #require(reader.status)
        #expect(status.code == .failedPrecondition)
        #expect(status.details.isEmpty)
        #expect(status.statusDetailsProblem?.rawValue == "***")
    }

    @Test("keeps trailer metadata and reads grpc-retry-pushback-ms from it")
    func retryPushback() {
        let (events, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .headers(
                [("grpc-status", "14"), ("grpc-retry-pushback-ms", "250"), ("x-b3-traceid", "abc")], endStream: true),
        ]).play()
        let trailers: GRPCMetadata = ["grpc-retry-pushback-ms": "250", "x-b3-traceid": "abc"]
        #expect(events.last == .end(CallStatus(code: .unavailable), trailers: trailers))
        #expect(reader.trailers == trailers)
        #expect(reader.retryPushback == .milliseconds(250))
        #expect(reader.trailers?.retryPushbackForbidsRetry == false)
    }

    @Test("a negative grpc-retry-pushback-ms gives no delay and forbids the retry")
    func negativePushback() {
        let (_, reader) = ResponseScript([
            .headers(ResponseScript.head + [("grpc-status", "14"), ("grpc-retry-pushback-ms", "-1")], endStream: true)
        ]).play()
        #expect(reader.retryPushback == nil)
        #expect(reader.trailers?.retryPushbackForbidsRetry == true)
    }

    @Test("a grpc-status that is not a number is UNKNOWN, saying what arrived")
    func nonNumericStatus() {
        let (_, reader) = ResponseScript([
            .headers(ResponseScript.head, endStream: false),
            .headers([("grpc-status", "OK")], endStream: true),
        ]).play()
        #expect(reader.status?.code == .unknown)
        #expect(reader.status?.message == "grpc-status \"OK\" is not a status code")
    }
}
