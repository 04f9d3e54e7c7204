import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("The emulator's rate limiter at the edges of its rate")
struct RateLimiterTests {
    @Test("a rate of almost nothing asks for a wait of a day at most, and does not crash", arguments: [1e-300, 1e-9])
    func tinyRate(rate: Double) throws {
        let limiter = RateLimiter(queriesPerSecond: rate)
        let now = ContinuousClock.now
        try limiter.admit(caller: "token", now: now)
        let error = try #require(throws: FleetEngineError.self) { try limiter.admit(caller: "token", now: now) }
        #expect(error.code == .resourceExhausted)
        #expect(error.retryDelay == .seconds(86_400))
    }
}
