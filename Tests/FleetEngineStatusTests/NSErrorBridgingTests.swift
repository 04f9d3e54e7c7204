import FleetEngineStatus
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

    @Test func bridgedErrorReadsBackToTheSameCodeAndMessageText() {
        let original = FleetEngineError(code: .permissionDenied, message: "no access", origin: .status)
        let back = FleetEngineError(original as NSError)
        #expect(back.code == .permissionDenied)
        #expect(back.message == "\(StatusCode.permissionDenied.summary) no access")
    }
}
