import FleetEngineCodec
import Testing

@testable import FleetEngineEmulator

/// Reported routes, traffic and reroutes on the hand-built plans of ``SimulationFixtures``.
@Suite("Simulated routes, traffic and reroutes")
struct TripSimulationRouteTests {
    @Test("the route is refreshed every 30 s and at events; in between only the location moves")
    func refreshCadence() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        #expect(
            Array(simulation.routeRefreshTimes)
                == [0, 5, 30, 60, 90, 106, 120, 136, 150, 180, 210, 240, 270, 300, 330, 337]
                .map { .seconds($0) }
        )
        let refreshed = simulation.trip(at: .seconds(30))
        let later = simulation.trip(at: .seconds(59))
        #expect(later.route == refreshed.route)
        #expect(later.currentRouteSegment == refreshed.currentRouteSegment)
        #expect(later.currentRouteSegmentTraffic == refreshed.currentRouteSegmentTraffic)
        #expect(later.remainingWaypoints == refreshed.remainingWaypoints)
        #expect(later.lastLocation != refreshed.lastLocation)
        #expect(later.remainingDistanceMeters == 461)
        // At 30 s the vehicle has driven 250 m: it is on the second edge (142.965 m to 285.929 m).
        #expect(refreshed.route.count == 7)
        #expect(refreshed.route.first == refreshed.lastLocation?.location)
        #expect(refreshed.remainingWaypoints.first?.distanceMeters == 751)
        #expect(refreshed.remainingWaypoints.first?.duration == SimulationFixtures.duration(76))
        #expect(RouteChange(from: simulation.trip(at: .seconds(29)).route, to: refreshed.route) == .shortened)
    }

    @Test("refresh moments are worked out as read: a day's wait at 1 ms begins 0, 1, 2, 3 ms, event moments kept")
    func refreshTimesOfALongTrip() throws {
        var plan = SimulationFixtures.direct()
        plan.pickup.wait = .seconds(86_400)
        plan.cadence = SimulationCadence(locationInterval: .milliseconds(1), routeRefreshInterval: .milliseconds(1))
        let simulation = try SimulationFixtures.simulation(plan)
        // 86.7 million moments: built into an array up front, they would take gigabytes.
        #expect(simulation.duration > .seconds(86_400))
        #expect(Array(simulation.routeRefreshTimes.prefix(4)) == [0, 1, 2, 3].map { .milliseconds($0) })

        plan.cadence = SimulationCadence(locationInterval: .seconds(1), routeRefreshInterval: .seconds(40_000))
        let sparse = try SimulationFixtures.simulation(plan)
        let eventMoments = Set(sparse.events.map(\.time))
        let times = Array(sparse.routeRefreshTimes)
        #expect(times == (Set([.zero, .seconds(40_000), .seconds(80_000)]).union(eventMoments)).sorted())
        #expect(times.last == sparse.duration)
    }

    @Test("current_route_segment is the route in S2 encoding and the traffic's path is the route too")
    func segmentEncodings() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let trip = simulation.trip(at: .seconds(150))
        let decoded = try #require(S2Polyline(encoded: trip.currentRouteSegment)).vertices
        #expect(decoded.count == trip.route.count)
        for (segmentPoint, routePoint) in zip(decoded, trip.route) {
            #expect(abs(segmentPoint.latitude - routePoint.latitude) < 1e-12)
            #expect(abs(segmentPoint.longitude - routePoint.longitude) < 1e-12)
        }
        let traffic = try #require(trip.currentRouteSegmentTraffic)
        #expect(traffic.encodedPathToWaypoint == EncodedPolyline.encode(trip.route))
        #expect(trip.remainingWaypoints.first?.encodedPathToWaypoint == EncodedPolyline.encode(trip.route))
        #expect(trip.currentRouteSegmentEndPoint?.location?.point == SimulationFixtures.point(37.027))
    }

    @Test("slow traffic appears and clears at its times, on the edges it covers, as seen from the vehicle")
    func trafficAppearsAndClears() throws {
        // Leg 1 has 14 edges; 0.5 and 0.8 of it are vertices 7 and 11.
        let plan = SimulationFixtures.direct(traffic: [
            PlannedTraffic(leg: 1, stretch: 0.5...0.8, appearsAfter: .seconds(20), lasts: .seconds(60))
        ])
        let simulation = try SimulationFixtures.simulation(plan)
        #expect(
            simulation.events.filter { $0.time > .seconds(136) && $0.time < .seconds(337) } == [
                SimulationEvent(time: .seconds(156), kind: .trafficAppeared(.slow, leg: 1)),
                SimulationEvent(time: .seconds(216), kind: .trafficCleared(leg: 1)),
            ])
        // The vehicle reaches the stretch at 236 s, after it cleared: the trip takes as long as without.
        #expect(simulation.duration == .seconds(337))
        #expect(intervals(simulation.trip(at: .seconds(155))) == ["0-14 NORMAL"])
        // At 156 s it has driven 200 m, on edge 1: route point j is vertex j + 1.
        #expect(intervals(simulation.trip(at: .seconds(156))) == ["0-6 NORMAL", "6-10 SLOW", "10-13 NORMAL"])
        // At 215 s the route is the one refreshed at 210 s: 740 m driven, on edge 5.
        #expect(intervals(simulation.trip(at: .seconds(215))) == ["0-2 NORMAL", "2-6 SLOW", "6-9 NORMAL"])
        #expect(intervals(simulation.trip(at: .seconds(216))) == ["0-9 NORMAL"])
    }

    @Test("a jam slows the vehicle to a fifth of its speed, and the ETA knew it from the start")
    func jamSlowsTheVehicle() throws {
        let plan = SimulationFixtures.direct(traffic: [
            PlannedTraffic(
                leg: 1, stretch: 0...0.5, appearsAfter: .zero, lasts: .seconds(30), speed: .trafficJam)
        ])
        let simulation = try SimulationFixtures.simulation(plan)
        // 30 s at 2 m/s (60 m), then 1,941.509 m at 10 m/s: 136 + 30 + 194.151 = 360.151.
        #expect(simulation.duration == .seconds(361))
        #expect(simulation.trip(at: .seconds(150)).lastLocation?.speed == 2)
        #expect(simulation.trip(at: .seconds(166)).lastLocation?.speed == 10)
        #expect(simulation.trip(at: .seconds(136)).etaToFirstWaypoint == SimulationFixtures.timestamp(361))
        #expect(simulation.trip(at: .seconds(106)).etaToFirstWaypoint == SimulationFixtures.timestamp(361))
        #expect(intervals(simulation.trip(at: .seconds(136))) == ["0-7 TRAFFIC_JAM", "7-14 NORMAL"])
    }

    @Test("a reroute replaces the route; every other refresh only shortens it")
    func rerouteReplacesRoute() throws {
        let simulation = try SimulationFixtures.simulation(
            SimulationFixtures.direct(reroutes: [
                PlannedReroute(leg: 1, fraction: 0.5)
            ]))
        // Half of leg 1 (1,000.754 m) is driven at 236.075 s: the reroute is on the next update.
        let reroutes = simulation.events.filter { $0.kind == .rerouted(leg: 1) }.map(\.time)
        #expect(reroutes == [.seconds(237)])
        let before = simulation.trip(at: .seconds(236))
        let after = simulation.trip(at: .seconds(237))
        #expect(RouteChange(from: before.route, to: after.route) == .replaced)
        #expect(after.route.first == after.lastLocation?.location)
        #expect(after.route.last == SimulationFixtures.point(37.027))
        // 1,000 m driven at 236 s: 1,001.509 m to go on the straight road.
        #expect(before.remainingDistanceMeters == 1_002)
        let detour = zip(after.route, after.route.dropFirst()).reduce(0) {
            $0 + SphericalGeometry.distance(from: $1.0, to: $1.1)
        }
        #expect(after.remainingDistanceMeters == Int32(detour.rounded()))
        #expect((after.remainingDistanceMeters ?? 0) > 1_100)
        let eta = try #require(after.etaToFirstWaypoint)
        #expect(eta.seconds > SimulationFixtures.timestamp(337).seconds)
        #expect(simulation.duration == .seconds(eta.seconds - SimulationFixtures.start.seconds))
        // Every later refresh is the vehicle moving along the new route.
        var previous = after.route
        for second in 238...Int(simulation.duration.components.seconds - 1) {
            let route = simulation.trip(at: .seconds(second)).route
            #expect(RouteChange(from: previous, to: route) != .replaced)
            previous = route
        }
    }

    @Test("streets across the antimeridian take a route of a few blocks, with every longitude within ±180°")
    func streetsAcrossAntimeridian() throws {
        // Taveuni, Fiji, where the 180th meridian crosses the island; the stops lie 1 km either side of it.
        let east = SphericalGeometry.point(latitude: -16.8, longitude: 179.995)
        let west = SphericalGeometry.point(latitude: -16.801, longitude: -179.995)
        let plan = SimulationPlan(
            tripName: "providers/test-project/trips/taveuni",
            vehicleID: "vehicle-1",
            vehicleStart: east,
            pickup: SimulationStop(point: west, wait: .seconds(30)),
            dropoff: SphericalGeometry.point(latitude: -16.79, longitude: 179.99),
            streets: StreetGrid(
                centre: SphericalGeometry.point(latitude: -16.8, longitude: 179.99),
                bearing: 0,
                avenueSpacing: 100,
                streetSpacing: 100,
                diagonalSpacing: 0
            )
        )
        let trip = try SimulationFixtures.simulation(plan).trip(at: .zero)
        #expect(trip.remainingWaypoints.count == 2)
        for waypoint in trip.remainingWaypoints {
            let path = waypoint.pathToWaypoint
            #expect(path.allSatisfy { abs($0.longitude) <= 180 })
            let length = zip(path, path.dropFirst()).reduce(0) { $0 + SphericalGeometry.distance(from: $1.0, to: $1.1) }
            // Blocks make a staircase, at most √2 times as long as the way as the crow flies (1.1 and 2 km).
            let crowFlies = SphericalGeometry.distance(from: try #require(path.first), to: try #require(path.last))
            #expect(crowFlies < 2_100)
            #expect(length < 1.5 * crowFlies)
            #expect(Int32(length.rounded()) == waypoint.distanceMeters)
        }
    }

    @Test("a pickup where the vehicle already stands is a route of one point on streets too, not a drive out and back")
    func pickupAtTheVehicleOnStreets() throws {
        // Midway along a 160 m block of Mountain View's grid: the nearest street is tens of metres away.
        let grid = SimulationCity.mountainView.streets
        let here = grid.point(StreetGrid.BlockPoint(street: 3.5, avenue: 2.5))
        var plan = SimulationFixtures.direct()
        plan.streets = grid
        plan.vehicleStart = here
        plan.pickup.point = here
        plan.dropoff = grid.point(StreetGrid.BlockPoint(street: 8, avenue: 4))
        let simulation = try SimulationFixtures.simulation(plan)
        let new = simulation.trip(at: .zero)
        #expect(new.remainingDistanceMeters == 0)
        #expect(new.route == [here])
        #expect(new.remainingWaypoints.first?.distanceMeters == 0)
        // Reported at the pickup on the update after it sets off, standing still all the while.
        let departure = try #require(
            simulation.events.first { $0.kind == .statusChanged(.enrouteToPickup, intermediateDestinationIndex: 0) })
        let driving = simulation.trip(at: departure.time)
        #expect(driving.lastLocation?.location == here)
        #expect(driving.lastLocation?.speed == 0)
        #expect(simulation.trip(at: departure.time + .seconds(1)).tripStatus == .arrivedAtPickup)
    }

    private func intervals(_ trip: Trip) -> [String] {
        (trip.currentRouteSegmentTraffic?.speedReadingInterval ?? []).map {
            "\($0.startPolylinePointIndex)-\($0.endPolylinePointIndex) \($0.speed)"
        }
    }
}
