import FleetEngineStatus
import FleetEngineWire
import Metrics
import Synchronization

/// The client's swift-metrics, through the factory the client was given — by default whatever
/// backend the process bootstrapped (`MetricsSystem.bootstrap`); nothing is recorded without one.
///
/// - `fleetengine_client_calls_total` (counter; dimensions `method`, `code`): finished calls, by the
///   canonical name of their final status (`OK` for success); a status number gRPC does not define
///   counts under `UNRECOGNIZED`.
/// - `fleetengine_client_failures_total` (counter; `method`, `code`): failed calls only.
/// - `fleetengine_client_call_duration` (timer; `method`): from the call's start to its end,
///   retries included.
///
/// The metric objects are made once per method and code, not per call. The `code` label is one of
/// gRPC's 17 names or `UNRECOGNIZED`: a status number is the server's choice, and a label per number
/// made a new pair of counters (and a series in the backend) for every number a server sent.
final class ClientMetrics: Sendable {
    static let callsLabel = "fleetengine_client_calls_total"
    static let failuresLabel = "fleetengine_client_failures_total"
    static let durationLabel = "fleetengine_client_call_duration"
    /// The `code` label of every status number gRPC does not define.
    static let unrecognizedCodeLabel = "UNRECOGNIZED"

    private struct Key: Hashable {
        var method: String
        var code: String
    }

    private struct Instruments: @unchecked Sendable {
        // @unchecked: swift-metrics' handles are thread-safe by contract, though not all are
        // marked Sendable.
        var calls: [Key: Counter] = [:]
        var failures: [Key: Counter] = [:]
        var durations: [String: Metrics.Timer] = [:]
    }

    private let instruments = Mutex(Instruments())
    private let factory: any MetricsFactory

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    private static func dimensions(_ key: Key) -> [(String, String)] {
        [("method", key.method), ("code", key.code)]
    }

    func record(method: GRPCMethodPath, code: StatusCode, duration: Duration) {
        let key = Key(method: method.method, code: code.name ?? Self.unrecognizedCodeLabel)
        let (calls, failures, timer) = instruments.withLock {
            [factory] instruments -> (Counter, Counter?, Metrics.Timer) in
            let calls =
                instruments.calls[key]
                ?? {
                    let counter = Counter(
                        label: Self.callsLabel, dimensions: Self.dimensions(key), factory: factory)
                    instruments.calls[key] = counter
                    return counter
                }()
            var failures: Counter?
            if code != .ok {
                failures =
                    instruments.failures[key]
                    ?? {
                        let counter = Counter(
                            label: Self.failuresLabel, dimensions: Self.dimensions(key), factory: factory)
                        instruments.failures[key] = counter
                        return counter
                    }()
            }
            let timer =
                instruments.durations[method.method]
                ?? {
                    let timer = Metrics.Timer(
                        label: Self.durationLabel, dimensions: [("method", method.method)], factory: factory)
                    instruments.durations[method.method] = timer
                    return timer
                }()
            return (calls, failures, timer)
        }
        calls.increment()
        failures?.increment()
        let (seconds, attoseconds) = duration.components
        timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
