import FleetEngineCodec
import Testing

@testable import TripTracking

@Suite("Progress events from successive trips: thresholds, routes, traffic, speeding")
struct ProgressTrackerTests {
    static func trip(
        distance: Int32? = nil, seconds: Int64? = nil, route: [LatLng] = [],
        traffic: ConsumableTrafficPolyline? = nil, location: VehicleLocation? = nil
    ) -> Trip {
        var trip = Trip()
        trip.name = "providers/p/trips/t"
        trip.tripStatus = .enrouteToDropoff
        trip.remainingDistanceMeters = distance
        if let seconds {
            var duration = ProtobufDuration()
            duration.seconds = seconds
            trip.remainingTimeToFirstWaypoint = duration
        }
        trip.route = route
        trip.currentRouteSegmentTraffic = traffic
        trip.lastLocation = location
        return trip
    }

    static func names(_ events: [TripProgressEvent]) -> [String] {
        events.map { event in
            switch event {
            case .remainingDistance(let meters): "distance \(Int(meters))"
            case .remainingTime(let seconds): "time \(Int(seconds))"
            case .delayCategory(let category): "delay \(category)"
            case .speeding(let percent): "speeding \(percent)"
            default: event.name
            }
        }
    }

    @Test("remaining distance is reported when it moved by at least the threshold from the last one reported")
    func distanceThreshold() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds(distanceUpdateThreshold: 10)
        var reported: [String] = []
        for distance: Int32 in [1_000, 995, 991, 990, 981, 980, 980, 1_000] {
            reported += Self.names(
                tracker.events(for: Self.trip(distance: distance), thresholds: thresholds, speedLimits: nil))
        }
        // 995 and 991 are within 10 m of 1,000; 990 is exactly 10 m away; 981 within 10 m of 990.
        #expect(reported == ["distance 1000", "delay noData", "distance 990", "distance 980", "distance 1000"])
    }

    @Test(
        "thresholds of zero or less, or not a number, report every change; infinite ones only the first value",
        arguments: [
            (0.0, [1_000, 999, 998]), (-5, [1_000, 999, 998]), (.nan, [1_000, 999, 998]), (.infinity, [1_000]),
        ] as [(Double, [Int])])
    func extremeThresholds(threshold: Double, expected: [Int]) {
        var distanceTracker = ProgressTracker()
        var timeTracker = ProgressTracker()
        let thresholds = ProgressThresholds(timeUpdateThreshold: threshold, distanceUpdateThreshold: threshold)
        var distances: [Int] = []
        var times: [Int] = []
        for value in [1_000, 999, 999, 998] {
            let byDistance = distanceTracker.events(
                for: Self.trip(distance: Int32(value)), thresholds: thresholds, speedLimits: nil)
            for case .remainingDistance(let meters) in byDistance { distances.append(Int(meters)) }
            let byTime = timeTracker.events(
                for: Self.trip(seconds: Int64(value)), thresholds: thresholds, speedLimits: nil)
            for case .remainingTime(let seconds) in byTime { times.append(Int(seconds)) }
        }
        #expect(distances == expected)
        #expect(times == expected)
    }

    @Test("remaining time is reported when it moved by at least the threshold; the threshold can change on the way")
    func timeThreshold() {
        var tracker = ProgressTracker()
        var thresholds = ProgressThresholds(timeUpdateThreshold: 30)
        var reported: [String] = []
        for seconds: Int64 in [600, 580, 571, 570, 569] {
            reported += Self.names(
                tracker.events(for: Self.trip(seconds: seconds), thresholds: thresholds, speedLimits: nil))
        }
        thresholds.timeUpdateThreshold = 1
        reported += Self.names(tracker.events(for: Self.trip(seconds: 568), thresholds: thresholds, speedLimits: nil))
        #expect(reported == ["time 600", "delay noData", "time 570", "time 568"])
    }

    @Test("a remaining time with fractions of a second that moved by exactly the threshold is reported")
    func fractionalTimeAtThreshold() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds(timeUpdateThreshold: 1)
        var reported: [Double] = []
        // 2.3 s, then 1.3 s: exactly 1 s less, though 2.3 - 1.3 is 0.9999999999999998 in doubles.
        for (seconds, nanos): (Int64, Int32) in [(2, 300_000_000), (1, 300_000_000), (0, 800_000_000)] {
            var trip = Self.trip()
            var remaining = ProtobufDuration()
            remaining.seconds = seconds
            remaining.nanos = nanos
            trip.remainingTimeToFirstWaypoint = remaining
            for case .remainingTime(let value) in tracker.events(for: trip, thresholds: thresholds, speedLimits: nil) {
                reported.append(value)
            }
        }
        #expect(reported == [2.3, 1.3])
    }

    static let line = (0...10).map { LatLng(latitude: 37.0 + Double($0) * 0.001, longitude: -122.0) }

    @Test("a shorter remainder of the same route is no route change; a different path is")
    func routeChanges() {
        var tracker = ProgressTracker()
        let thresholds = ProgressThresholds()
        func changed(_ route: [LatLng]) -> Bool {
            tracker.events(for: Self.trip(route: route), thresholds: thresholds, speedLimits: nil).contains {
                $0.name == "routeChanged"
            }
        }
        #expect(changed(Self.line))
        // The vehicle between points 2 and 3, then the rest of the same line.
        let between = LatLng(latitude: 37.0025, longitude: -122.0)
        #expect(!changed([between] + Self.line[3...]))
        #expect(!changed([between] + Self.line[3...]))
        #expect(!changed([LatLng(latitude: 37.0071, longitude: -122.0)] + Self.line[8...]))
        // A detour to the same end.
        let detour = [
            LatLng(latitude: 37.0071, longitude: -122.0), LatLng(latitude: 37.008, longitude: -121.999), Self.line[10],
        ]
        #expect(changed(detour))
        #expect(ProgressTracker.isRemainder([Self.line[10]], of: detour))
        #expect(!ProgressTracker.isRemainder(Self.line, of: Array(Self.line[5...])))
    }

    @Test(
        "delay category from traffic along the route, weighted by length",
        arguments: [
            ([], DelayCategory.light),  // traffic data, all at normal speed
            ([(0, 10, SpeedReadingInterval.Speed.normal)], .light),
            ([(0, 2, .slow), (2, 10, .normal)], .medium),  // 2 of 10 equal edges slow: 20 % delay
            ([(3, 4, .slow), (7, 8, .trafficJam)], .heavy),  // 10 % + 3 × 10 %: 40 %
            ([(5, 7, .trafficJam)], .heavy),  // 3 × 20 %: 60 %
            ([(0, 9, .normal), (9, 10, .slow)], .light),  // 10 % less a hair: the edges are not quite equal
        ])
    func delayCategory(intervals: [(Int, Int, SpeedReadingInterval.Speed)], expected: DelayCategory) {
        var traffic = ConsumableTrafficPolyline()
        traffic.speedReadingInterval = intervals.map { start, end, speed in
            var interval = SpeedReadingInterval()
            interval.startPolylinePointIndex = Int32(start)
            interval.endPolylinePointIndex = Int32(end)
            interval.speed = speed
            return interval
        }
        if intervals.isEmpty {
            var normal = SpeedReadingInterval()
            normal.startPolylinePointIndex = 0
            normal.endPolylinePointIndex = 10
            normal.speed = .normal
            traffic.speedReadingInterval = [normal]
        }
        #expect(DelayCategory(route: Self.line, traffic: traffic) == expected)
        #expect(DelayCategory(route: Self.line, traffic: nil) == .noData)
        #expect(DelayCategory(route: nil, traffic: traffic) == .noData)
    }

    struct FixedLimit: SpeedLimitSource {
        var metersPerSecond: Double
        func speedLimit(at location: LatLng, bearing: Double?) -> Double? { metersPerSecond }
    }

    @Test("speeding: the percentage above the limit while above it, then 0 once, and never without a source")
    func speeding() {
        func location(speed: Double, at second: Int64) -> VehicleLocation {
            var location = VehicleLocation()
            location.location = LatLng(latitude: 51.5, longitude: -0.12)
            location.speed = speed
            location.updateTime = Timestamp(seconds: 1_700_000_000 + second, nanos: 0)
            return location
        }
        var tracker = ProgressTracker()
        var unlimited = ProgressTracker()
        var reported: [Double] = []
        for (second, speed) in [(0, 10.0), (1, 15.0), (2, 15.0), (3, 12.5), (4, 9.0), (5, 11.0)] {
            let trip = Self.trip(location: location(speed: speed, at: Int64(second)))
            let events = tracker.events(
                for: trip, thresholds: ProgressThresholds(), speedLimits: FixedLimit(metersPerSecond: 10))
            for case .speeding(let percent) in events { reported.append(percent) }
            #expect(
                !unlimited.events(for: trip, thresholds: ProgressThresholds(), speedLimits: nil).contains {
                    $0.name == "speeding"
                })
        }
        let expected = [50.0, 25.0, 0.0, 10.0]
        #expect(reported.count == expected.count)
        for (value, wanted) in zip(reported, expected) { #expect(abs(value - wanted) < 1e-9) }
    }
}
