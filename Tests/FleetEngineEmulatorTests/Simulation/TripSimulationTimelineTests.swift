import FleetEngineCodec
import Testing

@testable import FleetEngineEmulator

/// The status walk and the numbers along it, on the hand-built plans of ``SimulationFixtures``.
@Suite("Simulated trip timeline")
struct TripSimulationTimelineTests {
    @Test("a trip without intermediate destinations walks its statuses at the worked-out times")
    func statusWalk() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        #expect(
            simulation.events == [
                SimulationEvent(time: .seconds(0), kind: .statusChanged(.new, intermediateDestinationIndex: 0)),
                SimulationEvent(
                    time: .seconds(5), kind: .statusChanged(.enrouteToPickup, intermediateDestinationIndex: 0)),
                SimulationEvent(time: .seconds(106), kind: .waypointReached(.pickupWaypointType, leg: 0)),
                SimulationEvent(
                    time: .seconds(106), kind: .statusChanged(.arrivedAtPickup, intermediateDestinationIndex: 0)),
                SimulationEvent(
                    time: .seconds(136), kind: .statusChanged(.enrouteToDropoff, intermediateDestinationIndex: 0)),
                SimulationEvent(time: .seconds(337), kind: .waypointReached(.dropOffWaypointType, leg: 1)),
                SimulationEvent(time: .seconds(337), kind: .statusChanged(.complete, intermediateDestinationIndex: 0)),
            ]
        )
        #expect(simulation.duration == .seconds(337))
        let statuses = [0, 4, 5, 105, 106, 135, 136, 336, 337].map { simulation.trip(at: .seconds($0)).tripStatus }
        #expect(
            statuses == [
                .new, .new, .enrouteToPickup, .enrouteToPickup, .arrivedAtPickup, .arrivedAtPickup,
                .enrouteToDropoff, .enrouteToDropoff, .complete,
            ]
        )
    }

    @Test("intermediate destinations add their statuses, with intermediate_destination_index")
    func intermediateWalk() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.withIntermediateDestinations())
        let walk = simulation.events.compactMap { event -> String? in
            guard case .statusChanged(let status, let index) = event.kind else { return nil }
            return "\(event.time.components.seconds) \(status) \(index)"
        }
        #expect(
            walk == [
                "0 NEW 0",
                "5 ENROUTE_TO_PICKUP 0",
                "106 ARRIVED_AT_PICKUP 0",
                "136 ENROUTE_TO_INTERMEDIATE_DESTINATION 0",
                "237 ARRIVED_AT_INTERMEDIATE_DESTINATION 0",
                "257 ENROUTE_TO_INTERMEDIATE_DESTINATION 1",
                "358 ARRIVED_AT_INTERMEDIATE_DESTINATION 1",
                "368 ENROUTE_TO_DROPOFF 1",
                "469 COMPLETE 1",
            ]
        )
        let atSecondStop = simulation.trip(at: .seconds(360))
        #expect(atSecondStop.tripStatus == .arrivedAtIntermediateDestination)
        #expect(atSecondStop.intermediateDestinationIndex == 1)
        #expect(
            atSecondStop.actualIntermediateDestinationArrivalPoints.map(\.timestamp) == [
                SimulationFixtures.timestamp(237), SimulationFixtures.timestamp(358),
            ])
        #expect(atSecondStop.actualIntermediateDestinations.map(\.timestamp) == [SimulationFixtures.timestamp(257)])
        #expect(atSecondStop.remainingWaypoints.map(\.waypointType) == [.dropOffWaypointType])
    }

    @Test("remaining distance and time fall with every second driven; the ETA stays")
    func liveNumbers() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let departing = simulation.trip(at: .seconds(5))
        #expect(departing.remainingDistanceMeters == 1_001)
        #expect(departing.remainingTimeToFirstWaypoint == SimulationFixtures.duration(101))
        #expect(departing.etaToFirstWaypoint == SimulationFixtures.timestamp(106))
        // 50 s at 10 m/s: 500 m of 1,000.754 m driven.
        let halfway = simulation.trip(at: .seconds(55))
        #expect(halfway.remainingDistanceMeters == 501)
        #expect(halfway.remainingTimeToFirstWaypoint == SimulationFixtures.duration(51))
        #expect(halfway.etaToFirstWaypoint == SimulationFixtures.timestamp(106))
        #expect(halfway.lastLocation?.speed == 10)
        #expect(halfway.lastLocation?.heading == 0)
        #expect(halfway.lastLocation?.updateTime == SimulationFixtures.timestamp(55))
        #expect(halfway.lastLocation?.locationSensor == .roadSnappedLocationProvider)
        let latitude = try #require(halfway.lastLocation?.location?.latitude)
        // 500 m north of 37°: 500 / 6,371,008.8 rad = 0.0044966°.
        #expect(abs(latitude - 37.0044966) < 1e-7)
        // Times between location updates read as the last update.
        #expect(simulation.trip(at: .milliseconds(55_999)) == halfway)
        #expect(simulation.snapshotInstant(at: .milliseconds(55_999)) == .seconds(55))
        #expect(simulation.snapshotInstant(at: .seconds(1_000)) == .seconds(337))
    }

    @Test("a waypoint leaves remaining_waypoints on the update the vehicle is reported there")
    func waypointsDropOnArrival() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let before = simulation.trip(at: .seconds(105))
        #expect(before.remainingWaypoints.map(\.waypointType) == [.pickupWaypointType, .dropOffWaypointType])
        #expect(
            before.remainingWaypoints.map(\.eta) == [
                SimulationFixtures.timestamp(106), SimulationFixtures.timestamp(337),
            ])
        // Distances are as of the last route refresh, at 90 s: 850 m driven, 150.754 m to go.
        #expect(before.remainingWaypoints.map(\.distanceMeters) == [151, 2_002])
        #expect(before.pickupTime == SimulationFixtures.timestamp(136))
        #expect(before.dropoffTime == SimulationFixtures.timestamp(337))
        #expect(before.actualPickupArrivalPoint == nil)
        let arrived = simulation.trip(at: .seconds(106))
        #expect(arrived.remainingWaypoints.map(\.waypointType) == [.dropOffWaypointType])
        #expect(arrived.remainingWaypoints.first?.eta == SimulationFixtures.timestamp(337))
        #expect(arrived.currentRouteSegmentEndPoint?.waypointType == .dropOffWaypointType)
        #expect(arrived.actualPickupArrivalPoint?.timestamp == SimulationFixtures.timestamp(106))
        #expect(arrived.actualPickupArrivalPoint?.point == SimulationFixtures.point(37.009))
        #expect(arrived.actualPickupPoint == nil)
        #expect(simulation.trip(at: .seconds(136)).actualPickupPoint?.timestamp == SimulationFixtures.timestamp(136))
    }

    @Test("the vehicle stands still at a stop for its wait, and moves off on departure")
    func speedZeroWhileWaiting() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let pickup = SimulationFixtures.point(37.009)
        for second in 106..<136 {
            let location = simulation.trip(at: .seconds(second)).lastLocation
            #expect(location?.speed == 0)
            #expect(location?.location == pickup)
        }
        #expect(simulation.trip(at: .seconds(0)).lastLocation?.speed == 0)
        #expect(simulation.trip(at: .seconds(136)).lastLocation?.speed == 10)
    }

    @Test("a vehicle that stops twice at one place keeps the heading it arrived with, not north")
    func headingAtARepeatedStop() throws {
        // Due east along the 37th parallel; the intermediate destination is the pickup again.
        let plan = SimulationPlan(
            tripName: "providers/test-project/trips/east",
            vehicleID: "vehicle-1",
            vehicleStart: SimulationFixtures.point(37, -122),
            pickup: SimulationStop(point: SimulationFixtures.point(37, -121.99), wait: .seconds(10)),
            intermediateDestinations: [
                SimulationStop(point: SimulationFixtures.point(37, -121.99), wait: .seconds(10))
            ],
            dropoff: SimulationFixtures.point(37, -121.98),
            speeds: 10...10
        )
        let simulation = try SimulationFixtures.simulation(plan)
        let statuses: [TripStatus] = [
            .arrivedAtPickup, .enrouteToIntermediateDestination, .arrivedAtIntermediateDestination,
        ]
        let headings = statuses.map { status in
            let event = simulation.events.first { $0.kind.isStatusChange(to: status) }
            return event.map { simulation.trip(at: $0.time).lastLocation?.heading } ?? nil
        }
        // The last edge into the pickup runs east, to the whole degree a heading is reported in.
        #expect(headings == [90, 90, 90])
    }

    @Test("the trip is COMPLETE at its duration and the same ever after")
    func completeAtDuration() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let complete = simulation.trip(at: simulation.duration)
        #expect(complete.tripStatus == .complete)
        #expect(simulation.trip(at: simulation.duration - .seconds(1)).tripStatus == .enrouteToDropoff)
        #expect(simulation.trip(at: simulation.duration + .seconds(1)) == complete)
        #expect(simulation.trip(at: .seconds(86_400 * 365)) == complete)
        #expect(complete.remainingWaypoints.isEmpty)
        #expect(complete.route.isEmpty)
        #expect(complete.currentRouteSegment == "")
        #expect(complete.remainingDistanceMeters == nil)
        #expect(complete.etaToFirstWaypoint == nil)
        #expect(complete.dropoffTime == SimulationFixtures.timestamp(337))
        #expect(complete.actualDropoffPoint?.timestamp == SimulationFixtures.timestamp(337))
        #expect(complete.lastLocation?.location == SimulationFixtures.point(37.027))
        #expect(complete.lastLocation?.updateTime == SimulationFixtures.timestamp(337))
    }

    @Test("elapsed times beyond Int64 seconds, either way, are the completed trip or the trip at zero")
    func elapsedBeyondInt64Seconds() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        // Duration holds about 1.7e20 seconds; its components would need more than Int64 seconds.
        let far = Duration.seconds(Int64.max) * 4
        #expect(simulation.snapshotInstant(at: far) == simulation.duration)
        #expect(simulation.trip(at: far) == simulation.trip(at: simulation.duration))
        #expect(simulation.snapshotInstant(at: .zero - far) == .zero)
        #expect(simulation.trip(at: .zero - far) == simulation.trip(at: .zero))
    }

    @Test("elapsed time before zero is zero, and the trip is NEW with the full route to the pickup")
    func beforeStart() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        let new = simulation.trip(at: .seconds(-10))
        #expect(new == simulation.trip(at: .zero))
        #expect(new.tripStatus == .new)
        #expect(new.name == "providers/test-project/trips/direct")
        #expect(new.vehicleID == "vehicle-1")
        #expect(new.numberOfPassengers == 2)
        #expect(new.tripType == .exclusive)
        #expect(new.remainingDistanceMeters == 1_001)
        #expect(new.route.count == 8)
        #expect(new.route.first == SimulationFixtures.point(37))
        #expect(new.route.last == SimulationFixtures.point(37.009))
        #expect(new.remainingWaypoints.first?.tripID == "direct")
    }

    @Test("version fields are left for the store to set")
    func versionsUnset() throws {
        let simulation = try SimulationFixtures.simulation(SimulationFixtures.direct())
        for second in [0, 60, 120, 200, 337] {
            let trip = simulation.trip(at: .seconds(second))
            #expect(trip.currentRouteSegmentVersion == nil)
            #expect(trip.currentRouteSegmentTrafficVersion == nil)
            #expect(trip.remainingWaypointsVersion == nil)
            #expect(trip.remainingWaypointsRouteVersion == nil)
            #expect(trip.intermediateDestinationsVersion == nil)
        }
    }

    @Test("the start time moves every timestamp, so a test can choose when night falls")
    func startTime() throws {
        var late = SimulationFixtures.start
        late.seconds += 3_600 * 10
        let simulation = try TripSimulation(plan: SimulationFixtures.direct(), seed: 1, start: late)
        let trip = simulation.trip(at: .seconds(55))
        #expect(trip.lastLocation?.updateTime?.seconds == 1_700_036_055)
        #expect(trip.etaToFirstWaypoint?.seconds == 1_700_036_106)
    }

    @Test(
        "plans that cannot be driven are refused with the reason",
        arguments: [
            (SimulationPlan.with { $0.pickup.point = SimulationFixtures.point(91) }, "the point (91.0, -122.0)"),
            (SimulationPlan.with { $0.speeds = 0...10 }, "the speeds 0.0...10.0 m/s"),
            (SimulationPlan.with { $0.reroutes = [PlannedReroute(leg: 2, fraction: 0.5)] }, "a reroute is on leg 2"),
            (
                SimulationPlan.with { $0.reroutes = [PlannedReroute(leg: 0, fraction: 1)] },
                "a reroute on leg 0 is at 1.0 of it"
            ),
            (
                SimulationPlan.with { $0.cadence.routeRefreshInterval = .milliseconds(1_500) },
                "the route refresh interval 1.5 seconds"
            ),
            (SimulationPlan.with { $0.pickup.wait = .seconds(-1) }, "the wait -1.0 seconds"),
            (
                // Spacings this wide made the search for a diagonal avenue overflow Int, a trap.
                SimulationPlan.with {
                    $0.streets = StreetGrid(
                        centre: SimulationFixtures.point(37), bearing: 0, avenueSpacing: 100, streetSpacing: 100,
                        diagonalSpacing: .max)
                },
                "the street grid around (37.0, -122.0)"
            ),
            (
                // 30 legs of about 19,900 km at 0.5 m/s: 1.2e9 s; the last legs were "driven" in a second each.
                SimulationPlan.with { plan in
                    plan.speeds = 0.5...0.5
                    plan.intermediateDestinations = (0..<30).map {
                        SimulationStop(point: SimulationFixtures.point(0, $0 % 2 == 0 ? 179 : 0))
                    }
                },
                "the trip would last 1000000000.0 seconds or more"
            ),
        ])
    func refusesBadPlans(_ plan: SimulationPlan, _ reason: String) {
        #expect {
            try TripSimulation(plan: plan, seed: 1, start: SimulationFixtures.start)
        } throws: { error in
            (error as? EmulatorError)?.code == .invalidSimulation
                && "\(error)".hasPrefix("cannot simulate trip 'providers/test-project/trips/direct': \(reason)")
        }
    }
}

extension SimulationPlan {
    /// The direct fixture plan, changed.
    fileprivate static func with(_ change: (inout SimulationPlan) -> Void) -> SimulationPlan {
        var plan = SimulationFixtures.direct()
        change(&plan)
        return plan
    }
}

extension SimulationEvent.Kind {
    /// Whether this is the trip's status becoming `status`.
    fileprivate func isStatusChange(to status: TripStatus) -> Bool {
        if case .statusChanged(let changed, _) = self { return changed == status }
        return false
    }
}
