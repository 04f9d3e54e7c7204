import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("GetTrip: lookup, route format and view")
struct GetTripServiceTests {
    @Test("a trip that was never created is NOT_FOUND with ErrorInfo TRIP_NOT_FOUND and a ResourceInfo")
    func missingTripIsNotFound() throws {
        let harness = ServiceHarness()
        let error = try #require(fleetEngineError { try harness.get("providers/test-project/trips/ghost") })

        var resource = ResourceInfo()
        resource.resourceType = "maps.fleetengine.v1.Trip"
        resource.resourceName = "providers/test-project/trips/ghost"
        resource.description = "the trip does not exist"
        #expect(error.code == .notFound)
        #expect(error.message == "trip providers/test-project/trips/ghost not found")
        #expect(
            error.details == [
                ServiceFixtures.errorInfo(
                    reason: "TRIP_NOT_FOUND", metadata: ["trip": "providers/test-project/trips/ghost"]),
                .resourceInfo(resource),
            ])
    }

    @Test("a trip of another provider with the same id is not found")
    func otherProvidersTripIsNotFound() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1", provider: "provider-a")
        #expect(fleetEngineError { try harness.get("providers/provider-b/trips/trip-1") }?.code == .notFound)
    }

    /// A trip with both forms of its route, as a moving trip has them.
    static func routedTrip() -> Trip {
        var trip = Trip()
        trip.name = "providers/test-project/trips/routed"
        trip.tripStatus = .enrouteToPickup
        trip.route = [ServiceFixtures.point(37.0, -122.0), ServiceFixtures.point(37.001, -122.0)]
        trip.currentRouteSegment = "encoded-route"
        return trip
    }

    @Test(
        "route_format_type picks route (lat/lng list, also the default) or current_route_segment (encoded)",
        arguments: [
            (PolylineFormatType.unknownFormatType, true),
            (PolylineFormatType.latLngListType, true),
            (PolylineFormatType.encodedPolylineType, false),
        ])
    func routeFormatPicksTheForm(format: PolylineFormatType, wantsList: Bool) {
        let trip = Self.routedTrip()
        var request = GetTripRequest()
        request.name = trip.name
        request.routeFormatType = format
        let answer = IncrementalFetch.response(for: trip, request: request)

        var expected = trip
        if wantsList {
            expected.currentRouteSegment = ""
        } else {
            expected.route = []
        }
        #expect(answer == expected)
    }

    @Test("route_format_type over the service: a moving trip's route comes in the asked form only")
    func routeFormatOverTheService() throws {
        let clock = ManualTimeSource(start: Timestamp(seconds: ServiceHarness.startSeconds, nanos: 0))
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        let name = try #require(try emulator.simulate(providerID: "test-project", count: 1, seed: 7).first)
        clock.advance(by: .seconds(60))

        var request = GetTripRequest()
        request.name = name
        request.routeFormatType = .latLngListType
        let list = try emulator.service.getTrip(request)
        request.routeFormatType = .encodedPolylineType
        let encoded = try emulator.service.getTrip(request)

        #expect(!list.route.isEmpty)
        #expect(list.currentRouteSegment == "")
        #expect(encoded.route == [])
        #expect(encoded.currentRouteSegment == S2Polyline(vertices: list.route).encoded)
        var withoutRoutes = list
        withoutRoutes.route = []
        var encodedWithoutRoutes = encoded
        encodedWithoutRoutes.currentRouteSegment = ""
        #expect(withoutRoutes == encodedWithoutRoutes)
    }

    /// A motion that stands still: a shared trip whose vehicle also serves another trip.
    struct SharedVehicleTrip: TripMotion {
        func trip(at elapsed: Duration) -> Trip {
            var trip = Trip()
            trip.name = "providers/test-project/trips/mine"
            trip.tripType = .shared
            trip.tripStatus = .enrouteToPickup
            trip.vehicleID = "vehicle-1"
            var own = ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "mine", .pickupWaypointType)
            own.pathToWaypoint = [ServiceFixtures.point(37.0, -122.0), ServiceFixtures.point(37.1, -122.0)]
            own.distanceMeters = 900
            var other = ServiceFixtures.waypoint(ServiceFixtures.dropoff, tripID: "theirs", .dropOffWaypointType)
            other.pathToWaypoint = [ServiceFixtures.point(37.1, -122.0), ServiceFixtures.point(37.2, -122.0)]
            other.distanceMeters = 1_500
            var ownDropoff = ServiceFixtures.waypoint(ServiceFixtures.stops[0], tripID: "mine", .dropOffWaypointType)
            ownDropoff.distanceMeters = 2_000
            trip.remainingWaypoints = [own, other, ownDropoff]
            trip.vehicleWaypoints = trip.remainingWaypoints
            var attribute = TripAttribute()
            attribute.key = "fare"
            attribute.tripAttributeValue = .numberValue(12.5)
            trip.attributes = [attribute]
            return trip
        }
    }

    @Test("JOURNEY_SHARING_V1S drops vehicle waypoints and attributes and outlines other trips' waypoints")
    func journeySharingViewHidesOtherTrips() throws {
        let clock = ManualTimeSource(start: Timestamp(seconds: ServiceHarness.startSeconds, nanos: 0))
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        try emulator.addMovingTrip(named: "providers/test-project/trips/mine", motion: SharedVehicleTrip())

        var request = GetTripRequest()
        request.name = "providers/test-project/trips/mine"
        request.view = .sdk
        let full = try emulator.service.getTrip(request)
        request.view = .journeySharingV1s
        let shared = try emulator.service.getTrip(request)

        var outline = TripWaypoint()
        outline.tripID = "theirs"
        outline.waypointType = .dropOffWaypointType
        var expected = full
        expected.vehicleWaypoints = []
        expected.attributes = []
        expected.remainingWaypoints[1] = outline
        #expect(shared == expected)
        #expect(full.vehicleWaypoints.isEmpty)
        #expect(full.attributes.count == 1)
    }

    @Test("an unspecified view is the SDK view: the whole trip")
    func unspecifiedViewIsWholeTrip() throws {
        let clock = ManualTimeSource(start: Timestamp(seconds: ServiceHarness.startSeconds, nanos: 0))
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        let stored = try emulator.addMovingTrip(named: "providers/test-project/trips/mine", motion: SharedVehicleTrip())

        var request = GetTripRequest()
        request.name = stored.name
        let unspecified = try emulator.service.getTrip(request)
        request.view = .sdk
        #expect(try emulator.service.getTrip(request) == unspecified)
        var expected = stored
        expected.currentRouteSegment = ""
        expected.vehicleWaypoints = []
        #expect(unspecified == expected)
    }
    @Test(
        "vehicle_waypoints come back from CreateTrip and UpdateTrip only, never from GetTrip or SearchTrips, in any view",
        arguments: [TripView.unspecified, .sdk, .journeySharingV1s])
    func vehicleWaypointsOnlyOnWrites(view: TripView) throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate(vehicleID: "vehicle-1")
        let waypoints = [
            ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "w", .pickupWaypointType),
            ServiceFixtures.waypoint(ServiceFixtures.dropoff, tripID: "w", .dropOffWaypointType),
        ]
        given.vehicleWaypoints = waypoints
        let created = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "w", trip: given))
        #expect(created.vehicleWaypoints == waypoints)
        let updated = try harness.update(ServiceFixtures.name("w"), ["vehicle_waypoints"], given)
        #expect(updated.vehicleWaypoints == waypoints)

        var request = GetTripRequest()
        request.name = ServiceFixtures.name("w")
        request.view = view
        #expect(try harness.service.getTrip(request).vehicleWaypoints == [])
        for vehicleID in ["", "vehicle-1"] {
            var search = SearchTripsRequest()
            search.parent = "providers/\(ServiceFixtures.provider)"
            search.vehicleID = vehicleID
            let found = try harness.service.searchTrips(search).trips
            #expect(found.map(\.name) == [ServiceFixtures.name("w")])
            #expect(found.map(\.vehicleWaypoints) == [[]], "vehicle_id \"\(vehicleID)\"")
        }
    }
}
