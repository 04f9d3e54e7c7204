public import FleetEngineCodec
public import FleetEngineStatus

/// One event of a followed trip: the Consumer SDK's subscriber callbacks as values.
///
/// After each refresh in which something changed, ``tripUpdated(_:fields:)`` comes first, then one
/// event per changed part in the order of ``TripPropertyFields/parts``. A failed refresh gives
/// ``updateFailed(_:)``.
public enum TripEvent: Sendable, Hashable {
    /// The whole trip (merged from the incremental fetches) and the fields that changed.
    case tripUpdated(Trip, fields: TripPropertyFields)
    /// The trip's status changed.
    case tripStatus(TripStatus)
    /// The distance left on the active route changed, in metres; nil when the server sent none.
    case remainingDistance(Int32?)
    /// The path to the next waypoint changed.
    case activeRoute([LatLng]?)
    /// The vehicle's last location changed.
    case vehicleLocation(VehicleLocation?)
    /// The pickup point changed.
    case pickupLocation(TerminalLocation?)
    /// The dropoff point changed.
    case dropoffLocation(TerminalLocation?)
    /// The ETA to the pickup changed.
    case pickupETA(Timestamp?)
    /// The ETA to the dropoff changed.
    case dropoffETA(Timestamp?)
    /// The remaining waypoints changed.
    case remainingWaypoints([TripWaypoint]?)
    /// The intermediate destinations changed.
    case intermediateDestinations([TerminalLocation]?)
    /// The traffic along the active route changed.
    case activeRouteTraffic(ConsumableTrafficPolyline?)
    /// A refresh failed; following goes on (see ``TripModel`` for when and how soon).
    case updateFailed(FleetEngineError)

    /// The event's name as the command line prints it: `tripUpdated`, `tripStatus`, ...,
    /// `updateFailed`.
    public var name: String {
        switch self {
        case .tripUpdated: "tripUpdated"
        case .tripStatus: "tripStatus"
        case .remainingDistance: "remainingDistance"
        case .activeRoute: "activeRoute"
        case .vehicleLocation: "vehicleLocation"
        case .pickupLocation: "pickupLocation"
        case .dropoffLocation: "dropoffLocation"
        case .pickupETA: "pickupETA"
        case .dropoffETA: "dropoffETA"
        case .remainingWaypoints: "remainingWaypoints"
        case .intermediateDestinations: "intermediateDestinations"
        case .activeRouteTraffic: "activeRouteTraffic"
        case .updateFailed: "updateFailed"
        }
    }

    /// The events one refresh fires: nothing when `fields` is empty, otherwise "trip updated" and
    /// then one event per changed part.
    static func events(for trip: Trip, parts: TripParts, fields: TripPropertyFields) -> [TripEvent] {
        guard !fields.isEmpty else { return [] }
        var events: [TripEvent] = [.tripUpdated(trip, fields: fields)]
        if fields.contains(.tripStatus) { events.append(.tripStatus(parts.tripStatus)) }
        if fields.contains(.remainingDistance) { events.append(.remainingDistance(parts.remainingDistanceMeters)) }
        if fields.contains(.activeRoute) { events.append(.activeRoute(parts.activeRoute)) }
        if fields.contains(.vehicleLocation) { events.append(.vehicleLocation(parts.vehicleLocation)) }
        if fields.contains(.pickupLocation) { events.append(.pickupLocation(parts.pickupLocation)) }
        if fields.contains(.dropoffLocation) { events.append(.dropoffLocation(parts.dropoffLocation)) }
        if fields.contains(.pickupETA) { events.append(.pickupETA(parts.pickupETA)) }
        if fields.contains(.dropoffETA) { events.append(.dropoffETA(parts.dropoffETA)) }
        if fields.contains(.remainingWaypoints) { events.append(.remainingWaypoints(parts.remainingWaypoints)) }
        if fields.contains(.intermediateDestinations) {
            events.append(.intermediateDestinations(parts.intermediateDestinations))
        }
        if fields.contains(.activeRouteTraffic) { events.append(.activeRouteTraffic(parts.activeRouteTraffic)) }
        return events
    }
}
