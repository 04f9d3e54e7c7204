public import FleetEngineCodec

/// The parts of a trip that a follower gets an event for, derived from one (whole) trip.
///
/// - The active route is the path to the next waypoint: `route` when the server sent it as a list,
///   otherwise `current_route_segment` decoded as an `S2Polyline`; nil when the trip has neither.
/// - The pickup (dropoff) ETA is `eta_to_first_waypoint` when the pickup (dropoff) waypoint of this
///   trip is the first remaining waypoint — the server keeps that one current — and otherwise that
///   waypoint's own `eta`; nil once the waypoint has left the trip.
/// - Lists that are empty in the trip are nil here, as the Consumer SDK reports them.
public struct TripParts: Sendable, Hashable {
    /// `trip_status`.
    public var tripStatus: TripStatus
    /// `remaining_distance_meters`, the distance left on the active route.
    public var remainingDistanceMeters: Int32?
    /// The path to the next waypoint.
    public var activeRoute: [LatLng]?
    /// `last_location`.
    public var vehicleLocation: VehicleLocation?
    /// `pickup_point`.
    public var pickupLocation: TerminalLocation?
    /// `dropoff_point`.
    public var dropoffLocation: TerminalLocation?
    /// When the vehicle is expected at the pickup.
    public var pickupETA: Timestamp?
    /// When the vehicle is expected at the dropoff.
    public var dropoffETA: Timestamp?
    /// `remaining_waypoints`, this trip's and those of other trips the vehicle serves on the way.
    public var remainingWaypoints: [TripWaypoint]?
    /// `intermediate_destinations`.
    public var intermediateDestinations: [TerminalLocation]?
    /// `current_route_segment_traffic`, the traffic along the active route.
    public var activeRouteTraffic: ConsumableTrafficPolyline?

    /// The parts of no trip at all: what the first refresh is compared with.
    public static let none = TripParts()

    private init() {
        tripStatus = .unknownTripStatus
    }

    /// The parts of `trip`.
    public init(_ trip: Trip) {
        tripStatus = trip.tripStatus
        remainingDistanceMeters = trip.remainingDistanceMeters
        if !trip.route.isEmpty {
            activeRoute = trip.route
        } else if !trip.currentRouteSegment.isEmpty {
            activeRoute = S2Polyline(encoded: trip.currentRouteSegment)?.vertices
        }
        vehicleLocation = trip.lastLocation
        pickupLocation = trip.pickupPoint
        dropoffLocation = trip.dropoffPoint
        pickupETA = Self.eta(of: .pickupWaypointType, in: trip)
        dropoffETA = Self.eta(of: .dropOffWaypointType, in: trip)
        remainingWaypoints = trip.remainingWaypoints.isEmpty ? nil : trip.remainingWaypoints
        intermediateDestinations = trip.intermediateDestinations.isEmpty ? nil : trip.intermediateDestinations
        activeRouteTraffic = trip.currentRouteSegmentTraffic
    }

    /// The fields whose parts differ from `earlier`'s (``TripPropertyFields/other`` is not decided
    /// here: it needs the whole trips).
    public func changedFields(since earlier: TripParts) -> TripPropertyFields {
        var fields: TripPropertyFields = []
        if tripStatus != earlier.tripStatus { fields.insert(.tripStatus) }
        if remainingDistanceMeters != earlier.remainingDistanceMeters { fields.insert(.remainingDistance) }
        if activeRoute != earlier.activeRoute { fields.insert(.activeRoute) }
        if vehicleLocation != earlier.vehicleLocation { fields.insert(.vehicleLocation) }
        if pickupLocation != earlier.pickupLocation { fields.insert(.pickupLocation) }
        if dropoffLocation != earlier.dropoffLocation { fields.insert(.dropoffLocation) }
        if pickupETA != earlier.pickupETA { fields.insert(.pickupETA) }
        if dropoffETA != earlier.dropoffETA { fields.insert(.dropoffETA) }
        if remainingWaypoints != earlier.remainingWaypoints { fields.insert(.remainingWaypoints) }
        if intermediateDestinations != earlier.intermediateDestinations { fields.insert(.intermediateDestinations) }
        if activeRouteTraffic != earlier.activeRouteTraffic { fields.insert(.activeRouteTraffic) }
        return fields
    }

    /// The ETA to this trip's waypoint of `type`, when one remains.
    private static func eta(of type: WaypointType, in trip: Trip) -> Timestamp? {
        let tripID = TripModel.tripID(of: trip.name)
        guard let index = trip.remainingWaypoints.firstIndex(where: { isOwn($0, type, tripID: tripID) }) else {
            return nil
        }
        if index == 0, let first = trip.etaToFirstWaypoint { return first }
        return trip.remainingWaypoints[index].eta
    }

    /// Whether the first remaining stop is this trip's pickup or dropoff, so that
    /// `eta_to_first_waypoint` is its pickup or dropoff ETA.
    static func firstStopIsOwn(in trip: Trip) -> Bool {
        guard let first = trip.remainingWaypoints.first else { return false }
        let tripID = TripModel.tripID(of: trip.name)
        return isOwn(first, .pickupWaypointType, tripID: tripID) || isOwn(first, .dropOffWaypointType, tripID: tripID)
    }

    private static func isOwn(_ waypoint: TripWaypoint, _ type: WaypointType, tripID: String) -> Bool {
        waypoint.waypointType == type && (waypoint.tripID.isEmpty || waypoint.tripID == tripID)
    }
}
