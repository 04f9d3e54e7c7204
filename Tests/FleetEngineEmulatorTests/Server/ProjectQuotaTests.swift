import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("The project's quota as a token bucket: shared by concurrent calls, and on a clock that moves back")
struct ProjectQuotaTests {
    @Test("calls arriving together share one bucket: exactly its burst gets through")
    func concurrentCallsShareTheBucket() async {
        // 600 a minute: a burst of ten. The clock stands still, so nothing refills.
        let quota = ProjectQuota(callsPerMinute: 600, time: ManualTimeSource(start: ServiceHarness.time(0)))
        let admitted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var admitted = 0
                    for _ in 0..<50 where (try? quota.admit()) != nil { admitted += 1 }
                    return admitted
                }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 10)
        #expect(quota.usage == QuotaUsage(admitted: 10, refused: 390))
    }

    @Test("a clock moved back earns nothing, and moving it forward again earns the time only once")
    func clockMovedBackEarnsNothing() throws {
        // 60 a minute: one call a second, a burst of one.
        let clock = ManualTimeSource(start: ServiceHarness.time(10))
        let quota = ProjectQuota(callsPerMinute: 60, time: clock)
        try quota.admit()
        clock.set(ServiceHarness.time(5))
        #expect(throws: FleetEngineError.self) { try quota.admit() }
        // Back at the start, the bucket is as empty as it was there.
        clock.set(ServiceHarness.time(10))
        let error = try #require(throws: FleetEngineError.self) { try quota.admit() }
        #expect(error.retryDelay == .seconds(1))
        clock.set(ServiceHarness.time(11))
        try quota.admit()
        #expect(quota.usage == QuotaUsage(admitted: 2, refused: 2))
    }

    @Test("a quota raised while running keeps what was saved and refills at the new rate")
    func raisedQuotaRefillsFaster() throws {
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        let quota = ProjectQuota(callsPerMinute: 60, time: clock)
        try quota.admit()
        // 600 a minute: ten calls a second, a burst of ten; the empty bucket stays empty.
        quota.setCallsPerMinute(600)
        let error = try #require(throws: FleetEngineError.self) { try quota.admit() }
        #expect(error.retryDelay == .milliseconds(100))
        clock.advance(by: .milliseconds(500))
        for _ in 0..<5 { try quota.admit() }
        #expect(throws: FleetEngineError.self) { try quota.admit() }
        #expect(quota.usage == QuotaUsage(admitted: 6, refused: 2))
    }
}
