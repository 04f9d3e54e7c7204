/// Which parts of a followed trip changed in one refresh, as carried by
/// ``TripModelSubscriber/tripModel(_:didUpdate:updatedPropertyFields:)``.
///
/// Each field but ``other`` names a part that has its own event; ``other`` says that something else
/// in the trip changed (the vehicle assigned, the number of passengers, a version, ...), for which
/// only the "trip updated" event fires.
public struct TripPropertyFields: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32

    /// A set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `trip_status`.
    public static let tripStatus = TripPropertyFields(rawValue: 1 << 0)
    /// `remaining_distance_meters` of the active route.
    public static let remainingDistance = TripPropertyFields(rawValue: 1 << 1)
    /// The active route: `route`, or `current_route_segment` decoded.
    public static let activeRoute = TripPropertyFields(rawValue: 1 << 2)
    /// `last_location`.
    public static let vehicleLocation = TripPropertyFields(rawValue: 1 << 3)
    /// `pickup_point`.
    public static let pickupLocation = TripPropertyFields(rawValue: 1 << 4)
    /// `dropoff_point`.
    public static let dropoffLocation = TripPropertyFields(rawValue: 1 << 5)
    /// The ETA to the pickup waypoint.
    public static let pickupETA = TripPropertyFields(rawValue: 1 << 6)
    /// The ETA to the dropoff waypoint.
    public static let dropoffETA = TripPropertyFields(rawValue: 1 << 7)
    /// `remaining_waypoints`.
    public static let remainingWaypoints = TripPropertyFields(rawValue: 1 << 8)
    /// `intermediate_destinations`.
    public static let intermediateDestinations = TripPropertyFields(rawValue: 1 << 9)
    /// `current_route_segment_traffic`.
    public static let activeRouteTraffic = TripPropertyFields(rawValue: 1 << 10)
    /// Any other field of the trip.
    public static let other = TripPropertyFields(rawValue: 1 << 11)

    /// Every part with an event of its own, in the order their events fire.
    public static let parts: [(field: TripPropertyFields, name: String)] = [
        (.tripStatus, "tripStatus"),
        (.remainingDistance, "remainingDistance"),
        (.activeRoute, "activeRoute"),
        (.vehicleLocation, "vehicleLocation"),
        (.pickupLocation, "pickupLocation"),
        (.dropoffLocation, "dropoffLocation"),
        (.pickupETA, "pickupETA"),
        (.dropoffETA, "dropoffETA"),
        (.remainingWaypoints, "remainingWaypoints"),
        (.intermediateDestinations, "intermediateDestinations"),
        (.activeRouteTraffic, "activeRouteTraffic"),
    ]

    /// The names of the fields in the set, in event order, ``other`` last.
    public var names: [String] {
        var names = Self.parts.filter { contains($0.field) }.map(\.name)
        if contains(.other) { names.append("other") }
        return names
    }

    /// The names, comma-separated in brackets.
    public var description: String { "[" + names.joined(separator: ", ") + "]" }
}
