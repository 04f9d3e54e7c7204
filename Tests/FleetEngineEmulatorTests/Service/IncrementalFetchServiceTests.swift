import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("Incremental fetch: versions held, parts left out, merged back")
struct IncrementalFetchServiceTests {
    /// Which version a request holds, and what the answer must leave out for it.
    enum HeldVersion: String, CaseIterable, CustomTestStringConvertible {
        case currentRouteSegment, currentRouteSegmentTraffic, remainingWaypointsRoute, remainingWaypoints

        var testDescription: String { rawValue }

        func hold(_ trip: Trip, in request: inout GetTripRequest) {
            switch self {
            case .currentRouteSegment: request.currentRouteSegmentVersion = trip.currentRouteSegmentVersion
            case .currentRouteSegmentTraffic:
                request.currentRouteSegmentTrafficVersion = trip.currentRouteSegmentTrafficVersion
            case .remainingWaypointsRoute: request.remainingWaypointsRouteVersion = trip.remainingWaypointsRouteVersion
            case .remainingWaypoints: request.remainingWaypointsVersion = trip.remainingWaypointsVersion
            }
        }

        /// `trip` without the part this version stands for.
        func omit(from trip: Trip) -> Trip {
            var answer = trip
            switch self {
            case .currentRouteSegment:
                answer.route = []
                answer.currentRouteSegment = ""
            case .currentRouteSegmentTraffic:
                answer.currentRouteSegmentTraffic = nil
            case .remainingWaypointsRoute:
                for index in answer.remainingWaypoints.indices {
                    answer.remainingWaypoints[index].pathToWaypoint = []
                    answer.remainingWaypoints[index].encodedPathToWaypoint = ""
                    answer.remainingWaypoints[index].trafficToWaypoint = nil
                }
            case .remainingWaypoints:
                // Deprecated: "Trip.remaining_waypoints are always retrieved".
                break
            }
            return answer
        }
    }

    @Test(
        "a GetTrip holding the current versions leaves out exactly those parts, at every step",
        arguments: [0, 1, 2])
    func currentVersionsOmitExactlyTheirParts(index: Int) throws {
        let run = try MovingTripRun(index: index)
        for step in 0...run.stepCount {
            if step > 0 { run.clock.advance(by: .seconds(1)) }
            let full = try run.fetch()
            for held in HeldVersion.allCases {
                let answer = try run.fetch { held.hold(full, in: &$0) }
                #expect(answer == held.omit(from: full), "holding \(held) at step \(step)")
            }
            let holdingAll = try run.fetch { request in
                for held in HeldVersion.allCases { held.hold(full, in: &request) }
            }
            let expected = HeldVersion.allCases.reduce(full) { $1.omit(from: $0) }
            #expect(holdingAll == expected, "holding every version at step \(step)")
        }
    }

    @Test("the deprecated remaining_waypoints_version leaves nothing out: remaining waypoints are always retrieved")
    func deprecatedWaypointsVersionIsIgnored() throws {
        let run = try MovingTripRun(index: 0)
        run.clock.advance(by: .seconds(60))
        let full = try run.fetch()
        let version = try #require(full.remainingWaypointsVersion)
        #expect(!full.remainingWaypoints.isEmpty)
        #expect(try run.fetch { $0.remainingWaypointsVersion = version } == full)
        #expect(try run.fetch { $0.remainingWaypointsVersion = version.advanced(byMicroseconds: 1_000_000) } == full)
    }

    @Test("a version older than the trip's, or none, gets the part; a newer one does not")
    func versionComparison() throws {
        let run = try MovingTripRun(index: 0)
        run.clock.advance(by: .seconds(120))
        let full = try run.fetch()
        let version = try #require(full.currentRouteSegmentVersion)

        let older = try run.fetch { $0.currentRouteSegmentVersion = version.advanced(byMicroseconds: -1) }
        #expect(older == full)
        let newer = try run.fetch { $0.currentRouteSegmentVersion = version.advanced(byMicroseconds: 1) }
        #expect(newer == HeldVersion.currentRouteSegment.omit(from: full))
        #expect(try run.fetch { $0.currentRouteSegmentVersion = nil } == full)
        #expect(!full.route.isEmpty)
    }

