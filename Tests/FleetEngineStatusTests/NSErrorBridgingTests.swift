import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@Suite("FleetEngineError as NSError")
struct NSErrorBridgingTests {
    @Test(arguments: StatusCode.allKnown + [StatusCode(rawValue: 42)])
    func bridgedErrorIsInTheGrpcDomainWithTheStatusCode(code: StatusCode) {
        let error = FleetEngineError(code: code, message: "the message", origin: .status)
        let bridged = error as NSError
        #expect(bridged.domain == "io.grpc")
        #expect(bridged.code == code.rawValue)
        #expect(FleetEngineError.errorDomain == "io.grpc")
        #expect(error.errorCode == code.rawValue)
    }

    @Test(arguments: StatusCode.allKnown + [StatusCode(rawValue: 42)])
    func localizedTextsAreTheErrorsTexts(code: StatusCode) {
        let error = FleetEngineError(code: code, message: "Trip gone.", origin: .status)
        let bridged = error as NSError
        #expect(error.errorDescription == "\(code.summary) Trip gone.")
        #expect(bridged.localizedDescription == "\(code.summary) Trip gone.")
        #expect(error.failureReason == code.meaning)
        #expect(bridged.localizedFailureReason == code.meaning)
        #expect(error.recoverySuggestion == code.recoverySuggestion)
        #expect(bridged.localizedRecoverySuggestion == code.recoverySuggestion)
    }

    @Test func emptyMessageLeavesTheSummaryAlone() {
        let error = FleetEngineError(code: .unavailable, message: "")
        #expect(error.errorDescription == StatusCode.unavailable.summary)
        #expect((error as NSError).localizedDescription == "Fleet Engine could not be reached.")
    }

    @Test func errorInfoReasonJoinsTheFailureReason() {
        let error = FleetEngineError(
            code: .notFound, message: "", details: [.help(SampleDetails.help), .errorInfo(SampleDetails.errorInfo)])
        let expected = "\(StatusCode.notFound.meaning) Reason: TRIP_NOT_FOUND (fleetengine.googleapis.com)."
        #expect(error.failureReason == expected)
        #expect((error as NSError).localizedFailureReason == expected)
    }

    @Test func retryDelayJoinsTheRecoverySuggestion() {
        let error = FleetEngineError(
            code: .resourceExhausted, message: "",
            details: [.retryInfo(SampleDetails.retryInfo(seconds: 30, nanos: 0))])
        let expected =
            "\(StatusCode.resourceExhausted.recoverySuggestion) The server asked for a delay of 30.0 seconds before a retry."
        #expect(error.recoverySuggestion == expected)
        #expect((error as NSError).localizedRecoverySuggestion == expected)
    }

    @Test func causeIsTheUnderlyingError() throws {
        let error = FleetEngineError(code: .cancelled, message: "", cause: CancellationError())
        let underlying = try #require((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain.contains("CancellationError"))
        #expect((FleetEngineError(code: .ok, message: "") as NSError).userInfo[NSUnderlyingErrorKey] == nil)
    }

    @Test(arguments: StatusCode.allKnown.map(\.rawValue) + [42, -1])
    func grpcDomainNSErrorKeepsItsCode(code: Int) {
        let error = FleetEngineError(NSError(domain: "io.grpc", code: code))
        #expect(error.code.rawValue == code)
        #expect(error.origin == .bridged)
        #expect(error.message == "")
        let cause = error.cause as? BridgedNSError
        #expect(cause?.domain == "io.grpc")
        #expect(cause?.code == code)
        #expect(cause?.description == NSError(domain: "io.grpc", code: code).localizedDescription)
    }

    @Test func grpcNotFoundIsAClientError() {
        let error = FleetEngineError(
            NSError(domain: "io.grpc", code: 5, userInfo: [NSLocalizedDescriptionKey: "Trip not found"]))
        #expect(error.code == .notFound)
        #expect(error.family == .client)
        #expect(error.message == "Trip not found")
        #expect(!error.isRetryable)
    }

