import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import NIOHTTP2
import Testing

@testable import FleetEngineClient

@Suite("Google's policy for TripService retries what Google's client retries, and not DeleteTrip or ReportBillableTrip")
struct FleetEnginePolicyTests {
    /// Google's policy with waits short enough for a test.
    static var policy: RetryPolicy {
        var policy = RetryPolicy.fleetEngine
        policy.backoff = Backoff(initial: .milliseconds(1), multiplier: 1, maximum: .milliseconds(1))
        return policy
    }

    static func call(_ method: String, on client: FleetEngineClient) async throws {
        let name = Fixtures.name("billed")
        switch method {
        case "DeleteTrip":
            try await client.deleteTrip(named: name)
        case "ReportBillableTrip":
            var request = ReportBillableTripRequest()
            request.name = Fixtures.billableName("billed")
            request.countryCode = "US"
            try await client.reportBillableTrip(request)
        default:
            _ = try await client.getTrip(named: name)
        }
    }

    @Test(
        "UNAVAILABLE from a method Google's client never retries is the result of the one attempt",
        arguments: ["DeleteTrip", "ReportBillableTrip"])
    func notRetried(method: String) async throws {
        try await MalformedResponseTests.withScriptedServer(
            retryPolicy: Self.policy, { _ in .raw(data: [], grpcStatus: 14) }
        ) {
            server, client in
            let error = await fleetEngineError { try await Self.call(method, on: client) }
            #expect(error?.code == .unavailable)
            #expect(server.callCount == 1)
        }
    }

    @Test("UNAVAILABLE from GetTrip is retried up to the policy's five attempts")
    func getTripRetried() async throws {
        try await MalformedResponseTests.withScriptedServer(
            retryPolicy: Self.policy, { _ in .raw(data: [], grpcStatus: 14) }
        ) {
            server, client in
            let error = await fleetEngineError { try await Self.call("GetTrip", on: client) }
            #expect(error?.code == .unavailable)
            #expect(server.callCount == 5)
        }
    }

    @Test("a stream refused before any processing is sent again even for ReportBillableTrip")
    func refusedStreamSentAgain() async throws {
        try await MalformedResponseTests.withScriptedServer(
            retryPolicy: Self.policy,
            { call in call == 1 ? .reset(.refusedStream) : .raw(data: grpcFramed([]), grpcStatus: 0)
            }
        ) { server, client in
            try await Self.call("ReportBillableTrip", on: client)
            #expect(server.callCount == 2)
        }
    }

    @Test("the policy names the two methods, and a policy made without them retries every method")
    func methodsNotRetried() {
        #expect(RetryPolicy.fleetEngine.methodsNotRetried == [.deleteTrip, .reportBillableTrip])
        let unavailable = FleetEngineError(code: .unavailable, message: "down", origin: .status)
        #expect(!RetryPolicy.fleetEngine.retries(unavailable, method: .reportBillableTrip, isRead: false))
        #expect(RetryPolicy.fleetEngine.retries(unavailable, method: .updateTrip, isRead: false))
        let custom = RetryPolicy(maxAttempts: 3, backoff: Self.policy.backoff, retryableCodes: [.unavailable])
        #expect(custom.methodsNotRetried.isEmpty)
        #expect(custom.retries(unavailable, method: .deleteTrip, isRead: false))
    }
}
