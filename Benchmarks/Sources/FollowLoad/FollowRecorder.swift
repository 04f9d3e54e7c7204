import Synchronization

/// What every trip's ``CountingSubscriber`` reports, gathered in one place: counted only while the
/// measured window is open, into histograms allocated up front.
final class FollowRecorder: Sendable {
    /// The counts of one window.
    struct Window: Sendable {
        /// "Trip updated" events: one per refresh that changed something.
        var tripUpdates = 0
        /// "Vehicle location" events.
        var locationUpdates = 0
        /// Failed refreshes by status name.
        var failures: [String: Int] = [:]
        /// Wall clock at delivery minus the location's `update_time`.
        var locationAge = DurationHistogram(limitMilliseconds: 60_000)
        /// Time between one trip's consecutive "trip updated" events.
        var updateInterval = DurationHistogram(limitMilliseconds: 60_000)

        /// All failed refreshes.
        var failureCount: Int { failures.values.reduce(0, +) }
    }

    private struct State {
        var measuring = false
        var window = Window()
    }

    private let state = Mutex(State())

    /// Starts counting. The window is not made afresh: its histograms were allocated with the
    /// recorder, before the memory baseline, and nothing was counted before.
    func open() {
        state.withLock { $0.measuring = true }
    }

    /// Stops counting and returns what was counted since ``open()``; call it once.
    func close() -> Window {
        state.withLock { state in
            state.measuring = false
            return state.window
        }
    }

    func recordTripUpdate(sincePrevious interval: Duration?) {
        state.withLock { state in
            guard state.measuring else { return }
            state.window.tripUpdates += 1
            if let interval {
                let (seconds, attoseconds) = interval.components
                state.window.updateInterval.record(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            }
        }
    }

    func recordLocation(ageNanoseconds: Int64?) {
        state.withLock { state in
            guard state.measuring else { return }
            state.window.locationUpdates += 1
            if let ageNanoseconds { state.window.locationAge.record(nanoseconds: ageNanoseconds) }
        }
    }

    func recordFailure(code: String) {
        state.withLock { state in
            guard state.measuring else { return }
            state.window.failures[code, default: 0] += 1
        }
    }
}
