import FleetEngineCodec
import Testing

@testable import FleetEngineEmulator

/// Checks successive snapshots of one simulated trip, a second apart, against the rules every
/// simulated trip keeps.
struct TripRuleChecker {
    let simulation: TripSimulation
    private(set) var statuses: [TripStatus] = []
    /// The seconds at which the reported route parts changed.
    private(set) var refreshes: [Int64] = []
    private var previous: Trip?
    private var waypointCount = 0

    init(simulation: TripSimulation) {
        self.simulation = simulation
    }

    /// Seconds at which route parts may change (refreshes), but only up to completion.
    var expectedRefreshes: [Int64] {
        simulation.routeRefreshTimes.map(\.components.seconds).filter { $0 > 0 }
    }

    private func eventSeconds(_ match: (SimulationEvent.Kind) -> Bool) -> Set<Int64> {
        Set(simulation.events.filter { match($0.kind) }.map(\.time.components.seconds))
    }

    mutating func check(_ trip: Trip, at elapsed: Duration) {
        let second = elapsed.components.seconds
        let reroutes = eventSeconds { if case .rerouted = $0 { true } else { false } }
        let arrivals = eventSeconds { if case .waypointReached = $0 { true } else { false } }
        if statuses.last != trip.tripStatus { statuses.append(trip.tripStatus) }

        // Waypoints drop one at a time, exactly at arrivals.
        if previous != nil {
            let dropped = waypointCount - trip.remainingWaypoints.count
            #expect(dropped == (arrivals.contains(second) ? 1 : 0), "waypoints at \(second) s")
        }
        waypointCount = trip.remainingWaypoints.count

        if let previous {
            let routeChanged =
                previous.route != trip.route || previous.currentRouteSegmentTraffic != trip.currentRouteSegmentTraffic
                || previous.remainingWaypoints != trip.remainingWaypoints
            if routeChanged { refreshes.append(second) }
            // Between arrivals, remaining distance and ETA only fall, except when the route is replaced.
            if !arrivals.contains(second), !reroutes.contains(second), trip.tripStatus != .complete {
                #expect(
                    (trip.remainingDistanceMeters ?? 0) <= (previous.remainingDistanceMeters ?? 0),
                    "remaining distance at \(second) s")
                #expect(
                    (trip.etaToFirstWaypoint?.seconds ?? 0) <= (previous.etaToFirstWaypoint?.seconds ?? 0),
                    "ETA at \(second) s")
                if routeChanged, previous.tripStatus == trip.tripStatus {
                    #expect(RouteChange(from: previous.route, to: trip.route) != .replaced, "route at \(second) s")
                }
            }
            if reroutes.contains(second) {
                #expect(RouteChange(from: previous.route, to: trip.route) == .replaced, "reroute at \(second) s")
            }
        }

        checkSegment(trip, at: second)
        checkLocation(trip, at: second)
        previous = trip
    }

    private func checkSegment(_ trip: Trip, at second: Int64) {
        guard trip.tripStatus != .complete else {
            #expect(trip.route.isEmpty)
            return
        }
        let segment = S2Polyline(encoded: trip.currentRouteSegment)
        #expect(segment?.vertices.count == trip.route.count, "segment at \(second) s")
        // A route of one point (the vehicle at the waypoint, not yet reported there) has no edges.
        guard trip.route.count >= 2 else { return }
        let intervals = trip.currentRouteSegmentTraffic?.speedReadingInterval ?? []
        // The intervals cover the route from its first point to its last, in order, within its indexes.
        #expect(intervals.first?.startPolylinePointIndex == 0)
        #expect(intervals.last.map { Int($0.endPolylinePointIndex) } == trip.route.count - 1)
        for (interval, next) in zip(intervals, intervals.dropFirst()) {
            #expect(interval.endPolylinePointIndex == next.startPolylinePointIndex)
        }
        for interval in intervals {
            #expect(interval.startPolylinePointIndex < interval.endPolylinePointIndex)
            #expect(Int(interval.endPolylinePointIndex) < trip.route.count)
            #expect([.normal, .slow, .trafficJam].contains(interval.speed))
        }
    }

    private func checkLocation(_ trip: Trip, at second: Int64) {
        guard let location = trip.lastLocation else {
            Issue.record("no last_location at \(second) s")
            return
        }
        #expect(
            location.updateTime == SimulationFixtures.timestamp(min(second, simulation.duration.components.seconds)))
        switch trip.tripStatus {
        case .arrivedAtPickup, .arrivedAtIntermediateDestination, .new, .complete:
            #expect(location.speed == 0, "speed at \(second) s")
        default:
            #expect((location.speed ?? 0) >= 0 && (location.speed ?? 0) <= 15)
            // On a refresh the route starts where the vehicle is; its first edge is where it heads.
            if trip.route.first == location.location, trip.route.count >= 2 {
                #expect(
                    location.heading == SphericalGeometry.heading(from: trip.route[0], to: trip.route[1]),
                    "heading at \(second) s")
            }
        }
    }
}
