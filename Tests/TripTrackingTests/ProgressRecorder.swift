import FleetEngineCodec
import FleetEngineEmulator
import Synchronization
import TripTracking

/// A progress listener that records every callback as the event it stands for.
final class ProgressRecorder: TripProgressListener {
    private let recorded = Mutex<[TripProgressEvent]>([])

    var events: [TripProgressEvent] { recorded.withLock { $0 } }

    func take() -> [TripProgressEvent] {
        recorded.withLock { events in
            defer { events = [] }
            return events
        }
    }

    private func record(_ event: TripProgressEvent) {
        recorded.withLock { $0.append(event) }
    }

    func progressMonitor(_ monitor: TripProgressMonitor, didArriveAt waypoint: TripWaypoint) {
        record(.arrivedAtWaypoint(waypoint))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeRoute route: [LatLng]) {
        record(.routeChanged(route))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingTime seconds: Double) {
        record(.remainingTime(seconds))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingDistance meters: Double) {
        record(.remainingDistance(meters))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeDelayCategory category: DelayCategory) {
        record(.delayCategory(category))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeSuggestedLightingMode mode: LightingMode) {
        record(.lightingMode(mode))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateSpeedingPercentage percent: Double) {
        record(.speeding(percentAboveLimit: percent))
    }
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateLocation location: RoadSnappedLocation) {
        record(.locationUpdated(location))
    }
}

/// One step of a monitored trip: the clock's offset, the full fetch then, and the events it fired.
struct ProgressStep {
    var elapsed: Int64
    var trip: Trip
    var events: [TripProgressEvent]
}

extension TrackingHarness {
    /// Follows simulation `index` with a progress monitor, moving the clock `step` seconds between
    /// refreshes until the trip is complete; returns every step.
    func monitorSteps(
        index: Int, step: Int64,
        monitor configure: (TripModel) -> TripProgressMonitor = { TripProgressMonitor(model: $0) },
        beforeStep: (Int64, TripProgressMonitor) -> Void = { _, _ in }
    ) async throws -> [ProgressStep] {
        let name = simulations[index].plan.tripName
        let model = service.tripModel(for: name)
        let monitor = configure(model)
        let recorder = ProgressRecorder()
        monitor.addListener(recorder)
        var steps: [ProgressStep] = []
        var elapsed: Int64 = 0
        while model.modelState == .following, elapsed < 20_000 {
            beforeStep(elapsed, monitor)
            await model.refresh()
            steps.append(ProgressStep(elapsed: elapsed, trip: try fullFetch(name), events: recorder.take()))
            clock.advance(by: .seconds(step))
            elapsed += step
        }
        monitor.removeListener(recorder)
        return steps
    }
}
