import FleetEngineCodec

/// The progress events of a sequence of whole trips: what changed from the trip before, held back
/// by the thresholds. A value type without locks or I/O; ``TripProgressMonitor`` runs one per
/// monitored trip.
struct ProgressTracker {
    /// The stops still ahead at the last trip, in order.
    private var waypointsAhead: [TripWaypoint]?
    private var route: [LatLng]?
    private var reportedTime: ProtobufDuration?
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
            let change = reportedTime.map { Self.seconds(from: $0, to: remaining) }
            if Self.isReportable(change: change, threshold: thresholds.timeUpdateThreshold) {
                reportedTime = remaining
                events.append(.remainingTime(Double(remaining.seconds) + Double(remaining.nanos) / 1e9))
            }
        }
        if let remaining = trip.remainingDistanceMeters {
            let meters = Double(remaining)
            let change = reportedDistance.map { meters - $0 }
            if Self.isReportable(change: change, threshold: thresholds.distanceUpdateThreshold) {
                reportedDistance = meters
                events.append(.remainingDistance(meters))
            }
        }

        let category = DelayCategory(route: newRoute, traffic: trip.currentRouteSegmentTraffic)
        if category != delay {
            delay = category
            events.append(.delayCategory(category))
        }

        var newLocation = RoadSnappedLocation(trip.lastLocation)
        // A fix from before the one reported is stale, not the vehicle driving back in time: the
        // location, and the lighting worked out from its time, stay as they were.
        if let time = newLocation?.time, let reported = location?.time, time < reported { newLocation = nil }
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

    /// Whether a value is to be reported: the first one (no `change`), or one that changed at all
    /// and by no less than `threshold` since the last one reported. Written as "not less than" so
    /// that a threshold that is not a number holds nothing back, as one of zero or less does:
    /// `abs(change) >= .nan` is false, which would have reported the first value and then none.
    private static func isReportable(change: Double?, threshold: Double) -> Bool {
        guard let change else { return true }
        return change != 0 && !(abs(change) < threshold)
    }

    /// The seconds from `earlier` to `later`, whole seconds and nanoseconds subtracted apart: 2.3 s
    /// to 1.3 s is then exactly 1 s, where subtracting the two as doubles gives 0.9999999999999998,
    /// under a 1 s threshold.
    private static func seconds(from earlier: ProtobufDuration, to later: ProtobufDuration) -> Double {
        let (seconds, overflow) = later.seconds.subtractingReportingOverflow(earlier.seconds)
        // Only durations far outside protobuf's range overflow; in doubles they still differ hugely.
        guard !overflow else { return Double(later.seconds) - Double(earlier.seconds) }
        return Double(seconds) + Double(Int64(later.nanos) - Int64(earlier.nanos)) / 1e9
    }

    /// The waypoints the vehicle passed since the last trip: those of the stops that were ahead
    /// which come before the first one still ahead. Each passing is reported once, when the
    /// waypoint leaves the front of the list; a stop the trip visits twice is reported at each
    /// visit. All the stops are passed once the trip is complete; none when it was cancelled or
    /// has no vehicle (back to NEW), and none when the trip's waypoints are missing before it is
    /// complete, as nobody arrived anywhere then.
    private func arrivals(in trip: Trip) -> [TripWaypoint] {
        guard let before = waypointsAhead, !before.isEmpty else { return [] }
        switch trip.tripStatus {
        case .complete: return before
        case .canceled, .new, .unknownTripStatus: return []
        default: break
        }
        let now = trip.remainingWaypoints
        guard !now.isEmpty else { return [] }
        let stillAhead = Self.stopsStillAhead(before: before, now: now)
        let firstAhead = before.indices.first(where: stillAhead.contains) ?? before.count
        return Array(before[..<firstAhead])
    }

    /// Which of the stops `before` are still among `now`, by position in `before`.
    ///
    /// A stop still ahead is the same waypoint (trip, type and place) or, failing that, one of the
    /// same trip and type whose place was changed (a rider moving a pickup). Stops are passed from
    /// the front, so when a waypoint appears in `before` more often than in `now`, the later
    /// occurrences are the ones still ahead. Linear in the two lists' lengths.
    static func stopsStillAhead(before: [TripWaypoint], now: [TripWaypoint]) -> Set<Int> {
        var ahead = Set<Int>()
        var unmatchedNow: [Int] = []
        var byPlace: [WaypointKey: [Int]] = [:]
        for (index, waypoint) in before.enumerated() { byPlace[WaypointKey(waypoint), default: []].append(index) }
        for index in now.indices.reversed() {
            if let match = byPlace[WaypointKey(now[index])]?.popLast() {
                ahead.insert(match)
            } else {
                unmatchedNow.append(index)
            }
        }
        guard !unmatchedNow.isEmpty else { return ahead }
        var byStop: [WaypointKey: [Int]] = [:]
        for (index, waypoint) in before.enumerated() where !ahead.contains(index) {
            byStop[WaypointKey(waypoint, place: false), default: []].append(index)
        }
        for index in unmatchedNow {
            if let match = byStop[WaypointKey(now[index], place: false)]?.popLast() { ahead.insert(match) }
        }
        return ahead
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

/// A waypoint's identity: its trip, type and (unless `place` is false) place.
struct WaypointKey: Hashable {
    var tripID: String
    var type: WaypointType
    var point: LatLng?

    init(_ waypoint: TripWaypoint, place: Bool = true) {
        tripID = waypoint.tripID
        type = waypoint.waypointType
        point = place ? waypoint.location?.point : nil
    }
}
