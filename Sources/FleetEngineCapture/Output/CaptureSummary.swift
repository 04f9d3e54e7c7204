import FleetEngineCodec
import FleetEngineStatus

/// Counts what a capture held: calls per method, their statuses, their latency, and the messages
/// and problems seen.
public struct CaptureSummary: Sendable {
    /// What is known of one method's calls.
    public struct MethodSummary: Sendable {
        public var calls = 0
        /// Calls by final status name (the number, for a code gRPC does not name).
        public var statuses: [String: Int] = [:]
        /// Latencies of the calls the capture saw from start to end, in microseconds.
        public var latenciesMicros: [Int64] = []
    }

    public private(set) var methods: [String: MethodSummary] = [:]
    public private(set) var messageCount = 0
    public private(set) var problemCount = 0

    public init() {}

    /// Counts `records`.
    public mutating func add(_ records: [CaptureRecord]) {
        for record in records {
            switch record {
            case .message:
                messageCount += 1
            case .problem:
                problemCount += 1
            case .callEnd(let end):
                let method = end.method ?? "(unknown)"
                var summary = methods[method] ?? MethodSummary()
                summary.calls += 1
                summary.statuses[end.status.code.name ?? String(end.status.code.rawValue), default: 0] += 1
                if let latency = end.latencyNanoseconds { summary.latenciesMicros.append(latency / 1_000) }
                methods[method] = summary
            }
        }
    }

    /// The summary as one JSON object on one line: `messages`, `problems`, and `methods`, each
    /// method with `calls`, `statuses` (name → count) and `latencyMicros` (`min`, `p50`, `p90`,
    /// `p99`, `max`; nearest-rank percentiles) when any call's latency was seen.
    public var jsonLine: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("messages")
        writer.integer(messageCount)
        writer.key("problems")
        writer.integer(problemCount)
        writer.key("methods")
        writer.beginArray()
        for name in methods.keys.sorted() {
            guard let summary = methods[name] else { continue }
            writer.arrayElement()
            writer.beginObject()
            writer.key("method")
            writer.string(name)
            writer.key("calls")
            writer.integer(summary.calls)
            writer.key("statuses")
            writer.beginArray()
            for status in summary.statuses.keys.sorted() {
                writer.arrayElement()
                writer.beginObject()
                writer.key("name")
                writer.string(status)
                writer.key("calls")
                writer.integer(summary.statuses[status] ?? 0)
                writer.endObject()
            }
            writer.endArray()
            let sorted = summary.latenciesMicros.sorted()
            if let first = sorted.first, let last = sorted.last {
                writer.key("latencyMicros")
                writer.beginObject()
                writer.key("min")
                writer.integer(first)
                for (label, fraction) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)] as [(StaticString, Double)] {
                    writer.key(label)
                    let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
                    writer.integer(sorted[rank - 1])
                }
                writer.key("max")
                writer.integer(last)
                writer.endObject()
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endLine()
        return writer.takeBytes()
    }
}
