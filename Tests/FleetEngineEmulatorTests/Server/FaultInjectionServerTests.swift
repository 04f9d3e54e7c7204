import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@testable import FleetEngineEmulator

@Suite("Injected faults over gRPC: failures, rate limits, dropped connections, GOAWAY, delays")
struct FaultInjectionServerTests {
    static func configuration(_ configure: (inout FaultPlan) -> Void) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configure(&configuration.faults)
        return configuration
    }

    /// Creates `trip-1` without going through gRPC, so it counts as no call.
    static func seed(_ emulator: FleetEngineEmulator) throws {
        _ = try emulator.service.createTrip(
            ServiceFixtures.createRequest(tripID: "trip-1", trip: ServiceFixtures.tripToCreate()))
    }

    @Test(
        "failEvery N fails exactly calls N, 2N, 3N with the chosen code, whatever the method",
        arguments: [(1, StatusCode.unavailable), (2, .aborted), (3, .unavailable), (4, .internalError)])
    func everyNthCallFails(every: Int, code: StatusCode) async throws {
        let configuration = Self.configuration {
            $0.failEvery = every
            $0.failCode = code
        }
        try await withEmulatorAndClient(configuration) { emulator, client in
            try Self.seed(emulator)
            var failed: [Int] = []
            for number in 1...12 {
                let error: FleetEngineError?
                if number % 2 == 0 {
                    error = await client.failure(.getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self)
                } else {
                    error = await client.failure(
                        .searchTrips, SearchTripsServiceTests.request(), returning: SearchTripsResponse.self)
                }
                if let error {
                    failed.append(number)
                    #expect(error.code == code)
                    #expect(
                        error.message
                            == "injected fault: call \(number) fails with \(code) (one call in \(every) fails)")
                }
            }
            #expect(failed == Array(stride(from: every, through: 12, by: every)))
        }
    }

    @Test("over the rate, a call is RESOURCE_EXHAUSTED with a RetryInfo and a QuotaFailure; other tokens go on")
    func rateLimitIsPerToken() async throws {
        // One call per 1,000 seconds: the first call of a token passes, its second cannot.
        let configuration = Self.configuration { $0.queriesPerSecond = 0.001 }
        try await withEmulatorAndClient(configuration) { emulator, client in
            try Self.seed(emulator)
            let request = AuthorizationServerTests.get("trip-1")
            let _: Trip = try await client.call(.getTrip, request, authorization: "Bearer first")
            let error = try #require(
                await client.failure(.getTrip, request, returning: Trip.self, authorization: "Bearer first"))
            #expect(error.code == .resourceExhausted)
            #expect(error.message == "rate limit exceeded: at most 0.001 calls per second per token")
            #expect(error.details.count == 2)
            let delay = try #require(error.retryDelay)
            #expect(delay > .seconds(990) && delay <= .seconds(1_000))
            var violation = QuotaFailure.Violation()
            violation.subject = "token"
            violation.description = "more than 0.001 calls per second with one token"
            var quota = QuotaFailure()
            quota.violations = [violation]
            #expect(error.details.last == .quotaFailure(quota))
            #expect(error.isRetryable)

            let _: Trip = try await client.call(.getTrip, request, authorization: "Bearer second")
            let third = await client.failure(.getTrip, request, returning: Trip.self, authorization: "Bearer second")
            #expect(third?.code == .resourceExhausted)
        }
    }

    // Each client is a channel of its own, and it opens one connection for its first calls. After a
    // drop grpc-swift-2's pick-first balancer both reconnects its subchannel and, as it asks the
    // resolver again, starts a second one; it then retires the first under whatever call had just
    // opened a stream there. That call never reaches the emulator, so what comes after a drop on a
    // reused client says nothing about the emulator's counting: each connection here is a new client's.
    @Test("dropConnectionAtCall 3: the third call on each connection fails UNAVAILABLE, counted per connection")
    func droppedConnectionFailsTheNthCall() async throws {
        let configuration = Self.configuration { $0.dropConnectionAtCall = 3 }
        try await withFleetEngineEmulator(configuration, time: ManualTimeSource(start: ServiceHarness.time(0))) {
            emulator in
            try Self.seed(emulator)
            let port = try await emulator.listeningPort()
            let options = {
                var options = CallOptions.defaults
                options.waitForReady = true
                options.timeout = .seconds(300)
                return options
            }()
            let firstStreams = StreamLog()
            let secondStreams = StreamLog()
            try await withTripServiceClient(port: port, configureClient: { firstStreams.install(in: &$0) }) { first in
                try await withTripServiceClient(port: port, configureClient: { secondStreams.install(in: &$0) }) {
                    second in
                    // The two connections' calls interleave: a count kept for the emulator as a whole
                    // would drop the first connection at its second call.
                    var outcomes: [String] = []
                    for number in 1...3 {
                        for (name, client) in [("first", first), ("second", second)] {
                            let error = await client.failure(
                                .getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self,
                                options: options)
                            if let error { #expect(error.family == .serverOrNetwork, "\(error)") }
                            outcomes.append("\(name) call \(number): \(error.map { "\($0.code)" } ?? "OK")")
                        }
                    }
                    #expect(
                        outcomes == [
                            "first call 1: OK", "second call 1: OK", "first call 2: OK", "second call 2: OK",
                            "first call 3: UNAVAILABLE", "second call 3: UNAVAILABLE",
                        ])
                }
            }
            // Every call opened a stream, and each client's three went on one connection.
            #expect(firstStreams.count == 3)
            #expect(firstStreams.connectionCount == 1)
            #expect(secondStreams.count == 3)
            #expect(secondStreams.connectionCount == 1)
        }
    }

    /// Retries UNAVAILABLE, as gRPC clients retry a stream the server refused (gRFC A6), and waits
    /// for a connection while the client reconnects.
    static let retryingUnavailable: CallOptions = {
        var options = CallOptions.defaults
        options.waitForReady = true
        options.timeout = .seconds(300)
        options.executionPolicy = .retry(
            RetryPolicy(
                maxAttempts: 10, initialBackoff: .milliseconds(100), maxBackoff: .seconds(2), backoffMultiplier: 2,
                retryableStatusCodes: [.unavailable]))
        return options
    }()

    /// Sends a GetTrip that may meet a connection being retired, and says whether it succeeded.
    ///
    /// On a machine busy with the whole suite, grpc-swift-2's client can report "subchannel isn't
    /// ready" while it replaces a retired connection, or leave a call it queued meanwhile waiting
    /// until its deadline: each attempt gets 10 s, not the five minutes of the other tests, and an
    /// attempt that fails so is sent again, at most 20 times. Any other failure is an issue.
    static func getTripAcrossReconnects(_ client: TripServiceClient, _ request: GetTripRequest) async throws -> Bool {
        var options = retryingUnavailable
        options.timeout = .seconds(10)
        for _ in 0..<20 {
            guard let error = await client.failure(.getTrip, request, returning: Trip.self, options: options) else {
                return true
            }
            #expect(error.code == .unavailable || error.code == .deadlineExceeded, "\(error)")
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    // A call that starts while the server is sending GOAWAY can be refused with RST_STREAM
    // REFUSED_STREAM (seen here as UNAVAILABLE), and grpc-swift-2 does not retry a refused stream
    // by itself. Such a call never reached the service, so the client retries it, as gRPC clients do.
    @Test("goAwayAfter: connections are retired and calls keep succeeding across reconnects")
    func callsSucceedAcrossGoAway() async throws {
        let configuration = Self.configuration {
            // Long enough that a loaded machine (tests run in parallel) completes a call on each
            // connection before its GOAWAY.
            $0.goAwayAfter = .milliseconds(400)
            $0.goAwayGraceTime = .seconds(1)
        }
        let connections = ConnectionCounter()
        try await withEmulatorAndClient(configuration, configureClient: { connections.install(in: &$0) }) {
            emulator, client in
            try Self.seed(emulator)
            let started = ContinuousClock.now
            var calls = 0
            // Bounded: at most 600 calls, 20 ms apart; three connections take about 1.2 s.
            while connections.value < 3 && calls < 600 {
                calls += 1
                #expect(try await Self.getTripAcrossReconnects(client, AuthorizationServerTests.get("trip-1")))
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(connections.value >= 3, "\(calls) calls in \(ContinuousClock.now - started)")
        }
    }

    @Test("a delay longer than the caller's deadline ends the call with DEADLINE_EXCEEDED")
    func delayBeyondDeadline() async throws {
        let configuration = Self.configuration { $0.delay = .seconds(1) }
        try await withEmulatorAndClient(configuration) { emulator, client in
            try Self.seed(emulator)
            var options = CallOptions.defaults
            options.timeout = .milliseconds(100)
            let error = await client.failure(
                .getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self, options: options)
            #expect(error?.code == .deadlineExceeded)
        }
    }

    @Test("a delayed call whose caller gave up is not carried out, and shutdown does not wait out the delay")
    func delayEndsWithTheCall() async throws {
        // Without the cancellation the handler slept the whole minute, then created the trip, and
        // the graceful shutdown at the end of the scope waited for it.
        let configuration = Self.configuration { $0.delay = .seconds(60) }
        let emulator = try await withEmulatorAndClient(configuration) { emulator, client in
            let request = ServiceFixtures.createRequest(tripID: "late-trip", trip: ServiceFixtures.tripToCreate())
            let call = Task { await client.failure(.createTrip, request, returning: Trip.self) }
            // Bounded: the call reaches the emulator (and its delay) well within a minute.
            for _ in 0..<6_000 where emulator.callCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(emulator.callCount == 1)
            call.cancel()
            #expect(await call.value != nil, "the cancelled call fails")
            return emulator
        }
        #expect(throws: FleetEngineError.self) {
            try emulator.store.get(TripName(parsing: "providers/test-project/trips/late-trip"))
        }
    }

    /// Plans with one setting no fault can come of, and what the emulator says of each.
    static let meaninglessPlans: [(FaultPlan, String)] = {
        var failEvery = FaultPlan()
        failEvery.failEvery = 0
        var dropAt = FaultPlan()
        dropAt.dropConnectionAtCall = -2
        var goAway = FaultPlan()
        goAway.goAwayAfter = .zero
        var grace = FaultPlan()
        grace.goAwayGraceTime = .seconds(-1)
        var delay = FaultPlan()
        delay.delay = .milliseconds(-5)
        return [
            (failEvery, "the fault plan's failEvery is 0; one call in every n fails, so n is 1 or more"),
            (dropAt, "the fault plan's dropConnectionAtCall is -2; a connection's calls are counted from 1"),
            (goAway, "the fault plan's goAwayAfter is 0.0 seconds; a connection's age for GOAWAY is above zero"),
            (grace, "the fault plan's goAwayGraceTime is -1.0 seconds; a grace time is zero or more"),
            (delay, "the fault plan's delay is -0.005 seconds; a delay is zero or more"),
        ]
    }()

    @Test(
        "a fault plan setting no fault can come of is refused when the emulator is made, naming it",
        arguments: meaninglessPlans)
    func meaninglessPlanIsRefused(plan: FaultPlan, message: String) {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.faults = plan
        let error = #expect(throws: EmulatorError.self) { try FleetEngineEmulator(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == message)
    }
}
