import FleetEngineCodec
import FleetEngineStatus
import Synchronization
import TripTracking

/// What one followed trip went through in the soak: its updates, failures, how it ended, and the
/// longest it went without an update once the faults stopped.
final class SoakTripRecord: TripModelSubscriber {
    private struct State {
        var updates = 0
        var lastUpdate: ContinuousClock.Instant?
        var failures: [String: Int] = [:]
        var ended: TripModelState?
        var longestQuietGap: Duration = .zero
    }

    private let state = Mutex(State())
    private let faults: SoakFaultClock

    init(faults: SoakFaultClock) {
        self.faults = faults
    }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        let now = ContinuousClock.now
        let stopped = faults.stoppedAt
        state.withLock { state in
            state.updates += 1
            if let stopped { state.longestQuietGap = max(state.longestQuietGap, Self.gap(state, until: now, stopped)) }
            state.lastUpdate = now
        }
    }

    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {
        state.withLock { $0.failures[error.code.name ?? "\(error.code.rawValue)", default: 0] += 1 }
    }

    func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) {
        self.state.withLock { $0.ended = state }
    }

    /// How the trip's following ended, nil while it goes on.
    var ended: TripModelState? { state.withLock { $0.ended } }
    var updates: Int { state.withLock { $0.updates } }
    var failures: [String: Int] { state.withLock { $0.failures } }

    /// The longest the trip went without an update since the faults stopped, counting, for a trip
    /// still followed, the time from its last update to `now`.
    func longestQuietGap(now: ContinuousClock.Instant) -> Duration? {
        guard let stopped = faults.stoppedAt else { return nil }
        return state.withLock { state in
            guard state.ended == nil else { return state.longestQuietGap }
            return max(state.longestQuietGap, Self.gap(state, until: now, stopped))
        }
    }

    /// The time from the later of the last update and the end of the faults to `now`.
    private static func gap(
        _ state: State, until now: ContinuousClock.Instant, _ stopped: ContinuousClock.Instant
    ) -> Duration {
        now - max(state.lastUpdate ?? stopped, stopped)
    }
}

/// When the soak's faults stopped, shared by every trip's record.
final class SoakFaultClock: Sendable {
    private let stopped = Mutex<ContinuousClock.Instant?>(nil)

    var stoppedAt: ContinuousClock.Instant? { stopped.withLock { $0 } }

    func stopNow() { stopped.withLock { $0 = .now } }
}
