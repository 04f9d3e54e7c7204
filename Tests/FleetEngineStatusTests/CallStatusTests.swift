import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@Suite("CallStatus from trailer values")
struct CallStatusTests {
    static let notFoundBytes = SampleDetails.statusBytes(
        code: 5, message: "details message", details: [.resourceInfo(SampleDetails.resourceInfo)])

    @Test func trailersGiveCodeDecodedMessageAndTypedDetails() throws {
        let status = CallStatus(
            grpcStatus: "5", grpcMessage: "Trip%20%E2%80%98trip-1%E2%80%99 not found",
            grpcStatusDetailsBin: base64(Self.notFoundBytes))
        #expect(status.code == .notFound)
        #expect(status.message == "Trip ‘trip-1’ not found")
        #expect(status.details == [.resourceInfo(SampleDetails.resourceInfo)])
        #expect(status.origin == .status)
        #expect(status.rpcStatus?.code == 5)
        #expect(status.rpcStatus?.message == "details message")
        #expect(status.statusDetailsProblem == nil)
        let error = try #require(status.error)
        #expect(error.code == .notFound)
        #expect(error.message == "Trip ‘trip-1’ not found")
        #expect(error.details == status.details)
        #expect(error.rpcStatus == status.rpcStatus)
        #expect(error.origin == .status)
        #expect(status.description == "NOT_FOUND (5): Trip ‘trip-1’ not found")
    }

    @Test(arguments: [true, false])
    func paddedAndUnpaddedBase64AreBothRead(padded: Bool) throws {
        // Lengths 1 and 2 mod 3 make the padding differ; try all three.
        for extra in 0..<3 {
            let message = "x" + String(repeating: "y", count: extra)
            let bytes = SampleDetails.statusBytes(code: 14, message: message, details: [.help(SampleDetails.help)])
            let text = base64(bytes, padded: padded)
            #expect(text.hasSuffix("=") == (padded && bytes.count % 3 != 0))
            let status = CallStatus(grpcStatus: "14", grpcMessage: nil, grpcStatusDetailsBin: text)
            #expect(status.statusDetailsProblem == nil)
            #expect(status.message == message)
            #expect(status.details == [.help(SampleDetails.help)])
        }
    }

    @Test func urlSafeAlphabetIsRead() throws {
        let raw = SampleDetails.any("type.example.com/x.Raw", [0xFB, 0xFF, 0xBF, 0xFB, 0xFF, 0xBF, 0xFE])
        let bytes = SampleDetails.statusBytes(code: 13, message: "m", details: [.other(raw)])
        let standard = base64(bytes, padded: false)
        try #require(standard.contains("+") || standard.contains("/"))
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let status = CallStatus(grpcStatus: "13", grpcMessage: nil, grpcStatusDetailsBin: urlSafe)
        #expect(status.statusDetailsProblem == nil)
        #expect(status.details == [.other(raw)])
    }

    @Test(arguments: [" ", "\t", "  \t "])
    func whitespaceAroundValuesIsIgnored(space: String) {
        let status = CallStatus(
            grpcStatus: space + "5" + space, grpcMessage: "m",
            grpcStatusDetailsBin: space + base64(Self.notFoundBytes) + space)
        #expect(status.code == .notFound)
        #expect(status.statusDetailsProblem == nil)
        #expect(status.details.count == 1)
    }

    @Test(arguments: [
        ("@@not base64@@", CodecError.Code.invalidBase64),
        ("CAUS EA==", .invalidBase64),
        ("CAUS\nEA==", .invalidBase64),
        ("C", .invalidBase64),
        ("CA=U", .invalidBase64),
        // Valid base64 of bytes that are not a google.rpc.Status.
        (base64([0x0A, 0x05, 0x61]), .lengthPastEnd),
        (base64([0x12, 0x02, 0xFF, 0xFE]), .invalidUTF8),
        (base64([UInt8](repeating: 0xFF, count: 11)), .malformedVarint),
        (base64([0x08]), .truncated),
        (base64([0x1A, 0x02, 0x0A, 0x09]), .lengthPastEnd),
    ])
    func unreadableDetailsAreReportedAndTheStatusStillStands(value: String, reason: CodecError.Code) throws {
        let status = CallStatus(grpcStatus: "7", grpcMessage: "denied%21", grpcStatusDetailsBin: value)
        #expect(status.code == .permissionDenied)
        #expect(status.message == "denied!")
        #expect(status.details.isEmpty)
        #expect(status.rpcStatus == nil)
        let problem = try #require(status.statusDetailsProblem)
        #expect(problem.rawValue == value)
        #expect(problem.reason.code == reason)
        #expect(problem.description.hasPrefix("grpc-status-details-bin could not be read: "))
        let error = try #require(status.error)
        #expect(error.statusDetailsProblem == problem)
        #expect(error.family == .client)
    }