    @Test func otherDomainIsUnknownWithTheDomainInTheMessage() throws {
        let source = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorTimedOut, userInfo: [NSLocalizedDescriptionKey: "timed out"])
        let error = FleetEngineError(source)
        #expect(error.code == .unknown)
        #expect(error.family == .serviceFault)
        #expect(error.origin == .bridged)
        #expect(error.message == "NSURLErrorDomain error -1001: timed out")
        let cause = try #require(error.cause as? BridgedNSError)
        #expect(cause.domain == NSURLErrorDomain)
        #expect(cause.code == -1001)
        #expect(cause.description == "timed out")
    }

    @Test(arguments: ["no access", ""])
    func bridgedErrorReadsBackToTheSameCodeAndMessage(message: String) {
        let original = FleetEngineError(code: .permissionDenied, message: message, origin: .status)
        let back = FleetEngineError(original as NSError)
        #expect(back.code == .permissionDenied)
        #expect(back.message == message)
        #expect(back.details.isEmpty)
        // Read back once more, the message does not grow by the summary each time.
        #expect(FleetEngineError(back as NSError).message == message)
    }

    /// `google.rpc.Status` {code 8, "Quota exceeded for trips.", [RetryInfo 3 s, ErrorInfo
    /// RATE_LIMIT_EXCEEDED / fleetengine.googleapis.com]}, serialized by Google's Python
    /// googleapis-common-protos.
    static let quotaStatusBytes: [UInt8] = [
        8, 8, 18, 25, 81, 117, 111, 116, 97, 32, 101, 120, 99, 101, 101, 100, 101, 100, 32, 102, 111, 114, 32, 116,
        114, 105, 112, 115, 46, 26, 48, 10, 40, 116, 121, 112, 101, 46, 103, 111, 111, 103, 108, 101, 97, 112, 105,
        115, 46, 99, 111, 109, 47, 103, 111, 111, 103, 108, 101, 46, 114, 112, 99, 46, 82, 101, 116, 114, 121, 73,
        110, 102, 111, 18, 4, 10, 2, 8, 3, 26, 93, 10, 40, 116, 121, 112, 101, 46, 103, 111, 111, 103, 108, 101, 97,
        112, 105, 115, 46, 99, 111, 109, 47, 103, 111, 111, 103, 108, 101, 46, 114, 112, 99, 46, 69, 114, 114, 111,
        114, 73, 110, 102, 111, 18, 49, 10, 19, 82, 65, 84, 69, 95, 76, 73, 77, 73, 84, 95, 69, 88, 67, 69, 69, 68,
        69, 68, 18, 26, 102, 108, 101, 101, 116, 101, 110, 103, 105, 110, 101, 46, 103, 111, 111, 103, 108, 101, 97,
        112, 105, 115, 46, 99, 111, 109,
    ]

    @Test func bridgedErrorReadsBackWithItsDetails() throws {
        let status = try RPCStatus(serializedBytes: Self.quotaStatusBytes)
        let original = FleetEngineError(
            code: .resourceExhausted, message: status.message, details: status.details.map(StatusDetail.init),
            origin: .status)
        let back = FleetEngineError(original as NSError)
        #expect(back.code == .resourceExhausted)
        #expect(back.message == "Quota exceeded for trips.")
        #expect(back.details == original.details)
        #expect(back.retryDelay == .seconds(3))
        #expect(back.isRetryable)
    }

    @Test func grpcObjectiveCErrorGivesTheDetailsInItsTrailers() throws {
        // As gRPC's Objective-C library (and the Consumer SDK on it) reports a call: the message as
        // the localized description, the trailers under io.grpc.TrailersKey, binary values as data.
        let error = NSError(
            domain: "io.grpc", code: 8,
            userInfo: [
                NSLocalizedDescriptionKey: "Quota exceeded for trips.",
                "io.grpc.TrailersKey": ["grpc-status-details-bin": Data(Self.quotaStatusBytes)],
            ])
        let converted = FleetEngineError(error)
        #expect(converted.code == .resourceExhausted)
        #expect(converted.message == "Quota exceeded for trips.")
        #expect(converted.rpcStatus == (try RPCStatus(serializedBytes: Self.quotaStatusBytes)))
        #expect(converted.details.map(\.typeName) == ["google.rpc.RetryInfo", "google.rpc.ErrorInfo"])
        #expect(converted.retryDelay == .seconds(3))
        #expect(converted.failureReason?.hasSuffix("Reason: RATE_LIMIT_EXCEEDED (fleetengine.googleapis.com).") == true)
    }
}
