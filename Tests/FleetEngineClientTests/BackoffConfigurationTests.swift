import FleetEngineClient
import FleetEngineStatus
import Testing

@Suite("A backoff no wait can come of is refused with INVALID_ARGUMENT naming where it is")
struct BackoffConfigurationTests {
    static let unusable: [(Backoff, String)] = [
        (Backoff(initial: .seconds(-1), multiplier: 2, maximum: .seconds(5)), "initial wait -1.0 seconds is negative"),
        (Backoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(-5)), "maximum wait -5.0 seconds is negative"),
        (
            Backoff(initial: .seconds(1), multiplier: .nan, maximum: .seconds(5)),
            "multiplier nan is not a finite number above zero"
        ),
        (
            Backoff(initial: .seconds(1), multiplier: .infinity, maximum: .seconds(5)),
            "multiplier inf is not a finite number above zero"
        ),
        (
            Backoff(initial: .seconds(1), multiplier: 0, maximum: .seconds(5)),
            "multiplier 0.0 is not a finite number above zero"
        ),
        (
            Backoff(initial: .seconds(1), multiplier: -2, maximum: .seconds(5)),
            "multiplier -2.0 is not a finite number above zero"
        ),
    ]

    @Test("the configuration's retry policy", arguments: unusable)
    func retryPolicyBackoff(backoff: Backoff, problem: String) {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.retryPolicy.backoff = backoff
        let error = #expect(throws: FleetEngineError.self) {
            try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(error?.message == "retryPolicy.backoff: the backoff's \(problem)")
    }

    @Test("the configuration's reconnect backoff", arguments: unusable)
    func reconnectBackoff(backoff: Backoff, problem: String) {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.reconnectBackoff = backoff
        let error = #expect(throws: FleetEngineError.self) {
            try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "reconnectBackoff: the backoff's \(problem)")
    }

    @Test("a call's own retry policy fails that call before anything is sent")
    func callOptionsRetryPolicy() async throws {
        let client = try FleetEngineClient(configuration: .plaintext(port: 1), tokenProvider: NoTokenProvider())
        var policy = RetryPolicy.fleetEngine
        policy.backoff.multiplier = .nan
        let options = CallOptions(timeout: .milliseconds(100), retryPolicy: policy)
        let error = await #expect(throws: FleetEngineError.self) {
            try await client.getTrip(named: "providers/test-project/trips/t1", options: options)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(
            error?.message
                == "CallOptions.retryPolicy.backoff: the backoff's multiplier nan is not a finite number above zero")
    }

    @Test("the defaults, no retries, a constant backoff and a shrinking one are all accepted")
    func usableBackoffs() throws {
        for backoff in [
            ClientConfiguration().retryPolicy.backoff, RetryPolicy.none.backoff,
            Backoff(initial: .seconds(1), multiplier: 1, maximum: .seconds(1)),
            Backoff(initial: .seconds(8), multiplier: 0.5, maximum: .seconds(8)),
        ] {
            var configuration = ClientConfiguration.plaintext(port: 1)
            configuration.retryPolicy.backoff = backoff
            configuration.reconnectBackoff = backoff
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
    }
}
