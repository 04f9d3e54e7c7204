/// Durations counted in buckets one millisecond wide up to a limit, so that recording allocates
/// nothing: the benchmark measures the memory of what it follows, and a growing list of samples
/// would be counted with it.
struct DurationHistogram: Sendable {
    private var buckets: [Int]
    /// Samples above the last bucket.
    private(set) var overflow = 0
    /// Samples below zero (a clock ahead of this one), counted in the first bucket too.
    private(set) var negative = 0
    /// How many samples were recorded.
    private(set) var count = 0
    private var sumMilliseconds = 0.0
    /// The largest sample, in milliseconds.
    private(set) var maximumMilliseconds = 0.0

    /// An empty histogram with one bucket per millisecond up to `limitMilliseconds`.
    init(limitMilliseconds: Int) {
        buckets = [Int](repeating: 0, count: limitMilliseconds)
    }

    /// Counts a duration given in nanoseconds.
    mutating func record(nanoseconds: Int64) {
        let milliseconds = Double(nanoseconds) / 1e6
        count += 1
        sumMilliseconds += milliseconds
        maximumMilliseconds = max(maximumMilliseconds, milliseconds)
        if nanoseconds < 0 { negative += 1 }
        let index = Int(max(0, nanoseconds) / 1_000_000)
        if index < buckets.count {
            buckets[index] += 1
        } else {
            overflow += 1
        }
    }

    /// The mean, in milliseconds; nil without samples.
    var meanMilliseconds: Double? {
        count > 0 ? sumMilliseconds / Double(count) : nil
    }

    /// The upper edge of the bucket that holds the `fraction` quantile, in milliseconds (so exact to
    /// one millisecond, rounded up); the maximum when it lies above the last bucket; nil without
    /// samples.
    func percentileMilliseconds(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucket) in buckets.enumerated() {
            seen += bucket
            if seen >= rank { return Double(index + 1) }
        }
        return maximumMilliseconds
    }
}
