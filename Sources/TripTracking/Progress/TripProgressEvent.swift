public import FleetEngineCodec

/// One navigation-style progress event of a followed trip.
///
/// The events of one refresh come in this order: arrivals (oldest first), route changed, remaining
/// time, remaining distance, delay category, lighting mode, speeding, location updated.
public enum TripProgressEvent: Sendable, Hashable {
    /// The vehicle reached this waypoint (its type, location and trip id as they were before it
    /// left the trip's remaining waypoints).
    case arrivedAtWaypoint(TripWaypoint)
    /// The route to the next destination is a different route: the path, from the vehicle on.
    case routeChanged([LatLng])
    /// Seconds to the next destination.
    case remainingTime(Double)
    /// Metres to the next destination.
    case remainingDistance(Double)
    /// The traffic delay to the next destination changed category.
    case delayCategory(DelayCategory)
    /// Day turned to night or night to day at the vehicle.
    case lightingMode(LightingMode)
    /// How many percent above the speed limit the vehicle goes; 0 once it is back within it.
    case speeding(percentAboveLimit: Double)
    /// The vehicle moved (or its bearing, speed or time changed). A fix older than the one last
    /// reported is stale and not reported.
    case locationUpdated(RoadSnappedLocation)

    /// The event's name as the command line prints it; none is also the name of a ``TripEvent``.
    public var name: String {
        switch self {
        case .arrivedAtWaypoint: "arrivedAtWaypoint"
        case .routeChanged: "routeChanged"
        case .remainingTime: "remainingTimeUpdated"
        case .remainingDistance: "remainingDistanceUpdated"
        case .delayCategory: "delayCategoryChanged"
        case .lightingMode: "lightingModeChanged"
        case .speeding: "speeding"
        case .locationUpdated: "locationUpdated"
        }
    }
}
