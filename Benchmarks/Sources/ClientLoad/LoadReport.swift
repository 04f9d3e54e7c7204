import ClientComparison

/// The JSON line ClientLoad prints.
struct LoadReport {
    var client: ClientKind
    var concurrency: Int
    var nioGlobalExecutor: Bool
    /// Whether the callers ran on the client's own task executor.
    var taskExecutor: Bool
    var sample: LoopSample
    var allocationsPerCall: Double?

    /// One JSON object on one line, keys in a fixed order; `mallocsPerCall` is null when the
    /// allocations were not counted.
    var jsonLine: String {
        let seconds = Self.seconds(sample.wall)
        let fields: [(String, String)] = [
            ("client", "\"\(client.rawValue)\""),
            ("concurrency", "\(concurrency)"),
            ("nioGlobalExecutor", "\(nioGlobalExecutor)"),
            ("taskExecutor", "\(taskExecutor)"),
            ("seconds", Self.number(seconds)),
            ("calls", "\(sample.calls)"),
            ("callsPerSecond", Self.number(Double(sample.calls) / seconds)),
            ("p50Micros", Self.number(Self.seconds(sample.latencyPercentile(0.5)) * 1e6)),
            ("p99Micros", Self.number(Self.seconds(sample.latencyPercentile(0.99)) * 1e6)),
            ("cpuMicrosPerCall", Self.number(Self.seconds(sample.cpu) * 1e6 / Double(max(1, sample.calls)))),
            ("mallocsPerCall", allocationsPerCall.map(Self.number) ?? "null"),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// A JSON number with one decimal, which is all the precision these measurements have.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite else { return "null" }
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}
