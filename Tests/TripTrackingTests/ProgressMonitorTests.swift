import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Testing
import TripTracking

@Suite("Progress events over simulated trips", .timeLimit(.minutes(10)))
struct ProgressMonitorTests {
    static func reached(_ simulation: TripSimulation) -> [(time: Int64, type: WaypointType, leg: Int)] {
        simulation.events.compactMap { event in
            if case .waypointReached(let type, let leg) = event.kind {
                return (event.time.components.seconds, type, leg)
            }
            return nil
        }
    }

    @Test(
        "second by second: one arrival per waypoint when the simulation reaches it, route changes only for a new route",
        arguments: [0, 1, 2])
    func arrivalsAndRoutes(index: Int) async throws {
        try await withTracking { harness in
            let simulation = harness.simulations[index]
            let steps = try await harness.monitorSteps(index: index, step: 1)
            let reached = Self.reached(simulation)
            var arrivals: [(time: Int64, waypoint: TripWaypoint)] = []
            var routeChanges: [Int64] = []
            for (position, step) in steps.enumerated() {
                for event in step.events {
                    switch event {
                    case .arrivedAtWaypoint(let waypoint):
                        arrivals.append((step.elapsed, waypoint))
                        // The waypoint as it was in the trip before it left.
                        let before = steps[position - 1].trip.remainingWaypoints
                        #expect(before.contains(waypoint), "at \(step.elapsed) s")
                        #expect(!step.trip.remainingWaypoints.contains(waypoint))
                    case .routeChanged(let route):
                        routeChanges.append(step.elapsed)
                        #expect(route == step.trip.route)
                    default:
                        break
                    }
                }
            }
            #expect(arrivals.map(\.time) == reached.map(\.time))
            #expect(arrivals.map(\.waypoint.waypointType) == reached.map(\.type))
            #expect(
                arrivals.allSatisfy {
                    $0.waypoint.tripID == simulation.plan.tripName.split(separator: "/").last.map(String.init)
                })
            // A new route at the start, after every arrival but the last, and at every reroute.
            let reroutes = simulation.events.compactMap { event -> Int64? in
                if case .rerouted = event.kind { return event.time.components.seconds }
                return nil
            }
            let expected = Set([0] + reached.dropLast().map(\.time) + reroutes).sorted()
            #expect(routeChanges == expected)
            if index == 2 { #expect(!reroutes.isEmpty, "the seeded trip 2 is rerouted") }
        }
    }

    @Test("a refresh that skips over arrivals reports each skipped waypoint once, in order")
    func skippedArrivals() async throws {
        try await withTracking { harness in
            let simulation = harness.simulations[1]
            let reached = Self.reached(simulation)
            #expect(reached.count >= 3, "the trip has an intermediate destination")
            let halfway = Int64(simulation.duration.components.seconds / 2) + 1
            let steps = try await harness.monitorSteps(index: 1, step: halfway)
            let arrivals = steps.flatMap { step in
                step.events.compactMap { event -> WaypointType? in
                    if case .arrivedAtWaypoint(let waypoint) = event { return waypoint.waypointType }
                    return nil
                }
            }
            #expect(arrivals == reached.map(\.type))
            // At most three refreshes: some of them reported several arrivals at once.
            #expect(steps.count <= 3)
        }
    }

    @Test("remaining distance and time: reported exactly when they moved past the thresholds, which change mid-trip")
    func thresholds() async throws {
        try await withTracking { harness in
            var lastDistance: Double?
            var lastTime: Double?
            var changedAt: Int64?
            let steps = try await harness.monitorSteps(
                index: 0, step: 1,
                monitor: {
                    TripProgressMonitor(
                        model: $0, thresholds: ProgressThresholds(timeUpdateThreshold: 60, distanceUpdateThreshold: 250)
                    )
                },
                beforeStep: { elapsed, monitor in
                    if elapsed == 200 {
                        monitor.thresholds = ProgressThresholds(timeUpdateThreshold: 1, distanceUpdateThreshold: 1)
                        changedAt = elapsed
                    }
                })
            #expect(changedAt == 200)
            var reportedDistances = 0
            for step in steps {
                let distanceThreshold = step.elapsed >= 200 ? 1.0 : 250
                let timeThreshold = step.elapsed >= 200 ? 1.0 : 60
                let distances = step.events.compactMap { event -> Double? in
                    if case .remainingDistance(let meters) = event { return meters }
                    return nil
                }
                let times = step.events.compactMap { event -> Double? in
                    if case .remainingTime(let seconds) = event { return seconds }
                    return nil
                }
                if let meters = step.trip.remainingDistanceMeters.map(Double.init) {
                    let due = lastDistance.map { abs(meters - $0) >= distanceThreshold } ?? true
                    #expect(distances == (due ? [meters] : []), "at \(step.elapsed) s")
                    if due { lastDistance = meters }
                } else {
                    #expect(distances.isEmpty)
                }
                if let remaining = step.trip.remainingTimeToFirstWaypoint {
                    let seconds = Double(remaining.seconds)
                    let due = lastTime.map { abs(seconds - $0) >= timeThreshold } ?? true
                    #expect(times == (due ? [seconds] : []), "at \(step.elapsed) s")
                    if due { lastTime = seconds }
                }
                reportedDistances += distances.count
            }
            #expect(reportedDistances > 5)
        }
    }

