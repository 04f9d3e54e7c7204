public import FleetEngineCodec

/// The versions of a stored trip's parts, as Fleet Engine keeps them: each changes exactly when its
/// part changes, to the time of that change.
///
/// The parts are the ones a `GetTripRequest` can ask to leave out (incremental fetch):
///
/// | version | part |
/// | --- | --- |
/// | `current_route_segment_version` | the route to the next waypoint: `route`, `current_route_segment`, its end point |
/// | `current_route_segment_traffic_version` | `current_route_segment_traffic` |
/// | `remaining_waypoints_version` | the remaining waypoints, whole (their paths and traffic too) |
/// | `remaining_waypoints_route_version` | each remaining waypoint's path and traffic |
/// | `intermediate_destinations_version` | `intermediate_destinations` |
public struct TripVersions: Hashable, Sendable {
    /// When the route to the next waypoint last changed.
    public var currentRouteSegment: Timestamp?
    /// When the traffic along it last changed.
    public var currentRouteSegmentTraffic: Timestamp?
    /// When the list of remaining waypoints last changed.
    public var remainingWaypoints: Timestamp?
    /// When a remaining waypoint's path or traffic last changed.
    public var remainingWaypointsRoute: Timestamp?
    /// When the intermediate destinations last changed.
    public var intermediateDestinations: Timestamp?

    /// No versions yet.
    public init() {}

    /// The versions after `trip` replaced `previous` at `now`: every part that differs gets a
    /// version later than its last one. A part present for the first time gets one too.
    mutating func advance(from previous: Trip?, to trip: Trip, at now: Timestamp) {
        if previous.map(Self.routePart) != Self.routePart(trip) {
            currentRouteSegment = Self.after(currentRouteSegment, now)
        }
        if previous?.currentRouteSegmentTraffic != trip.currentRouteSegmentTraffic {
            currentRouteSegmentTraffic = Self.after(currentRouteSegmentTraffic, now)
        }
        // The whole list, paths included: Trip.remaining_waypoints_version moves when a waypoint "was
        // added, removed, or changed", and a waypoint's path is part of it.
        if previous?.remainingWaypoints != trip.remainingWaypoints {
            remainingWaypoints = Self.after(remainingWaypoints, now)
        }
        if previous.map(Self.waypointRoutesPart) != Self.waypointRoutesPart(trip) {
            remainingWaypointsRoute = Self.after(remainingWaypointsRoute, now)
        }
        if previous?.intermediateDestinations != trip.intermediateDestinations {
            intermediateDestinations = Self.after(intermediateDestinations, now)
        }
    }

    /// Writes the versions into the trip's version fields.
    func stamp(_ trip: inout Trip) {
        trip.currentRouteSegmentVersion = currentRouteSegment
        trip.currentRouteSegmentTrafficVersion = currentRouteSegmentTraffic
        trip.remainingWaypointsVersion = remainingWaypoints
        trip.remainingWaypointsRouteVersion = remainingWaypointsRoute
        trip.intermediateDestinationsVersion = intermediateDestinations
    }

    private struct RoutePart: Equatable {
        var route: [LatLng]
        var segment: String
        var endPoint: TripWaypoint?
    }

    private static func routePart(_ trip: Trip) -> RoutePart {
        RoutePart(route: trip.route, segment: trip.currentRouteSegment, endPoint: trip.currentRouteSegmentEndPoint)
    }

    private struct WaypointRoute: Equatable {
        var path: [LatLng]
        var encodedPath: String
        var traffic: ConsumableTrafficPolyline?
    }

    private static func waypointRoutesPart(_ trip: Trip) -> [WaypointRoute] {
        trip.remainingWaypoints.map {
            WaypointRoute(path: $0.pathToWaypoint, encodedPath: $0.encodedPathToWaypoint, traffic: $0.trafficToWaypoint)
        }
    }

    /// `now`, or a microsecond after `last` when the clock has not moved past it, so versions
    /// strictly increase.
    private static func after(_ last: Timestamp?, _ now: Timestamp) -> Timestamp {
        guard let last, !(last < now) else { return now }
        return last.advanced(byMicroseconds: 1)
    }
}

extension Timestamp {
    func advanced(byMicroseconds micros: Int64) -> Timestamp {
        let total = Int64(nanos) + micros * 1_000
        // Floor division, so that nanos stay in 0..<1e9 going backwards too (a negative remainder
        // would make `<`, which compares seconds first, order times wrongly).
        var wholeSeconds = seconds + total / 1_000_000_000
        var remainder = total % 1_000_000_000
        if remainder < 0 {
            remainder += 1_000_000_000
            wholeSeconds -= 1
        }
        return Timestamp(seconds: wholeSeconds, nanos: Int32(remainder))
    }
}
