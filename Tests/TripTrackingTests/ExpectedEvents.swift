import FleetEngineCodec
import FleetEngineStatus
import TripTracking

/// What a follower must be told between two full fetches, worked out here from the trips' fields
/// directly (the Consumer SDK's rules for trip events), not through the library's own diff.
enum ExpectedEvents {
    /// The part events (without "trip updated") from `previous` (nil before the first) to `trip`.
    static func parts(from previous: Trip?, to trip: Trip) -> [TripEvent] {
        var events: [TripEvent] = []
        if previous?.tripStatus != trip.tripStatus { events.append(.tripStatus(trip.tripStatus)) }
        if previous?.remainingDistanceMeters != trip.remainingDistanceMeters {
            events.append(.remainingDistance(trip.remainingDistanceMeters))
        }
        if route(previous) != route(trip) { events.append(.activeRoute(route(trip))) }
        if previous?.lastLocation != trip.lastLocation { events.append(.vehicleLocation(trip.lastLocation)) }
        if previous?.pickupPoint != trip.pickupPoint { events.append(.pickupLocation(trip.pickupPoint)) }
        if previous?.dropoffPoint != trip.dropoffPoint { events.append(.dropoffLocation(trip.dropoffPoint)) }
        if eta(.pickupWaypointType, previous) != eta(.pickupWaypointType, trip) {
            events.append(.pickupETA(eta(.pickupWaypointType, trip)))
        }
        if eta(.dropOffWaypointType, previous) != eta(.dropOffWaypointType, trip) {
            events.append(.dropoffETA(eta(.dropOffWaypointType, trip)))
        }
        let waypoints = trip.remainingWaypoints.isEmpty ? nil : trip.remainingWaypoints
        let previousWaypoints = (previous?.remainingWaypoints ?? []).isEmpty ? nil : previous?.remainingWaypoints
        if previousWaypoints != waypoints { events.append(.remainingWaypoints(waypoints)) }
        let destinations = trip.intermediateDestinations.isEmpty ? nil : trip.intermediateDestinations
        let previousDestinations =
            (previous?.intermediateDestinations ?? []).isEmpty ? nil : previous?.intermediateDestinations
        if previousDestinations != destinations { events.append(.intermediateDestinations(destinations)) }
        if previous?.currentRouteSegmentTraffic != trip.currentRouteSegmentTraffic {
            events.append(.activeRouteTraffic(trip.currentRouteSegmentTraffic))
        }
        return events
    }

    private static func route(_ trip: Trip?) -> [LatLng]? {
        guard let trip, !trip.route.isEmpty else { return nil }
        return trip.route
    }

    /// The ETA to this trip's waypoint of `type`: `eta_to_first_waypoint` when it is the first
    /// remaining waypoint, its own `eta` otherwise.
    private static func eta(_ type: WaypointType, _ trip: Trip?) -> Timestamp? {
        guard let trip else { return nil }
        let tripID = String(trip.name.split(separator: "/").last ?? "")
        for (index, waypoint) in trip.remainingWaypoints.enumerated()
        where waypoint.waypointType == type && waypoint.tripID == tripID {
            return index == 0 ? (trip.etaToFirstWaypoint ?? waypoint.eta) : waypoint.eta
        }
        return nil
    }
}

extension TripEvent {
    /// The event without its trip (for "trip updated"), to compare sequences readably.
    var summary: String {
        switch self {
        case .tripUpdated(_, let fields): "tripUpdated\(fields)"
        case .tripStatus(let status): "tripStatus(\(status))"
        case .updateFailed(let error): "updateFailed(\(error.code))"
        default: name
        }
    }
}

extension TripPropertyFields {
    /// The fields of the part events in `events`.
    init(events: [TripEvent]) {
        self = []
        for event in events {
            if let field = TripPropertyFields.parts.first(where: { $0.name == event.name })?.field { insert(field) }
        }
    }
}
