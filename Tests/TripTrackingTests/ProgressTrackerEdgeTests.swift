import FleetEngineCodec
import FleetEngineEmulator
import Testing

@testable import TripTracking

@Suite(
    "Progress of trips that change under the vehicle: moved and repeated stops, lost vehicles, traffic paths, bad fixes"
)
struct ProgressTrackerEdgeTests {
    static func trip(
        _ status: TripStatus, waypoints: [TripWaypoint] = [], distance: Int32? = nil,
        location: VehicleLocation? = nil
    ) -> Trip {
        var trip = Trip()
        trip.name = "providers/p/trips/t"
        trip.tripStatus = status
        trip.remainingWaypoints = waypoints
        trip.remainingDistanceMeters = distance
        trip.lastLocation = location
        return trip
    }

    static func waypoint(_ point: LatLng, _ type: WaypointType) -> TripWaypoint {
        ScriptedMotion.waypoint(point, type, trip: "t")
    }

    static func arrivals(_ events: [TripProgressEvent]) -> [TripWaypoint] {
        events.compactMap { event in
            if case .arrivedAtWaypoint(let waypoint) = event { return waypoint }
            return nil
        }
    }

    @Test("a pickup point moved by the rider is no arrival, and the pickup is reported once when reached")
    func movedPickupIsNoArrival() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        let first = LatLng(latitude: 37.0, longitude: -122.0)
        let moved = LatLng(latitude: 37.0005, longitude: -122.0)
        let dropoff = Self.waypoint(LatLng(latitude: 37.01, longitude: -122.0), .dropOffWaypointType)
        var arrivals: [TripWaypoint] = []
        for trip in [
            Self.trip(.enrouteToPickup, waypoints: [Self.waypoint(first, .pickupWaypointType), dropoff]),
            // The rider moves the pickup 55 m: the vehicle is still on its way to it.
            Self.trip(.enrouteToPickup, waypoints: [Self.waypoint(moved, .pickupWaypointType), dropoff]),
            // Now the vehicle picked the rider up.
            Self.trip(.enrouteToDropoff, waypoints: [dropoff]),
        ] {
            arrivals += Self.arrivals(tracker.events(for: trip, thresholds: thresholds, speedLimits: nil))
        }
        #expect(arrivals == [Self.waypoint(moved, .pickupWaypointType)])
    }

    @Test("a trip that comes back to the same intermediate destination reports each visit when it happens")
    func repeatedWaypoint() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        let x = Self.waypoint(LatLng(latitude: 37.0, longitude: -122.0), .intermediateDestinationWaypointType)
        let y = Self.waypoint(LatLng(latitude: 37.01, longitude: -122.0), .intermediateDestinationWaypointType)
        let d = Self.waypoint(LatLng(latitude: 37.02, longitude: -122.0), .dropOffWaypointType)
        var perRefresh: [[TripWaypoint]] = []
        for trip in [
            Self.trip(.enrouteToIntermediateDestination, waypoints: [x, y, x, d]),
            Self.trip(.enrouteToIntermediateDestination, waypoints: [y, x, d]),  // reached x
            Self.trip(.enrouteToIntermediateDestination, waypoints: [x, d]),  // reached y
            Self.trip(.enrouteToDropoff, waypoints: [d]),  // reached x again
        ] {
            perRefresh.append(Self.arrivals(tracker.events(for: trip, thresholds: thresholds, speedLimits: nil)))
        }
        #expect(perRefresh == [[], [x], [y], [x]])
    }

    @Test("a stop taken out further along is no arrival; two stops passed in one refresh are both arrivals")
    func removedAndSkippedStops() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        let x = Self.waypoint(LatLng(latitude: 37.0, longitude: -122.0), .intermediateDestinationWaypointType)
        let y = Self.waypoint(LatLng(latitude: 37.01, longitude: -122.0), .intermediateDestinationWaypointType)
        let z = Self.waypoint(LatLng(latitude: 37.015, longitude: -122.0), .intermediateDestinationWaypointType)
        let d = Self.waypoint(LatLng(latitude: 37.02, longitude: -122.0), .dropOffWaypointType)
        var perRefresh: [[TripWaypoint]] = []
        for trip in [
            Self.trip(.enrouteToIntermediateDestination, waypoints: [x, y, z, d]),
            Self.trip(.enrouteToIntermediateDestination, waypoints: [x, z, d]),  // y taken out of the trip
            Self.trip(.enrouteToDropoff, waypoints: [d]),  // x and z passed in one refresh
        ] {
            perRefresh.append(Self.arrivals(tracker.events(for: trip, thresholds: thresholds, speedLimits: nil)))
        }
        #expect(perRefresh == [[], [], [x, z]])
    }

    @Test("with a threshold of 0 an unchanged remaining distance is not reported again")
    func zeroThresholdRepeats() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds(timeUpdateThreshold: 0, distanceUpdateThreshold: 0)
        var reported: [Double] = []
        for _ in 0..<3 {
            for case .remainingDistance(let meters) in tracker.events(
                for: Self.trip(.enrouteToDropoff, distance: 500), thresholds: thresholds, speedLimits: nil)
            {
                reported.append(meters)
            }
        }
        #expect(reported == [500])
    }

    static func fix(latitude: Double, longitude: Double, second: Int64) -> VehicleLocation {
        var location = VehicleLocation()
        location.location = LatLng(latitude: latitude, longitude: longitude)
        location.updateTime = Timestamp(seconds: second, nanos: 0)
        return location
    }

    @Test("a NaN position from the server neither repeats locationUpdated nor turns noon into night")
    func nanPosition() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        // Noon UTC on 21 June 2025 near Greenwich: broad daylight.
        let noon: Int64 = 1_750_507_200
        var events = tracker.events(
            for: Self.trip(.enrouteToDropoff, location: Self.fix(latitude: 51.5, longitude: 0, second: noon)),
            thresholds: thresholds, speedLimits: nil)
        #expect(events.contains(.lightingMode(.normal)))
        let bad = Self.fix(latitude: .nan, longitude: 0, second: noon + 1)
        events = tracker.events(
            for: Self.trip(.enrouteToDropoff, location: bad), thresholds: thresholds, speedLimits: nil)
        #expect(!events.contains(.lightingMode(.lowLight)), "the sun did not set at noon")
        // The same fix again (only the remaining distance changed): no second locationUpdated.
        events = tracker.events(
            for: Self.trip(.enrouteToDropoff, distance: 10, location: bad), thresholds: thresholds, speedLimits: nil)
        #expect(!events.contains { $0.name == "locationUpdated" })
    }

    @Test("a fix older than the one reported is stale: no locationUpdated, and no night from its earlier time")
    func staleFixDropped() throws {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        // Noon UTC on 21 June 2025 near Greenwich; the stale fix is from the midnight before.
        let noon: Int64 = 1_750_507_200
        var events = tracker.events(
            for: Self.trip(.enrouteToDropoff, location: Self.fix(latitude: 51.5, longitude: 0, second: noon)),
            thresholds: thresholds, speedLimits: nil)
        #expect(events.contains(.lightingMode(.normal)))
        let stale = Self.fix(latitude: 51.49, longitude: 0, second: noon - 43_200)
        events = tracker.events(
            for: Self.trip(.enrouteToDropoff, location: stale), thresholds: thresholds, speedLimits: nil)
        #expect(events == [])
        let newer = Self.fix(latitude: 51.501, longitude: 0, second: noon + 5)
        events = tracker.events(
            for: Self.trip(.enrouteToDropoff, location: newer), thresholds: thresholds, speedLimits: nil)
        #expect(events == [.locationUpdated(try #require(RoadSnappedLocation(newer)))])
    }

    @Test("the traffic intervals index into the traffic's own path (encoded_path_to_waypoint), not a coarser route")
    func delayIndexesTrafficPath() {
        let path = (0...10).map { LatLng(latitude: 37.0 + Double($0) * 0.001, longitude: -122.0) }
        var traffic = ConsumableTrafficPolyline()
        traffic.encodedPathToWaypoint = EncodedPolyline.encode(path)
        var slow = SpeedReadingInterval()
        slow.startPolylinePointIndex = 0
        slow.endPolylinePointIndex = 2
        slow.speed = .slow
        var normal = SpeedReadingInterval()
        normal.startPolylinePointIndex = 2
        normal.endPolylinePointIndex = 10
        normal.speed = .normal
        traffic.speedReadingInterval = [slow, normal]
        // 2 of the path's 10 equal edges are slow: 20 % delay, medium.
        #expect(DelayCategory(route: path, traffic: traffic) == .medium)
        // The same straight road sent as a route of its two ends.
        #expect(DelayCategory(route: [path[0], path[10]], traffic: traffic) == .medium)
    }

    @Test(
        "a trip whose vehicle is taken off it (back to NEW, no waypoints) arrived nowhere; arrivals come when they happen"
    )
    func unassignedTripArrivesNowhere() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        let pickup = Self.waypoint(LatLng(latitude: 37.0, longitude: -122.0), .pickupWaypointType)
        let dropoff = Self.waypoint(LatLng(latitude: 37.01, longitude: -122.0), .dropOffWaypointType)
        var perRefresh: [[TripWaypoint]] = []
        for trip in [
            Self.trip(.enrouteToPickup, waypoints: [pickup, dropoff]),
            Self.trip(.new, waypoints: []),  // the vehicle was taken off the trip
            Self.trip(.enrouteToPickup, waypoints: [pickup, dropoff]),  // another vehicle took it
            Self.trip(.enrouteToDropoff, waypoints: [dropoff]),
            Self.trip(.complete, waypoints: []),
        ] {
            perRefresh.append(Self.arrivals(tracker.events(for: trip, thresholds: thresholds, speedLimits: nil)))
        }
        #expect(perRefresh == [[], [], [], [pickup], [dropoff]])
    }

    @Test("traffic that lists no slow or jammed stretch is traffic data at normal speed: light, not no data")
    func trafficWithoutIntervalsIsLight() {
        let path = (0...10).map { LatLng(latitude: 37.0 + Double($0) * 0.001, longitude: -122.0) }
        var traffic = ConsumableTrafficPolyline()
        traffic.encodedPathToWaypoint = EncodedPolyline.encode(path)
        // traffic.proto: "a stretch not listed moves at normal speed".
        #expect(DelayCategory(route: path, traffic: traffic) == .light)
    }
}
