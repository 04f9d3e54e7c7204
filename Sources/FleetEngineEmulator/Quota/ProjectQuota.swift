import FleetEngineCodec
import FleetEngineStatus
import Synchronization

/// The emulator's project-wide quota: at most a number of TripService calls a minute from all
/// callers together, as Fleet Engine limits a project's requests per minute.
///
/// Enforced as one token bucket that refills at a sixtieth of the quota per second and holds one
/// second's worth of calls (at least one): a client that spreads its calls evenly at the quota is
/// never refused, and one that bursts gets at most a second's worth ahead. A fixed minute window
/// would let a whole minute's calls through in its first second and so could not tell a client
/// that paces itself from one that does not.
///
/// It reads the emulator's ``TimeSource``, so a test on a `ManualTimeSource` refills it by moving
/// the clock. The quota can change while calls arrive (``setCallsPerMinute(_:)``).
final class ProjectQuota: Sendable {
    private struct State {
        var callsPerMinute: Int?
        /// Calls the bucket holds; kept only while there is a quota.
        var tokens: Double
        /// When `tokens` was last brought up to date.
        var updated: Timestamp
        var usage = QuotaUsage()
    }

    /// The quota's name in the QuotaFailure of a refused call.
    static let quotaID = "TripServiceRequestsPerMinutePerProject"
    /// Fleet Engine's service name, as Google's QuotaFailure names the service a quota belongs to.
    static let apiService = "fleetengine.googleapis.com"

    private let time: any TimeSource
    private let state: Mutex<State>

    /// A full bucket for `callsPerMinute` (nil: no quota); check it with ``problem(callsPerMinute:)``
    /// first.
    init(callsPerMinute: Int?, time: any TimeSource) {
        self.time = time
        let tokens = callsPerMinute.map(Self.burst(callsPerMinute:)) ?? 0
        state = Mutex(State(callsPerMinute: callsPerMinute, tokens: tokens, updated: time.now()))
    }

    /// What makes `callsPerMinute` no quota at all, or nil.
    static func problem(callsPerMinute: Int?) -> String? {
        guard let callsPerMinute, callsPerMinute < 1 else { return nil }
        return "the quota is \(callsPerMinute) calls per minute; a quota lets 1 call a minute or more through "
            + "(nil for no quota)"
    }

    /// How many calls a full bucket holds: one second's worth, and at least the one call a refill
    /// is counted in.
    static func burst(callsPerMinute: Int) -> Double {
        max(1, Double(callsPerMinute) / 60)
    }

    /// The quota now, nil when there is none.
    var callsPerMinute: Int? { state.withLock { $0.callsPerMinute } }

    /// The calls let through and refused so far.
    var usage: QuotaUsage { state.withLock { $0.usage } }

    /// Sets a new quota from now on; check it with ``problem(callsPerMinute:)`` first.
    ///
    /// What the bucket earned at the old rate stays, up to the new burst, so a lower quota holds
    /// from the next call; a quota set where there was none starts with a full bucket.
    func setCallsPerMinute(_ callsPerMinute: Int?) {
        let now = time.now()
        state.withLock { state in
            Self.refill(&state, at: now)
            if let callsPerMinute {
                let burst = Self.burst(callsPerMinute: callsPerMinute)
                state.tokens = state.callsPerMinute == nil ? burst : min(state.tokens, burst)
            }
            state.callsPerMinute = callsPerMinute
        }
    }

    /// Takes one call from the project's quota.
    ///
    /// - Throws: RESOURCE_EXHAUSTED with a RetryInfo (the time until the bucket holds a call again)
    ///   and a QuotaFailure naming the quota, its service and its value.
    func admit() throws(FleetEngineError) {
        let now = time.now()
        let refusal: (callsPerMinute: Int, wait: Double)? = state.withLock { state in
            guard let callsPerMinute = state.callsPerMinute else {
                state.usage.admitted += 1
                return nil
            }
            Self.refill(&state, at: now)
            if state.tokens >= 1 {
                state.tokens -= 1
                state.usage.admitted += 1
                return nil
            }
            state.usage.refused += 1
            // The rate is at least one call a minute, so the wait is at most a minute.
            return (callsPerMinute, (1 - state.tokens) * 60 / Double(callsPerMinute))
        }
        guard let refusal else { return }
        var violation = QuotaFailure.Violation()
        violation.subject = "project"
        violation.description =
            "more than \(refusal.callsPerMinute) TripService calls per minute in the project, all callers together"
        violation.apiService = Self.apiService
        violation.quotaID = Self.quotaID
        violation.quotaValue = Int64(refusal.callsPerMinute)
        var quota = QuotaFailure()
        quota.violations = [violation]
        throw FleetEngineError(
            code: .resourceExhausted,
            message: "quota exceeded: at most \(refusal.callsPerMinute) TripService calls per minute for the project",
            details: [.retryInfo(RetryInfo(waitingSeconds: refusal.wait)), .quotaFailure(quota)])
    }

    /// Brings the bucket up to `now` at the current rate. A clock moved back earns nothing, and the
    /// bucket keeps counting from the later time, so moving it back and forth earns nothing twice.
    private static func refill(_ state: inout State, at now: Timestamp) {
        guard now > state.updated else { return }
        if let callsPerMinute = state.callsPerMinute {
            let elapsed = now.duration(since: state.updated).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            state.tokens = min(
                burst(callsPerMinute: callsPerMinute), state.tokens + seconds * Double(callsPerMinute) / 60)
        }
        state.updated = now
    }
}