    /// A fixed speed limit everywhere.
    struct FixedLimit: SpeedLimitSource {
        var metersPerSecond: Double
        func speedLimit(at location: LatLng, bearing: Double?) -> Double? { metersPerSecond }
    }

    @Test(
        "every new vehicle location is one locationUpdated, and speeding follows the vehicle's speed against the limit")
    func locationAndSpeeding() async throws {
        try await withTracking { harness in
            let limit = 8.0
            let steps = try await harness.monitorSteps(
                index: 0, step: 2,
                monitor: { TripProgressMonitor(model: $0, speedLimits: FixedLimit(metersPerSecond: limit)) })
            var previous: RoadSnappedLocation?
            var percent = 0.0
            var speedingEvents = 0
            for step in steps {
                let location = try #require(RoadSnappedLocation(step.trip.lastLocation))
                let updates = step.events.filter { $0.name == "locationUpdated" }
                #expect(updates == (location == previous ? [] : [.locationUpdated(location)]), "at \(step.elapsed) s")
                let speeding = step.events.compactMap { event -> Double? in
                    if case .speeding(let value) = event { return value }
                    return nil
                }
                if location != previous, let speed = location.speed {
                    let now = max(0, (speed - limit) / limit * 100)
                    #expect(speeding == (now == percent ? [] : [now]), "at \(step.elapsed) s")
                    percent = now
                } else {
                    #expect(speeding.isEmpty)
                }
                speedingEvents += speeding.count
                previous = location
            }
            #expect(speedingEvents > 0, "the simulated vehicle goes faster than 8 m/s at times")
        }
    }

    @Test("night falls mid-trip in London: lighting turns from normal to low light at the first location after sunset")
    func nightFalls() async throws {
        let seeded = TripSimulation.seeded(
            providerID: TrackingHarness.provider, count: 40, seed: TrackingHarness.seed, start: TrackingHarness.start)
        let index = try #require(seeded.firstIndex { $0.plan.vehicleStart.latitude > 51 })
        let place = seeded[index].plan.vehicleStart
        // Sunset on 13 January 2025 at the vehicle's start, to the second.
        var sunset: Int64 = 1_736_780_400  // 15:00 UTC
        while SolarPosition.isDaylight(
            latitude: place.latitude, longitude: place.longitude, at: Timestamp(seconds: sunset, nanos: 0))
        {
            sunset += 1
        }
        let half = seeded[index].duration.components.seconds / 2
        try await withTracking(count: index + 1, start: Timestamp(seconds: sunset - half, nanos: 0)) { harness in
            let steps = try await harness.monitorSteps(index: index, step: 5)
            var modes: [LightingMode] = []
            for step in steps {
                for case .lightingMode(let mode) in step.events {
                    modes.append(mode)
                    let location = try #require(step.trip.lastLocation)
                    let point = try #require(location.location)
                    let time = try #require(location.updateTime)
                    let daylight = SolarPosition.isDaylight(
                        latitude: point.latitude, longitude: point.longitude, at: time)
                    #expect(mode == (daylight ? .normal : .lowLight))
                }
            }
            #expect(modes == [.normal, .lowLight])
        }
    }

    @Test("the events sequence finishes when the trip completes, and a stopped service ends it with CANCELLED")
    func sequenceEnds() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let monitor = TripProgressMonitor(model: model)
            let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
            async let collected: [TripProgressEvent] = {
                var iterator = monitor.events.makeAsyncIterator()
                readyContinuation.yield()
                var events: [TripProgressEvent] = []
                while let event = try await iterator.next() { events.append(event) }
                return events
            }()
            var readiness = ready.makeAsyncIterator()
            _ = await readiness.next()
            while model.modelState == .following {
                await model.refresh()
                harness.clock.advance(by: .seconds(30))
            }
            let events = try await collected
            #expect(events.contains { $0.name == "arrivedAtWaypoint" })
            #expect(events.first.map(\.name) != nil)

            let other = harness.service.tripModel(for: harness.names[1])
            var iterator = TripProgressMonitor(model: other).events.makeAsyncIterator()
            harness.service.beginGracefulShutdown()
            let error = await #expect(throws: FleetEngineError.self) { _ = try await iterator.next() }
            #expect(error?.code == .cancelled)
        }
    }
}
