import FleetEngineCodec
import FleetEngineStatus
import Synchronization
import TripTracking

/// The subscriber of the followed trip: it counts updates and failures and does nothing else, so
/// that what a refresh allocates is the trip service's, and the gate can check that every
/// measured refresh delivered an update.
final class UpdateCountingSubscriber: TripModelSubscriber {
    /// "Trip updated" events so far.
    let updates = Atomic<Int>(0)
    /// The first failed refresh's error, if one failed.
    let firstFailure = Mutex<FleetEngineError?>(nil)

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        updates.add(1, ordering: .relaxed)
    }

    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {
        firstFailure.withLock { first in
            if first == nil { first = error }
        }
    }
}
