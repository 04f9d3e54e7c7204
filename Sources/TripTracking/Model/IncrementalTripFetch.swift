public import FleetEngineCodec

/// The follower's half of Fleet Engine's incremental GetTrip: ask with the versions held, then put
/// back what the server left out because it had not changed.
///
/// Fleet Engine leaves a part out of a GetTrip response when the request says the caller already
/// holds its current version (each version field is an exclusive lower bound):
///
/// | request field | part left out when unchanged |
/// | --- | --- |
/// | `current_route_segment_version` | `route` and `current_route_segment` |
/// | `current_route_segment_traffic_version` | `current_route_segment_traffic` |
/// | `remaining_waypoints_route_version` | each remaining waypoint's `path_to_waypoint`, `encoded_path_to_waypoint` and `traffic_to_waypoint` |
///
/// The response always carries the version fields themselves. ``merge(_:answering:into:)`` takes
/// a left-out part from the trip held before when the response's version of it is not newer than
/// the one sent, so the merged trip equals what a full fetch would have returned. The deprecated
/// `remaining_waypoints_version` is never sent: the waypoints themselves are small and always
/// wanted.
public enum IncrementalTripFetch {
    /// The GetTrip request for `name` from a follower that holds `held` (nil before the first
    /// answer).
    public static func request(name: String, holding held: Trip?, view: TripView = .unspecified) -> GetTripRequest {
        var request = GetTripRequest()
        request.name = name
        request.view = view
        if let held {
            request.currentRouteSegmentVersion = held.currentRouteSegmentVersion
            request.currentRouteSegmentTrafficVersion = held.currentRouteSegmentTrafficVersion
            request.remainingWaypointsRouteVersion = held.remainingWaypointsRouteVersion
        }
        return request
    }

    /// The whole trip: `response` to `request`, with the parts it left out taken from `held`.
    ///
    /// `response` is consumed, so that the parts put back go into its storage rather than into a copy
    /// of it.
    public static func merge(_ response: consuming Trip, answering request: GetTripRequest, into held: Trip?) -> Trip {
        guard let held else { return response }
        var merged = response
        if isUnchanged(sent: request.currentRouteSegmentVersion, now: merged.currentRouteSegmentVersion) {
            if merged.route.isEmpty { merged.route = held.route }
            if merged.currentRouteSegment.isEmpty { merged.currentRouteSegment = held.currentRouteSegment }
        }
        if isUnchanged(
            sent: request.currentRouteSegmentTrafficVersion, now: merged.currentRouteSegmentTrafficVersion),
            merged.currentRouteSegmentTraffic == nil
        {
            merged.currentRouteSegmentTraffic = held.currentRouteSegmentTraffic
        }
        if isUnchanged(sent: request.remainingWaypointsRouteVersion, now: merged.remainingWaypointsRouteVersion) {
            // Taken out of the trip while they change, so that neither the list nor a waypoint is
            // shared, and filling one in does not copy it.
            var waypoints = merged.remainingWaypoints
            merged.remainingWaypoints = []
            putBackPaths(into: &waypoints, from: held.remainingWaypoints)
            merged.remainingWaypoints = waypoints
        }
        return merged
    }

    /// Fills in each waypoint's path and traffic that the response left out from the same stop in
    /// `held` (each held stop used once).
    private static func putBackPaths(into waypoints: inout [TripWaypoint], from held: [TripWaypoint]) {
        var used = [Bool](repeating: false, count: held.count)
        // Stops leave the front of the list as the trip goes on, so the stop at `index` was most
        // likely at `index + passed` before: that one is tried first.
        let passed = max(0, held.count - waypoints.count)
        for index in waypoints.indices {
            let likely = index + passed
            let heldIndex: Int
            if likely < held.count, !used[likely], isSameStop(held[likely], waypoints[index]) {
                heldIndex = likely
            } else if let found = held.indices.first(where: { !used[$0] && isSameStop(held[$0], waypoints[index]) }) {
                heldIndex = found
            } else {
                continue
            }
            used[heldIndex] = true
            let earlier = held[heldIndex]
            if waypoints[index].pathToWaypoint.isEmpty {
                waypoints[index].pathToWaypoint = earlier.pathToWaypoint
            }
            if waypoints[index].encodedPathToWaypoint.isEmpty {
                waypoints[index].encodedPathToWaypoint = earlier.encodedPathToWaypoint
            }
            if waypoints[index].trafficToWaypoint == nil {
                waypoints[index].trafficToWaypoint = earlier.trafficToWaypoint
            }
        }
    }

    /// Whether the server's version is not newer than the one sent, so that it left the part out.
    private static func isUnchanged(sent: Timestamp?, now: Timestamp?) -> Bool {
        guard let sent, let now else { return false }
        return sent >= now
    }

    /// Whether two waypoints are the same stop of the same trip.
    private static func isSameStop(_ lhs: TripWaypoint, _ rhs: TripWaypoint) -> Bool {
        lhs.tripID == rhs.tripID && lhs.waypointType == rhs.waypointType && lhs.location == rhs.location
    }
}
