import FleetEngineCodec
import Synchronization
import TripTracking

/// A subscriber that records the names of its callbacks, `ended(<state>)` for the end of following;
/// one made with `leavesOnFirstUpdate` unregisters itself in its first "trip updated" callback.
final class CallbackNameRecorder: TripModelSubscriber {
    private let calls = Mutex<[String]>([])
    private let leavesOnFirstUpdate: Bool

    init(leavesOnFirstUpdate: Bool = false) {
        self.leavesOnFirstUpdate = leavesOnFirstUpdate
    }

    var names: [String] { calls.withLock { $0 } }

    private func add(_ name: String) { calls.withLock { $0.append(name) } }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        add("tripUpdated")
        if leavesOnFirstUpdate { model.unregister(self) }
    }
    func tripModel(_ model: TripModel, didUpdateTripStatus status: TripStatus) { add("tripStatus") }
    func tripModel(_ model: TripModel, didUpdateVehicleLocation location: VehicleLocation?) { add("vehicleLocation") }
    func tripModel(_ model: TripModel, didUpdatePickupLocation location: TerminalLocation?) { add("pickupLocation") }
    func tripModel(_ model: TripModel, didUpdateDropoffLocation location: TerminalLocation?) { add("dropoffLocation") }
    func tripModel(_ model: TripModel, didUpdateRemainingWaypoints waypoints: [TripWaypoint]?) {
        add("remainingWaypoints")
    }
    func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) { add("ended(\(state))") }
}
