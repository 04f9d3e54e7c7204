import FleetEngineCodec
import FleetEngineStatus
import Synchronization

/// A token bucket per caller: `rate` calls per second on average, bursts up to one second's worth.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let rate: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(queriesPerSecond rate: Double) {
        self.rate = rate
    }

    /// Takes one call from `caller`'s bucket.
    ///
    /// - Throws: RESOURCE_EXHAUSTED with a RetryInfo (the time until the bucket holds a call again)
    ///   and a QuotaFailure, as Fleet Engine answers a caller over its rate.
    func admit(caller: String, now: ContinuousClock.Instant = .now) throws(FleetEngineError) {
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[caller] ?? Bucket(tokens: max(rate, 1), updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(max(rate, 1), bucket.tokens + seconds * rate)
            bucket.updated = now
            defer { buckets[caller] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            // At most a day: a rate of almost nothing would otherwise ask for a wait no Duration
            // holds (and Int64 cannot take).
            return min((1 - bucket.tokens) / rate, 86_400)
        }
        guard let wait else { return }
        var delay = ProtobufDuration()
        delay.seconds = Int64(wait)
        delay.nanos = Int32((wait - Double(Int64(wait))) * 1e9)
        var retry = RetryInfo()
        retry.retryDelay = delay
        var violation = QuotaFailure.Violation()
        violation.subject = "token"
        violation.description = "more than \(rate) calls per second with one token"
        var quota = QuotaFailure()
        quota.violations = [violation]
        throw FleetEngineError(
            code: .resourceExhausted, message: "rate limit exceeded: at most \(rate) calls per second per token",
            details: [.retryInfo(retry), .quotaFailure(quota)])
    }
}
