import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("Trip versions over a moving trip, a second at a time")
struct TripVersionServiceTests {
    @Test(
        "each version moves to the time of the step exactly when its part changes, and never goes back",
        arguments: 0..<MovingTripRun.tripCount)
    func versionsFollowTheirParts(index: Int) throws {
        let run = try MovingTripRun(index: index)
        var previous = try run.fullFetch()
        for part in VersionedPart.allCases {
            #expect(part.version(of: previous) == ServiceHarness.time(0), "\(part) at creation")
        }
        var changes: [VersionedPart: Int] = [:]
        for step in 1...run.stepCount {
            run.clock.advance(by: .seconds(1))
            let now = ServiceHarness.time(Int64(step))
            let current = try run.fullFetch()
            for part in VersionedPart.allCases {
                let changed = part.content(of: current) != part.content(of: previous)
                let version = part.version(of: current)
                if changed {
                    changes[part, default: 0] += 1
                    #expect(
                        version == now,
                        "\(part) changed at step \(step) but its version is \(String(describing: version))")
                } else {
                    #expect(
                        version == part.version(of: previous),
                        "\(part) did not change at step \(step) but its version moved to \(String(describing: version))"
                    )
                }
            }
            previous = current
        }
        #expect(previous.tripStatus == .complete)
        // A route that never changed would make the checks above vacuous.
        #expect(changes[.currentRouteSegment, default: 0] > 0)
        #expect(changes[.remainingWaypoints, default: 0] > 0)
        #expect(changes[.remainingWaypointsRoute, default: 0] > 0)
        #expect(changes[.intermediateDestinations] == nil)
    }

    @Test("across the seeded trips, traffic appears and clears, so its version moves too")
    func trafficVersionMoves() throws {
        var trafficChanges = 0
        for index in 0..<MovingTripRun.tripCount {
            let run = try MovingTripRun(index: index)
            var previous = try run.fetch()
            for _ in 1...run.stepCount {
                run.clock.advance(by: .seconds(1))
                let current = try run.fetch()
                if current.currentRouteSegmentTrafficVersion != previous.currentRouteSegmentTrafficVersion {
                    trafficChanges += 1
                }
                previous = current
            }
        }
        #expect(trafficChanges > 0)
    }

    @Test("a moving trip that no one reads gets the version of the read that first sees the change")
    func unreadChangesTakeTheReadTime() throws {
        let run = try MovingTripRun(index: 0)
        let first = try run.fetch()
        run.clock.advance(by: .seconds(600))
        let later = try run.fetch()
        #expect(later.currentRouteSegmentVersion == ServiceHarness.time(600))
        #expect(later.intermediateDestinationsVersion == first.intermediateDestinationsVersion)
        // Reading again at the same time changes nothing.
        #expect(try run.fetch() == later)
    }

    @Test("an update of a moving trip changes only the masked field, then stops the motion")
    func updateStopsTheMotion() throws {
        let run = try MovingTripRun(index: 0)
        run.clock.advance(by: .seconds(60))
        let before = try run.fullFetch()
        var request = UpdateTripRequest()
        request.name = run.name
        var change = Trip()
        change.numberOfPassengers = 3
        request.trip = change
        var mask = FieldMask()
        mask.paths = ["number_of_passengers"]
        request.updateMask = mask
        var updated = try run.emulator.service.updateTrip(request)
        // UpdateTrip returns vehicle_waypoints, which GetTrip never does.
        #expect(!updated.vehicleWaypoints.isEmpty)
        updated.vehicleWaypoints = []
        var unchangedButPassengers = before
        unchangedButPassengers.numberOfPassengers = 3
        #expect(updated == unchangedButPassengers)

        run.clock.advance(by: .seconds(60))
        let after = try run.fetch { $0.routeFormatType = .latLngListType }
        var expected = updated
        expected.currentRouteSegment = ""
        #expect(after == expected)
    }
}
