import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

/// The five versioned parts of a trip, each read out on its own, as the test sees them (independently
/// of how the store computes its versions).
enum VersionedPart: String, CaseIterable, CustomTestStringConvertible {
    case currentRouteSegment, currentRouteSegmentTraffic, remainingWaypoints, remainingWaypointsRoute
    case intermediateDestinations

    var testDescription: String { rawValue }

    func version(of trip: Trip) -> Timestamp? {
        switch self {
        case .currentRouteSegment: trip.currentRouteSegmentVersion
        case .currentRouteSegmentTraffic: trip.currentRouteSegmentTrafficVersion
        case .remainingWaypoints: trip.remainingWaypointsVersion
        case .remainingWaypointsRoute: trip.remainingWaypointsRouteVersion
        case .intermediateDestinations: trip.intermediateDestinationsVersion
        }
    }

    /// A trip holding only this part of `trip`.
    func content(of trip: Trip) -> Trip {
        var part = Trip()
        switch self {
        case .currentRouteSegment:
            part.route = trip.route
            part.currentRouteSegment = trip.currentRouteSegment
            part.currentRouteSegmentEndPoint = trip.currentRouteSegmentEndPoint
        case .currentRouteSegmentTraffic:
            part.currentRouteSegmentTraffic = trip.currentRouteSegmentTraffic
        case .remainingWaypoints:
            // Whole: GetTrip leaves the whole list out for this version.
            part.remainingWaypoints = trip.remainingWaypoints
        case .remainingWaypointsRoute:
            part.remainingWaypoints = trip.remainingWaypoints.map { waypoint in
                var route = TripWaypoint()
                route.pathToWaypoint = waypoint.pathToWaypoint
                route.encodedPathToWaypoint = waypoint.encodedPathToWaypoint
                route.trafficToWaypoint = waypoint.trafficToWaypoint
                return route
            }
        case .intermediateDestinations:
            part.intermediateDestinations = trip.intermediateDestinations
        }
        return part
    }
}
