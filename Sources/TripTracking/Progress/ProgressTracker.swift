import FleetEngineCodec

/// The progress events of a sequence of whole trips: what changed from the trip before, held back
/// by the thresholds. A value type without locks or I/O; ``TripProgressMonitor`` runs one per
/// monitored trip.
struct ProgressTracker {
    /// The stops still ahead at the last trip, in order.
    private var waypointsAhead: [TripWaypoint]?
    private var arrived: Set<WaypointKey> = []
    private var route: [LatLng]?
    private var reportedTime: Double?
    private var reportedDistance: Double?
    private var delay: DelayCategory?
    private var lighting: LightingMode?
    private var speedingPercent = 0.0
    private var location: RoadSnappedLocation?

    /// The events of `trip`, the next whole trip of the followed trip.
    mutating func events(
        for trip: Trip, thresholds: ProgressThresholds, speedLimits: (any SpeedLimitSource)?
    ) -> [TripProgressEvent] {
        var events: [TripProgressEvent] = []
        for waypoint in arrivals(in: trip) { events.append(.arrivedAtWaypoint(waypoint)) }
        waypointsAhead = trip.remainingWaypoints

        let newRoute = TripParts(trip).activeRoute
        if let newRoute, !newRoute.isEmpty, newRoute != route, !Self.isRemainder(newRoute, of: route) {
            events.append(.routeChanged(newRoute))
        }
        route = newRoute

        if let remaining = trip.remainingTimeToFirstWaypoint {
            let seconds = Double(remaining.seconds) + Double(remaining.nanos) / 1e9
            if reportedTime.map({ abs(seconds - $0) >= thresholds.timeUpdateThreshold }) ?? true {
                reportedTime = seconds
                events.append(.remainingTime(seconds))
            }
        }
        if let remaining = trip.remainingDistanceMeters {
            let meters = Double(remaining)
            if reportedDistance.map({ abs(meters - $0) >= thresholds.distanceUpdateThreshold }) ?? true {
                reportedDistance = meters
                events.append(.remainingDistance(meters))
            }
        }

        let category = DelayCategory(route: newRoute, traffic: trip.currentRouteSegmentTraffic)
        if category != delay {
            delay = category
            events.append(.delayCategory(category))
        }

        let newLocation = RoadSnappedLocation(trip.lastLocation)
        if let newLocation, let time = newLocation.time {
            let mode: LightingMode =
                SolarPosition.isDaylight(
                    latitude: newLocation.coordinate.latitude, longitude: newLocation.coordinate.longitude, at: time)
                ? .normal : .lowLight
            if mode != lighting {
                lighting = mode
                events.append(.lightingMode(mode))
            }
        }
        if let newLocation, newLocation != location {
            if let speedLimits, let speed = newLocation.speed,
                let limit = speedLimits.speedLimit(at: newLocation.coordinate, bearing: newLocation.bearing), limit > 0
            {
                let percent = max(0, (speed - limit) / limit * 100)
                if percent != speedingPercent {
                    speedingPercent = percent
                    events.append(.speeding(percentAboveLimit: percent))
                }
            }
            location = newLocation
            events.append(.locationUpdated(newLocation))
        }
        return events
    }

    /// The waypoints the vehicle passed since the last trip: those that were ahead, have left the
    /// trip, and lay before the first one still ahead (all of them once the trip is complete; none
    /// when it was cancelled, as nobody arrived anywhere). Each is reported once.
    private mutating func arrivals(in trip: Trip) -> [TripWaypoint] {
        guard let before = waypointsAhead, trip.tripStatus != .canceled else { return [] }
        let stillAhead = Set(trip.remainingWaypoints.map(WaypointKey.init))
        let passedCount =
            trip.tripStatus == .complete
            ? before.count : (before.firstIndex { stillAhead.contains(WaypointKey($0)) } ?? before.count)
        var passed: [TripWaypoint] = []
        for waypoint in before.prefix(passedCount) {
            let key = WaypointKey(waypoint)
            guard !stillAhead.contains(key), arrived.insert(key).inserted else { continue }
            passed.append(waypoint)
        }
        return passed
    }

    /// Whether `route` is what is left of `earlier` as the vehicle drives along it: after its first
    /// point (where the vehicle is), the same points as the end of `earlier`.
    static func isRemainder(_ route: [LatLng], of earlier: [LatLng]?) -> Bool {
        guard let earlier, let last = route.last, earlier.last == last else { return false }
        let tail = route.dropFirst()
        guard tail.count < earlier.count else { return tail.count == earlier.count && Array(tail) == earlier }
        return earlier.suffix(tail.count).elementsEqual(tail)
    }
}

/// A waypoint's identity: its trip, type and place.
struct WaypointKey: Hashable {
    var tripID: String
    var type: WaypointType
    var point: LatLng?

    init(_ waypoint: TripWaypoint) {
        tripID = waypoint.tripID
        type = waypoint.waypointType
        point = waypoint.location?.point
    }
}
