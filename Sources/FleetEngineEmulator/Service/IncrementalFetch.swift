public import FleetEngineCodec
import FleetEngineStatus

/// What GetTrip leaves out of its answer, as Fleet Engine does.
///
/// A `GetTripRequest` carries the versions the caller already holds. Each is an exclusive lower
/// bound: when the server's version of a part is not newer than the caller's (the caller's is at
/// least the server's), the part is left out of the response:
///
/// | request field | left out when it is at least the server's version |
/// | --- | --- |
/// | `current_route_segment_version` | `route` and `current_route_segment` |
/// | `current_route_segment_traffic_version` | `current_route_segment_traffic` |
/// | `remaining_waypoints_route_version` | each remaining waypoint's `path_to_waypoint`, `encoded_path_to_waypoint` and `traffic_to_waypoint` |
///
/// The deprecated `remaining_waypoints_version` leaves nothing out: "`Trip.remaining_waypoints` are
/// always retrieved" (`GetTripRequest`).
///
/// `route_format_type` picks the route's form: `LAT_LNG_LIST_TYPE` (the default) fills `route`,
/// `ENCODED_POLYLINE_TYPE` fills `current_route_segment`. The version fields themselves are always
/// sent, so the caller learns the versions it now holds.
///
/// (`vehicle_waypoints` and the input-only fields are left out of every read by
/// `TripServiceCore.output(_:isRead:)`, whatever the view.)
///
/// The view: `SDK` (and unspecified) is the rest of the trip; `JOURNEY_SHARING_V1S`, meant for
/// journey-sharing consumers, also leaves out `attributes`, and keeps only the position-free
/// outline (type and trip id) of remaining waypoints that belong to other trips of a shared
/// vehicle. (Fleet Engine documents the view's purpose but not its exact field list; this is the
/// emulator's reading of it.)
public enum IncrementalFetch {
    /// The response to `request` for the stored `trip`.
    public static func response(for trip: Trip, request: GetTripRequest) -> Trip {
        var answer = trip
        if request.routeFormatType == .encodedPolylineType {
            answer.route = []
        } else {
            answer.currentRouteSegment = ""
        }
        if let held = request.currentRouteSegmentVersion, let current = trip.currentRouteSegmentVersion,
            held >= current
        {
            answer.route = []
            answer.currentRouteSegment = ""
        }
        if let held = request.currentRouteSegmentTrafficVersion, let current = trip.currentRouteSegmentTrafficVersion,
            held >= current
        {
            answer.currentRouteSegmentTraffic = nil
        }
        if let held = request.remainingWaypointsRouteVersion, let current = trip.remainingWaypointsRouteVersion,
            held >= current
        {
            for index in answer.remainingWaypoints.indices {
                answer.remainingWaypoints[index].pathToWaypoint = []
                answer.remainingWaypoints[index].encodedPathToWaypoint = ""
                answer.remainingWaypoints[index].trafficToWaypoint = nil
            }
        }
        if request.view == .journeySharingV1s {
            answer.attributes = []
            let ownTripID = TripName.lastSegment(of: trip.name)
            for index in answer.remainingWaypoints.indices where answer.remainingWaypoints[index].tripID != ownTripID {
                var outline = TripWaypoint()
                outline.tripID = answer.remainingWaypoints[index].tripID
                outline.waypointType = answer.remainingWaypoints[index].waypointType
                answer.remainingWaypoints[index] = outline
            }
        }
        return answer
    }
}
