import FleetEngineCodec
import FleetEngineStatus

/// The waypoints a trip has left, derived from its status and points, for trips no motion drives
/// (created or updated through the API); a simulated trip's motion supplies its own, with paths.
enum RemainingWaypoints {
    /// Whether a trip with this status still influences its vehicle's route.
    static func isActive(_ status: TripStatus) -> Bool {
        status != .complete && status != .canceled
    }

    static func derive(for trip: Trip) -> [TripWaypoint] {
        let tripID = TripName.lastSegment(of: trip.name)
        func waypoint(_ location: TerminalLocation?, _ type: WaypointType) -> TripWaypoint? {
            guard let location else { return nil }
            var waypoint = TripWaypoint()
            waypoint.location = location
            waypoint.tripID = tripID
            waypoint.waypointType = type
            return waypoint
        }
        var waypoints: [TripWaypoint] = []
        let status = trip.tripStatus
        guard isActive(status) else { return [] }
        if status == .new || status == .enrouteToPickup || status == .arrivedAtPickup,
            let pickup = waypoint(trip.pickupPoint, .pickupWaypointType)
        {
            waypoints.append(pickup)
        }
        let firstIntermediate: Int
        switch status {
        case .new, .enrouteToPickup, .arrivedAtPickup: firstIntermediate = 0
        case .enrouteToIntermediateDestination: firstIntermediate = Int(trip.intermediateDestinationIndex)
        case .arrivedAtIntermediateDestination: firstIntermediate = Int(trip.intermediateDestinationIndex)
        default: firstIntermediate = trip.intermediateDestinations.count
        }
        if firstIntermediate >= 0 {
            for destination in trip.intermediateDestinations.dropFirst(firstIntermediate) {
                if let stop = waypoint(destination, .intermediateDestinationWaypointType) { waypoints.append(stop) }
            }
        }
        if let dropoff = waypoint(trip.dropoffPoint, .dropOffWaypointType) { waypoints.append(dropoff) }
        return waypoints
    }
}
