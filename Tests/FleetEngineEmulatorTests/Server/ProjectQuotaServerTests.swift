import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("The project's quota over gRPC: all callers together, refilled smoothly, changed while running")
struct ProjectQuotaServerTests {
    static func configuration(quotaPerMinute: Int?) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.quotaPerMinute = quotaPerMinute
        return configuration
    }

    /// Makes `count` GetTrip calls of `trip-1`, one after the other, and returns how each ended:
    /// `OK` or its status code.
    static func getTrips(
        _ count: Int, with client: TripServiceClient, authorization: String? = nil
    ) async -> [String] {
        var outcomes: [String] = []
        for _ in 0..<count {
            let error = await client.failure(
                .getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self, authorization: authorization)
            outcomes.append(error.map { "\($0.code)" } ?? "OK")
        }
        return outcomes
    }

    /// What the emulator sends with a call past a quota of `callsPerMinute` that may be made again
    /// after `retryDelay`.
    static func quotaDetails(callsPerMinute: Int, retryDelay: ProtobufDuration) -> [StatusDetail] {
        var retry = RetryInfo()
        retry.retryDelay = retryDelay
        var violation = QuotaFailure.Violation()
        violation.subject = "project"
        violation.description =
            "more than \(callsPerMinute) TripService calls per minute in the project, all callers together"
        violation.apiService = "fleetengine.googleapis.com"
        violation.quotaID = "TripServiceRequestsPerMinutePerProject"
        violation.quotaValue = Int64(callsPerMinute)
        var quota = QuotaFailure()
        quota.violations = [violation]
        return [.retryInfo(retry), .quotaFailure(quota)]
    }

    static func duration(seconds: Int64, nanos: Int32 = 0) -> ProtobufDuration {
        var duration = ProtobufDuration()
        duration.seconds = seconds
        duration.nanos = nanos
        return duration
    }

    @Test("past the quota a call is RESOURCE_EXHAUSTED with a RetryInfo and a QuotaFailure, whoever the caller")
    func callPastTheQuotaIsRefused() async throws {
        // 30 a minute: a burst of one call, then one every two seconds.
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(Self.configuration(quotaPerMinute: 30), time: clock) { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            let request = AuthorizationServerTests.get("trip-1")
            let _: Trip = try await client.call(.getTrip, request, authorization: "Bearer first")
            // Another token changes nothing: the quota is the project's, not the caller's.
            let error = try #require(
                await client.failure(.getTrip, request, returning: Trip.self, authorization: "Bearer second"))
            #expect(error.code == .resourceExhausted)
            #expect(error.message == "quota exceeded: at most 30 TripService calls per minute for the project")
            #expect(error.details == Self.quotaDetails(callsPerMinute: 30, retryDelay: Self.duration(seconds: 2)))
            #expect(error.retryDelay == .seconds(2))
            #expect(error.isRetryable)
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 1, refused: 1))
            #expect(emulator.quotaPerMinute == 30)
        }
    }

    @Test("the quota refills at a sixtieth of itself a second, and saves up at most one second's worth")
    func quotaRefillsSmoothly() async throws {
        // 120 a minute: two calls a second, and a burst of two.
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(Self.configuration(quotaPerMinute: 120), time: clock) { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            #expect(await Self.getTrips(3, with: client) == ["OK", "OK", "RESOURCE_EXHAUSTED"])
            let early = try #require(
                await client.failure(.getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self))
            #expect(
                early.details
                    == Self.quotaDetails(callsPerMinute: 120, retryDelay: Self.duration(seconds: 0, nanos: 500_000_000))
            )

            clock.advance(by: .milliseconds(500))
            #expect(await Self.getTrips(2, with: client) == ["OK", "RESOURCE_EXHAUSTED"])

            // A minute of silence saves up one second's worth, not a minute's.
            clock.advance(by: .seconds(60))
            #expect(await Self.getTrips(3, with: client) == ["OK", "OK", "RESOURCE_EXHAUSTED"])
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 5, refused: 4))
        }
    }

    @Test("a quota lowered while running holds from the next call, and lifting it lets every call through")
    func quotaChangesWhileRunning() async throws {
        // 6,000 a minute: a burst of 100, far more than the calls before the change.
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(Self.configuration(quotaPerMinute: 6_000), time: clock) { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            #expect(await Self.getTrips(5, with: client) == Array(repeating: "OK", count: 5))

            try emulator.setQuotaPerMinute(60)
            #expect(emulator.quotaPerMinute == 60)
            #expect(await Self.getTrips(1, with: client) == ["OK"])
            let error = try #require(
                await client.failure(.getTrip, AuthorizationServerTests.get("trip-1"), returning: Trip.self))
            #expect(error.code == .resourceExhausted)
            #expect(error.message == "quota exceeded: at most 60 TripService calls per minute for the project")
            #expect(error.details == Self.quotaDetails(callsPerMinute: 60, retryDelay: Self.duration(seconds: 1)))

            try emulator.setQuotaPerMinute(nil)
            #expect(emulator.quotaPerMinute == nil)
            #expect(await Self.getTrips(20, with: client) == Array(repeating: "OK", count: 20))
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 26, refused: 1))
        }
    }

    @Test("without a quota, the default, no call is refused and every call is counted; one set later starts full")
    func unlimitedByDefault() async throws {
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(EmulatorConfiguration(accessPolicy: .noAuth), time: clock) {
            emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            #expect(emulator.quotaPerMinute == nil)
            #expect(await Self.getTrips(50, with: client) == Array(repeating: "OK", count: 50))
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 50, refused: 0))

            // 180 a minute: a burst of three.
            try emulator.setQuotaPerMinute(180)
            #expect(await Self.getTrips(4, with: client) == ["OK", "OK", "OK", "RESOURCE_EXHAUSTED"])
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 53, refused: 1))
        }
    }

    @Test("calls refused before the quota (an injected failure) neither use it up nor count")
    func earlierRefusalsDoNotCount() async throws {
        var configuration = Self.configuration(quotaPerMinute: 60)
        configuration.faults.failEvery = 2
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(configuration, time: clock) { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            #expect(await Self.getTrips(3, with: client) == ["OK", "UNAVAILABLE", "RESOURCE_EXHAUSTED"])
            #expect(emulator.quotaUsage == QuotaUsage(admitted: 1, refused: 1))
            #expect(emulator.callCount == 3)
        }
    }

    @Test(
        "a quota below 1 is refused when the emulator is made, and when it is set, leaving the quota as it was",
        arguments: [0, -5])
    func meaninglessQuotaIsRefused(quota: Int) throws {
        let message =
            "the quota is \(quota) calls per minute; a quota lets 1 call a minute or more through (nil for no quota)"
        let made = #expect(throws: EmulatorError.self) {
            try FleetEngineEmulator(configuration: Self.configuration(quotaPerMinute: quota))
        }
        #expect(made?.code == .invalidConfiguration)
        #expect(made?.message == message)

        let emulator = try FleetEngineEmulator(configuration: Self.configuration(quotaPerMinute: 9_000))
        let set = #expect(throws: EmulatorError.self) { try emulator.setQuotaPerMinute(quota) }
        #expect(set?.code == .invalidConfiguration)
        #expect(set?.message == message)
        #expect(emulator.quotaPerMinute == 9_000)
    }
}
