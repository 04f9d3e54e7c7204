import Crypto
import FleetEngineCodec
import FleetEngineStatus
import Synchronization

/// A token bucket per caller: `rate` calls per second on average, bursts up to one second's worth.
///
/// Memory stays bounded whatever callers come. A bucket is kept under the SHA-256 of the caller's
/// `authorization` value, not the value (which may be kilobytes). A bucket that has filled up again
/// is the same as a new one, so it is forgotten; and at most ``maxCallers`` are kept: past that
/// the least recently used quarter is forgotten too, which gives those callers a fresh burst.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// How many callers' buckets are kept at most, by default.
    static let defaultMaxCallers = 10_000

    private let rate: Double
    /// How many calls a full bucket holds.
    private let burst: Double
    /// How many callers' buckets are kept at most.
    let maxCallers: Int
    private let buckets = Mutex<[SHA256Digest: Bucket]>([:])

    init(queriesPerSecond rate: Double, maxCallers: Int = RateLimiter.defaultMaxCallers) {
        self.rate = rate
        self.burst = max(rate, 1)
        self.maxCallers = max(maxCallers, 1)
    }

    /// How many callers' buckets are kept now.
    var callerCount: Int { buckets.withLock { $0.count } }

    /// Takes one call from `caller`'s bucket.
    ///
    /// - Throws: RESOURCE_EXHAUSTED with a RetryInfo (the time until the bucket holds a call again)
    ///   and a QuotaFailure, as Fleet Engine answers a caller over its rate.
    func admit(caller: String, now: ContinuousClock.Instant = .now) throws(FleetEngineError) {
        let key = SHA256.hash(data: Array(caller.utf8))
        let wait: Double? = buckets.withLock { buckets in
            var bucket: Bucket
            if let known = buckets[key] {
                bucket = known
            } else {
                if buckets.count >= maxCallers { forgetBuckets(in: &buckets, now: now) }
                bucket = Bucket(tokens: burst, updated: now)
            }
            bucket.tokens = tokens(in: bucket, at: now)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            // At most a day: a rate of almost nothing would otherwise ask for a wait no Duration
            // holds (and Int64 cannot take).
            return min((1 - bucket.tokens) / rate, 86_400)
        }
        guard let wait else { return }
        var violation = QuotaFailure.Violation()
        violation.subject = "token"
        violation.description = "more than \(rate) calls per second with one token"
        var quota = QuotaFailure()
        quota.violations = [violation]
        throw FleetEngineError(
            code: .resourceExhausted, message: "rate limit exceeded: at most \(rate) calls per second per token",
            details: [.retryInfo(RetryInfo(waitingSeconds: wait)), .quotaFailure(quota)])
    }

    /// What `bucket` holds at `now`, refilled at the rate up to the burst.
    private func tokens(in bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(burst, bucket.tokens + seconds * rate)
    }

    /// Makes room for a new caller: forgets the full buckets, then, if that was not enough, the
    /// least recently used quarter (so this runs once per many new callers, not for each).
    private func forgetBuckets(in buckets: inout [SHA256Digest: Bucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { tokens(in: $0.value, at: now) < burst }
        guard buckets.count >= maxCallers else { return }
        // A new table rather than removals: callers of the same instant sort in table order, and
        // removing a run of neighbouring slots leaves the rest in one long cluster that every later
        // insertion probes through.
        let newest = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(maxCallers * 3 / 4)
        buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