    @Test func unreadableDetailsLeaveAnAbsentMessageEmpty() {
        let status = CallStatus(grpcStatus: "13", grpcMessage: nil, grpcStatusDetailsBin: "%%%")
        #expect(status.code == .internalError)
        #expect(status.message == "")
        #expect(status.statusDetailsProblem?.rawValue == "%%%")
    }

    @Test(arguments: StatusCodeHTTPMappingTests.fromHTTP)
    func missingGrpcStatusTakesTheHTTPStatus(httpStatus: Int, expected: StatusCode) {
        let status = CallStatus(grpcStatus: nil, grpcMessage: nil, grpcStatusDetailsBin: nil, httpStatus: httpStatus)
        #expect(status.code == expected)
        #expect(status.origin == .httpStatus(httpStatus))
        #expect(status.message == "HTTP status \(httpStatus) without grpc-status")
        #expect(status.error?.origin == .httpStatus(httpStatus))
    }

    @Test func missingGrpcStatusKeepsAGrpcMessageThatCame() {
        let status = CallStatus(
            grpcStatus: nil, grpcMessage: "upstream%20busy", grpcStatusDetailsBin: nil, httpStatus: 503)
        #expect(status.code == .unavailable)
        #expect(status.message == "upstream busy")
    }

    @Test func grpcStatusWinsOverTheHTTPStatus() {
        let status = CallStatus(grpcStatus: "0", grpcMessage: nil, grpcStatusDetailsBin: nil, httpStatus: 503)
        #expect(status.code == .ok)
        #expect(status.origin == .status)
        #expect(status.error == nil)
    }

    @Test func neitherGrpcStatusNorHTTPStatusIsUnknown() {
        let status = CallStatus(grpcStatus: nil, grpcMessage: nil, grpcStatusDetailsBin: nil)
        #expect(status.code == .unknown)
        #expect(status.origin == .status)
        #expect(status.message == "the response ended without grpc-status")
    }

    @Test(arguments: [
        ("abc", "abc"), ("-1", "-1"), ("+5", "+5"), ("1.0", "1.0"), ("0x5", "0x5"), ("", ""), ("  ", ""),
        ("5 5", "5 5"), ("2147483648", "2147483648"), ("99999999999", "99999999999"),
        ("18446744073709551616", "18446744073709551616"), ("\u{0663}", "\u{0663}"), ("５", "５"),
    ])
    func grpcStatusThatIsNotACodeIsUnknownWithAMessage(value: String, shown: String) {
        let status = CallStatus(grpcStatus: value, grpcMessage: nil, grpcStatusDetailsBin: nil)
        #expect(status.code == .unknown)
        #expect(status.message == "grpc-status \"\(shown)\" is not a status code")
        let withMessage = CallStatus(grpcStatus: value, grpcMessage: "server%20text", grpcStatusDetailsBin: nil)
        #expect(withMessage.message == "grpc-status \"\(shown)\" is not a status code: server text")
    }

    @Test(arguments: [("0", 0), ("5", 5), ("007", 7), ("17", 17), ("2147483647", 2_147_483_647), ("0000000016", 16)])
    func numericGrpcStatusIsKeptEvenWhenUndefined(value: String, code: Int) {
        let status = CallStatus(grpcStatus: value, grpcMessage: nil, grpcStatusDetailsBin: nil)
        #expect(status.code.rawValue == code)
        #expect(status.message == "")
    }

    @Test(arguments: [nil, ""] as [String?])
    func absentOrEmptyGrpcMessageTakesTheDetailsMessage(grpcMessage: String?) {
        let status = CallStatus(
            grpcStatus: "5", grpcMessage: grpcMessage, grpcStatusDetailsBin: base64(Self.notFoundBytes))
        #expect(status.message == "details message")
    }

    @Test func grpcMessageWinsOverTheDetailsMessage() {
        let status = CallStatus(
            grpcStatus: "5", grpcMessage: "trailer", grpcStatusDetailsBin: base64(Self.notFoundBytes))
        #expect(status.message == "trailer")
        #expect(status.rpcStatus?.message == "details message")
    }

    @Test func grpcStatusWinsOverTheDetailsCode() {
        // The details say NOT_FOUND; the trailer is authoritative.
        let status = CallStatus(grpcStatus: "14", grpcMessage: nil, grpcStatusDetailsBin: base64(Self.notFoundBytes))
        #expect(status.code == .unavailable)
        #expect(status.rpcStatus?.code == 5)
    }

