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
    public static func merge(_ response: Trip, answering request: GetTripRequest, into held: Trip?) -> Trip {
        guard let held else { return response }
        var merged = response
        if isUnchanged(sent: request.currentRouteSegmentVersion, now: response.currentRouteSegmentVersion) {
            if merged.route.isEmpty { merged.route = held.route }
            if merged.currentRouteSegment.isEmpty { merged.currentRouteSegment = held.currentRouteSegment }
        }
        if isUnchanged(
            sent: request.currentRouteSegmentTrafficVersion, now: response.currentRouteSegmentTrafficVersion),
            merged.currentRouteSegmentTraffic == nil
        {
            merged.currentRouteSegmentTraffic = held.currentRouteSegmentTraffic
        }
        if isUnchanged(sent: request.remainingWaypointsRouteVersion, now: response.remainingWaypointsRouteVersion) {
            var used = Set<Int>()
            for index in merged.remainingWaypoints.indices {
                let waypoint = merged.remainingWaypoints[index]
                guard
                    let heldIndex = held.remainingWaypoints.indices.first(where: {
                        !used.contains($0) && isSameStop(held.remainingWaypoints[$0], waypoint)
                    })
                else {
                    continue
                }
                used.insert(heldIndex)
                let earlier = held.remainingWaypoints[heldIndex]
                if waypoint.pathToWaypoint.isEmpty {
                    merged.remainingWaypoints[index].pathToWaypoint = earlier.pathToWaypoint
                }
                if waypoint.encodedPathToWaypoint.isEmpty {
                    merged.remainingWaypoints[index].encodedPathToWaypoint = earlier.encodedPathToWaypoint
                }
                if waypoint.trafficToWaypoint == nil {
                    merged.remainingWaypoints[index].trafficToWaypoint = earlier.trafficToWaypoint
                }
            }
        }
        return merged
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
