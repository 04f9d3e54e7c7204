import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Testing

@Suite("FleetEngineError")
struct FleetEngineErrorTests {
    /// Retryable without being told when: the server/network family, and nothing else.
    static let retryable: [(StatusCode, Bool)] = [
        (.ok, false), (.cancelled, true), (.unknown, false), (.invalidArgument, false),
        (.deadlineExceeded, true), (.notFound, false), (.alreadyExists, false), (.permissionDenied, false),
        (.resourceExhausted, false), (.failedPrecondition, false), (.aborted, true), (.outOfRange, false),
        (.unimplemented, false), (.internalError, false), (.unavailable, true), (.dataLoss, false),
        (.unauthenticated, false), (StatusCode(rawValue: 20), false),
    ]

    @Test(arguments: retryable)
    func retryableWithoutRetryInfo(code: StatusCode, expected: Bool) {
        #expect(FleetEngineError(code: code, message: "m", origin: .status).isRetryable == expected)
    }

    @Test(arguments: retryable)
    func retryInfoMakesOnlyResourceExhaustedRetryableBeyondItsFamily(code: StatusCode, expected: Bool) {
        let error = FleetEngineError(
            code: code, message: "m", details: [.retryInfo(SampleDetails.retryInfo(seconds: 1, nanos: 0))],
            origin: .status)
        #expect(error.isRetryable == (expected || code == .resourceExhausted))
        #expect(error.retryDelay == .seconds(1))
    }

    @Test(arguments: [
        (Int64(0), Int32(0), Duration.zero),
        (2, 500_000_000, .milliseconds(2500)),
        (0, 1, .nanoseconds(1)),
        (37, 5, .seconds(37) + .nanoseconds(5)),
        (315_576_000_000, 999_999_999, .seconds(315_576_000_000) + .nanoseconds(999_999_999)),
        (-1, 0, .zero),
        (0, -5, .zero),
        (-1, -500_000_000, .zero),
    ])
    func retryDelayIsTheFirstRetryInfoAndNeverNegative(seconds: Int64, nanos: Int32, expected: Duration) {
        let error = FleetEngineError(
            code: .resourceExhausted, message: "",
            details: [
                .errorInfo(SampleDetails.errorInfo),
                .retryInfo(SampleDetails.retryInfo(seconds: seconds, nanos: nanos)),
                .retryInfo(SampleDetails.retryInfo(seconds: 99, nanos: 0)),
            ])
        #expect(error.retryDelay == expected)
    }

    @Test func retryInfoWithoutADelayIsNoDelay() {
        let error = FleetEngineError(code: .resourceExhausted, message: "", details: [.retryInfo(RetryInfo())])
        #expect(error.retryDelay == nil)
        #expect(!error.isRetryable)
    }

    @Test(arguments: [
        (FleetEngineError.Origin.status, true),
        (.httpStatus(503), true),
        (.streamReset(.refusedStream), false),
        (.streamReset(.cancel), true),
        (.streamReset(.internalError), true),
        (.connection(requestSent: true), true),
        (.connection(requestSent: false), false),
        (.interruptedRefresh, true),
        (.local, false),
        (.malformedResponse, true),
        (.bridged, true),
    ])
    func requestWasProcessedUnlessKnownOtherwise(origin: FleetEngineError.Origin, expected: Bool) {
        #expect(FleetEngineError(code: .unavailable, message: "", origin: origin).requestWasProcessed == expected)
    }

    @Test(arguments: [
        (FleetEngineError.Origin.status, "UNAVAILABLE (14): down"),
        (.httpStatus(502), "UNAVAILABLE (14): down [HTTP status 502 without grpc-status]"),
        (.streamReset(.refusedStream), "UNAVAILABLE (14): down [stream reset with REFUSED_STREAM]"),
        (.connection(requestSent: true), "UNAVAILABLE (14): down [connection lost]"),
        (.connection(requestSent: false), "UNAVAILABLE (14): down [connection failed before sending]"),
        (.interruptedRefresh, "UNAVAILABLE (14): down [refresh interrupted]"),
        (.local, "UNAVAILABLE (14): down [refused locally]"),
        (.malformedResponse, "UNAVAILABLE (14): down [malformed response]"),
        (.bridged, "UNAVAILABLE (14): down [converted from another error]"),
    ])
    func descriptionNamesCodeMessageAndOrigin(origin: FleetEngineError.Origin, expected: String) {
        #expect(FleetEngineError(code: .unavailable, message: "down", origin: origin).description == expected)
    }

    @Test func descriptionNamesTheCauseAndAnUndefinedCode() {
        let error = FleetEngineError(
            code: StatusCode(rawValue: 42), message: "odd", origin: .status, cause: CancellationError())
        #expect(error.description == "CODE_42 (42): odd; caused by: CancellationError()")
    }

    @Test func errorsWithTheSameCodeAreEqual() {
        let built = FleetEngineError(code: .notFound, message: "")
        let received = FleetEngineError(
            code: .notFound, message: "Trip not found", details: [.help(SampleDetails.help)], origin: .status)
        #expect(built == received)
        #expect(built.hashValue == received.hashValue)
        #expect(built != FleetEngineError(code: .unavailable, message: ""))
    }

    @Test func newErrorHasNoStatusDetailsOfItsOwn() {
        let error = FleetEngineError(code: .internalError, message: "m")
        #expect(error.origin == .local)
        #expect(error.cause == nil)
        #expect(error.rpcStatus == nil)
        #expect(error.statusDetailsProblem == nil)
        #expect(error.details.isEmpty)
    }

    @Test func callStatusOfAnErrorCarriesEverything() throws {
        var error = FleetEngineError(
            code: .permissionDenied, message: "no", details: [.errorInfo(SampleDetails.errorInfo)], origin: .status)
        error.rpcStatus = CallStatus(code: .permissionDenied, message: "no", details: error.details).rpcStatusMessage
        let status = error.callStatus
        #expect(status.code == .permissionDenied)
        #expect(status.message == "no")
        #expect(status.details == error.details)
        #expect(status.origin == .status)
        #expect(status.rpcStatus == error.rpcStatus)
        let back = try #require(status.error)
        #expect(back.message == "no")
        #expect(back.rpcStatus == error.rpcStatus)
    }
}