    @Test(
        "merging the left-out parts from the held trip gives the full fetch at every step of the trip",
        arguments: 0..<MovingTripRun.tripCount, IncrementalMerge.HeldVersions.allCases)
    func mergedIncrementalFetchEqualsFullFetch(index: Int, versions: IncrementalMerge.HeldVersions) throws {
        let run = try MovingTripRun(index: index)
        var held = try run.fetch()
        var omissions = 0
        for step in 1...run.stepCount {
            run.clock.advance(by: .seconds(1))
            let answer = try run.fetch { IncrementalMerge.ask(&$0, holding: held, versions) }
            let full = try run.fetch()
            if answer.route.isEmpty && !full.route.isEmpty { omissions += 1 }
            let merged = IncrementalMerge.merge(answer, into: held, versions)
            #expect(merged == full, "step \(step)")
            if merged != full { break }
            held = merged
        }
        #expect(held.tripStatus == .complete)
        // Most steps only move the vehicle: the route must have been left out of most answers.
        #expect(omissions > run.stepCount / 2)
    }

    /// A motion whose pickup waypoint gets a new path after 10 seconds, and nothing else changes:
    /// not the waypoint's place, distance or ETA.
    struct NewPathOnly: TripMotion {
        func trip(at elapsed: Duration) -> Trip {
            var trip = Trip()
            trip.name = "providers/test-project/trips/detour"
            trip.tripStatus = .enrouteToPickup
            var pickup = ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "detour", .pickupWaypointType)
            pickup.distanceMeters = 800
            pickup.eta = ServiceHarness.time(100)
            let detour = elapsed >= .seconds(10)
            pickup.pathToWaypoint = [
                ServiceFixtures.point(37.40, -122.08), ServiceFixtures.point(37.41, detour ? -122.09 : -122.07),
                ServiceFixtures.point(37.4220, -122.0841),
            ]
            pickup.encodedPathToWaypoint = EncodedPolyline.encode(pickup.pathToWaypoint)
            trip.remainingWaypoints = [pickup]
            trip.route = pickup.pathToWaypoint
            return trip
        }
    }

    @Test(
        "a new path to a waypoint that stays put reaches a client holding every version",
        arguments: IncrementalMerge.HeldVersions.allCases)
    func pathOnlyChangeIsNotLost(versions: IncrementalMerge.HeldVersions) throws {
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        try emulator.addMovingTrip(named: "providers/test-project/trips/detour", motion: NewPathOnly())
        var request = GetTripRequest()
        request.name = "providers/test-project/trips/detour"
        let held = try emulator.service.getTrip(request)

        clock.advance(by: .seconds(10))
        let full = try emulator.service.getTrip(request)
        #expect(full.remainingWaypoints[0].pathToWaypoint != held.remainingWaypoints[0].pathToWaypoint)
        #expect(full.remainingWaypointsRouteVersion == ServiceHarness.time(10))
        #expect(full.remainingWaypointsVersion == ServiceHarness.time(10))
        IncrementalMerge.ask(&request, holding: held, versions)
        let answer = try emulator.service.getTrip(request)
        #expect(IncrementalMerge.merge(answer, into: held, versions) == full)
    }

    @Test("merging works the same for the encoded route form", arguments: [0, 2])
    func mergedEncodedFetchEqualsFullFetch(index: Int) throws {
        let run = try MovingTripRun(index: index)
        var held = try run.fetch { $0.routeFormatType = .encodedPolylineType }
        for step in 1...run.stepCount {
            run.clock.advance(by: .seconds(1))
            let answer = try run.fetch {
                $0.routeFormatType = .encodedPolylineType
                IncrementalMerge.ask(&$0, holding: held, .withoutDeprecated)
            }
            let full = try run.fetch { $0.routeFormatType = .encodedPolylineType }
            let merged = IncrementalMerge.merge(answer, into: held, .withoutDeprecated)
            #expect(merged == full, "step \(step)")
            if merged != full { break }
            held = merged
        }
    }

    @Test(
        "the JOURNEY_SHARING_V1S view of a moving trip is the SDK view without vehicle waypoints and attributes",
        arguments: [0, 1])
    func journeySharingViewOfMovingTrip(index: Int) throws {
        let run = try MovingTripRun(index: index)
        for step in stride(from: 0, through: run.stepCount, by: 15) {
            if step > 0 { run.clock.advance(by: .seconds(15)) }
            let sdk = try run.fetch { $0.view = .sdk }
            let shared = try run.fetch { $0.view = .journeySharingV1s }
            var expected = sdk
            expected.vehicleWaypoints = []
            expected.attributes = []
            #expect(shared == expected, "step \(step)")
        }
    }
}
