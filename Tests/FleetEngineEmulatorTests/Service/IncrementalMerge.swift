import FleetEngineCodec
import Testing

/// What a client does with an incremental GetTrip: every part whose version did not move since the
/// trip it holds was left out, so it keeps its own copy of that part.
enum IncrementalMerge {
    /// Which versions a client sends.
    enum HeldVersions: String, CaseIterable, CustomTestStringConvertible {
        /// All four version fields of GetTripRequest.
        case all
        /// Without the deprecated `remaining_waypoints_version`, as current clients do.
        case withoutDeprecated

        var testDescription: String { rawValue }
    }

    /// Writes the versions of `held` into `request`.
    static func ask(_ request: inout GetTripRequest, holding held: Trip, _ versions: HeldVersions) {
        request.currentRouteSegmentVersion = held.currentRouteSegmentVersion
        request.currentRouteSegmentTrafficVersion = held.currentRouteSegmentTrafficVersion
        request.remainingWaypointsRouteVersion = held.remainingWaypointsRouteVersion
        if versions == .all { request.remainingWaypointsVersion = held.remainingWaypointsVersion }
    }

    /// `response` completed with the parts of `held` whose versions it shows unchanged.
    static func merge(_ response: Trip, into held: Trip, _ versions: HeldVersions) -> Trip {
        var merged = response
        if response.currentRouteSegmentVersion == held.currentRouteSegmentVersion {
            merged.route = held.route
            merged.currentRouteSegment = held.currentRouteSegment
        }
        if response.currentRouteSegmentTrafficVersion == held.currentRouteSegmentTrafficVersion {
            merged.currentRouteSegmentTraffic = held.currentRouteSegmentTraffic
        }
        if versions == .all, response.remainingWaypointsVersion == held.remainingWaypointsVersion {
            merged.remainingWaypoints = held.remainingWaypoints
        }
        if response.remainingWaypointsRouteVersion == held.remainingWaypointsRouteVersion,
            merged.remainingWaypoints.count == held.remainingWaypoints.count
        {
            for index in merged.remainingWaypoints.indices {
                merged.remainingWaypoints[index].pathToWaypoint = held.remainingWaypoints[index].pathToWaypoint
                merged.remainingWaypoints[index].encodedPathToWaypoint =
                    held.remainingWaypoints[index].encodedPathToWaypoint
                merged.remainingWaypoints[index].trafficToWaypoint = held.remainingWaypoints[index].trafficToWaypoint
            }
        }
        return merged
    }
}