    @Test func okIsNoError() {
        let status = CallStatus(grpcStatus: "0", grpcMessage: nil, grpcStatusDetailsBin: nil)
        #expect(status.isOK)
        #expect(status.error == nil)
        #expect(status.description == "OK")
        #expect(status.message == "")
        #expect(CallStatus(code: .ok).trailerValues == ("0", nil, nil))
    }

    @Test func emptyDetailsValueIsAnEmptyStatus() {
        let status = CallStatus(grpcStatus: "2", grpcMessage: nil, grpcStatusDetailsBin: "")
        #expect(status.statusDetailsProblem == nil)
        #expect(status.rpcStatus == RPCStatus())
        #expect(status.details.isEmpty)
    }

    @Test func trailerValuesOfAStatusWithoutDetails() {
        let status = CallStatus(code: .unavailable, message: "try again: 100%")
        #expect(status.trailerValues == ("14", "try again: 100%25", nil))
        #expect(CallStatus(code: StatusCode(rawValue: 99)).trailerValues == ("99", nil, nil))
    }

    /// gRPC PROTOCOL-HTTP2, "Responses": Status → "grpc-status" 1*DIGIT; a code that is negative
    /// or past what `grpc-status` readers take (`int32`) goes out as UNKNOWN, in the details too.
    @Test(arguments: [-3, Int(Int32.min), Int(Int32.max) + 1, 1 << 32 | 5])
    func trailerValuesOfACodeGrpcStatusCannotCarryAreUnknown(code: Int) throws {
        let original = CallStatus(
            code: StatusCode(rawValue: code), message: "odd", details: [.errorInfo(SampleDetails.errorInfo)])
        let values = original.trailerValues
        #expect(values.grpcStatus == "2")
        let read = CallStatus(
            grpcStatus: values.grpcStatus, grpcMessage: values.grpcMessage,
            grpcStatusDetailsBin: values.grpcStatusDetailsBin)
        #expect(read.code == .unknown)
        #expect(read.message == "odd")
        #expect(read.rpcStatus?.code == 2)
        #expect(read.details == [.errorInfo(SampleDetails.errorInfo)])
    }

    static let roundTrips: [(StatusCode, String, [StatusDetail])] = [
        (.notFound, "Trip not found", []),
        (.invalidArgument, "", [.badRequest(SampleDetails.badRequest)]),
        (
            .resourceExhausted, "Quota 100% used\n",
            [.quotaFailure(SampleDetails.quotaFailure), .retryInfo(SampleDetails.retryInfo(seconds: 1, nanos: 5))]
        ),
        (.internalError, "Ünïcödé 🚕 \u{0}", SampleDetails.all),
        (.dataLoss, "%41", [.other(SampleDetails.durationAny), .other(SampleDetails.any("x/y.Z", [1, 2, 3]))]),
        (StatusCode(rawValue: 77), "future", [.errorInfo(SampleDetails.errorInfo)]),
    ]

    @Test(arguments: roundTrips)
    func trailerValuesReadBackToTheSameStatus(code: StatusCode, message: String, details: [StatusDetail]) throws {
        let original = CallStatus(code: code, message: message, details: details)
        let values = original.trailerValues
        #expect(values.grpcStatus == String(code.rawValue))
        #expect((values.grpcMessage == nil) == message.isEmpty)
        #expect((values.grpcStatusDetailsBin == nil) == details.isEmpty)
        let read = CallStatus(
            grpcStatus: values.grpcStatus, grpcMessage: values.grpcMessage,
            grpcStatusDetailsBin: values.grpcStatusDetailsBin)
        #expect(read.code == code)
        #expect(read.message == message)
        #expect(read.details == details)
        #expect(read.statusDetailsProblem == nil)
        #expect(read.rpcStatus == (details.isEmpty ? nil : original.rpcStatusMessage))
    }

    @Test func rpcStatusMessageHoldsCodeMessageAndPackedDetails() {
        let status = CallStatus(code: .notFound, message: "gone", details: [.requestInfo(SampleDetails.requestInfo)])
        let message = status.rpcStatusMessage
        #expect(message.code == 5)
        #expect(message.message == "gone")
        #expect(message.details.map(\.typeURL) == ["type.googleapis.com/google.rpc.RequestInfo"])
        #expect(message.details.first?.value == SampleDetails.requestInfo.serializedBytes())
    }

    static let codesOutsideInt32: [(Int, Int32)] = [
        (1 << 32 | 5, 2), (-(1 << 32) + 14, 2), (Int(Int32.max) + 1, 2), (Int(Int32.min), Int32.min), (17, 17),
    ]

    @Test(arguments: codesOutsideInt32)
    func rpcStatusMessageCodeOutsideInt32IsUnknownNotCut(code: Int, expected: Int32) {
        #expect(CallStatus(code: StatusCode(rawValue: code), message: "m").rpcStatusMessage.code == expected)
    }
}
