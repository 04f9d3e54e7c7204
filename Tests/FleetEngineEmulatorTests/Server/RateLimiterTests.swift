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

    @Test("many distinct tokens keep at most maxCallers buckets, however slowly the buckets refill")
    func distinctTokensStayBounded() throws {
        // One call per 1,000 seconds: no bucket fills up again during the test.
        let limiter = RateLimiter(queriesPerSecond: 0.001)
        let now = ContinuousClock.now
        for number in 0..<25_000 {
            try limiter.admit(caller: "Bearer token-\(number)", now: now)
        }
        #expect(limiter.callerCount <= RateLimiter.defaultMaxCallers)
        // The most recent callers are still held to their rate.
        let error = try #require(throws: FleetEngineError.self) {
            try limiter.admit(caller: "Bearer token-24999", now: now)
        }
        #expect(error.code == .resourceExhausted)
    }

    @Test("a bucket that has filled up again is forgotten, as a new one would be the same")
    func fullBucketsAreForgotten() throws {
        let limiter = RateLimiter(queriesPerSecond: 1, maxCallers: 4)
        let start = ContinuousClock.now
        for number in 0..<4 { try limiter.admit(caller: "old-\(number)", now: start) }
        #expect(limiter.callerCount == 4)
        // A second later the four buckets are full again, so the new caller's bucket replaces them.
        try limiter.admit(caller: "new", now: start + .seconds(1))
        #expect(limiter.callerCount == 1)
        let error = try #require(throws: FleetEngineError.self) {
            try limiter.admit(caller: "new", now: start + .seconds(1))
        }
        #expect(error.retryDelay == .seconds(1))
        try limiter.admit(caller: "old-0", now: start + .seconds(1))
    }

    @Test(
        "a rate that is not a number, or negative, is refused when the emulator is made, not at a call",
        arguments: [Double.nan, -1, -Double.infinity])
    func meaninglessRateIsRefused(rate: Double) {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.faults.queriesPerSecond = rate
        let error = #expect(throws: EmulatorError.self) { try FleetEngineEmulator(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.message
                == "the fault plan's queriesPerSecond is \(rate); a rate limit is a number of calls per second, "
                + "0 or more")
    }
}
