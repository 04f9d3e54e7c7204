import FleetEngineClient
import Testing

@Suite("Backoff: waits that grow to the maximum, for any retry count, without trapping")
struct BackoffTests {
    /// Always the middle of the range it is asked for, so a jittered wait is known exactly.
    struct MiddleGenerator: RandomNumberGenerator {
        mutating func next() -> UInt64 { 1 << 63 }
    }

    @Test("the wait grows by the multiplier and stops at the maximum")
    func growsToTheMaximum() {
        let backoff = Backoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(10))
        #expect((0...5).map { backoff.nominalDelay(afterRetry: $0) } == [1, 2, 4, 8, 10, 10].map { .seconds($0) })
    }

    @Test(
        "a retry count in the billions, or Int.max, is answered at once, whatever the multiplier",
        arguments: [
            (1.0, Duration.seconds(2)), (0.5, .zero), (2.0, .seconds(10)),
        ])
    func hugeRetryCounts(multiplier: Double, expected: Duration) {
        let backoff = Backoff(initial: .seconds(2), multiplier: multiplier, maximum: .seconds(10))
        #expect(backoff.nominalDelay(afterRetry: .max) == expected)
        #expect(backoff.nominalDelay(afterRetry: 4_000_000_000) == expected)
    }

    @Test(
        "a multiplier that makes no wait (NaN, or infinity times a zero first wait) waits the maximum",
        arguments: [(Duration.seconds(1), Double.nan), (.zero, .infinity)])
    func multiplierWithoutAWait(initial: Duration, multiplier: Double) {
        let backoff = Backoff(initial: initial, multiplier: multiplier, maximum: .seconds(3), jitter: 0)
        #expect(backoff.nominalDelay(afterRetry: 3) == .seconds(3))
        var generator = MiddleGenerator()
        #expect(backoff.delay(afterRetry: 3, using: &generator) == .seconds(3))
    }

    @Test("a jitter set past 0…1 after the backoff was made is taken as the nearest end, as the initializer takes it")
    func jitterSetOutOfRange() {
        var backoff = Backoff(initial: .seconds(4), multiplier: 1, maximum: .seconds(4))
        backoff.jitter = .infinity
        var generator = MiddleGenerator()
        let delay = backoff.delay(afterRetry: 0, using: &generator)
        #expect(delay >= .zero && delay <= .seconds(8))
    }

    @Test("a maximum near the longest Duration, with jitter on top, stays a Duration")
    func hugeMaximumWithJitter() {
        let backoff = Backoff(initial: .seconds(1e20), multiplier: 2, maximum: .seconds(1.5e20), jitter: 1)
        var generator = MiddleGenerator()
        #expect(backoff.delay(afterRetry: 0, using: &generator) == .seconds(Int64.max))
    }
}
