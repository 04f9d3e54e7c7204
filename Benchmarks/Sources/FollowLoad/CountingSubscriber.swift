import FleetEngineCodec
import FleetEngineStatus
import Synchronization
import TripTracking

/// The subscriber registered with each followed trip: it counts, and measures how old each vehicle
/// location is when it arrives, and does nothing else, so that what the process spends is the
/// trip service's.
final class CountingSubscriber: TripModelSubscriber {
    private let recorder: FollowRecorder
    /// When this trip's previous "trip updated" arrived.
    private let lastUpdate = Mutex<ContinuousClock.Instant?>(nil)
    /// "Trip updated" events over the whole run, window or not.
    let updates = Atomic<Int>(0)

    init(recorder: FollowRecorder) {
        self.recorder = recorder
    }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        let now = ContinuousClock.now
        let previous = lastUpdate.withLock { last in
            defer { last = now }
            return last
        }
        updates.add(1, ordering: .relaxed)
        recorder.recordTripUpdate(sincePrevious: previous.map { now - $0 })
    }

    func tripModel(_ model: TripModel, didUpdateVehicleLocation location: VehicleLocation?) {
        recorder.recordLocation(ageNanoseconds: location?.updateTime.map(WallClock.age(of:)))
    }

    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {
        recorder.recordFailure(code: error.code.name ?? "\(error.code.rawValue)")
    }
}
