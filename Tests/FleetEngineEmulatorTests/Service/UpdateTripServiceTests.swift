import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("UpdateTrip: field masks, ended trips and the intermediate destination guard")
struct UpdateTripServiceTests {
    static let name = "providers/test-project/trips/trip-1"

    /// A source trip in which every writable field differs from the created trip.
    static func everythingChanged() -> Trip {
        var trip = Trip()
        trip.name = "providers/test-project/trips/ignored"
        trip.vehicleID = "vehicle-9"
        trip.tripStatus = .enrouteToPickup
        trip.tripType = .shared
        trip.pickupPoint = ServiceFixtures.terminal(1, 1)
        trip.dropoffPoint = ServiceFixtures.terminal(2, 2)
        trip.intermediateDestinations = [ServiceFixtures.terminal(3, 3)]
        trip.numberOfPassengers = 4
        trip.route = [ServiceFixtures.point(5, 5)]
        return trip
    }

    @Test(
        "a path may be the proto name or its lowerCamelCase JSON name",
        arguments: [
            ["vehicle_id"], ["vehicleId"], ["number_of_passengers", "vehicle_id"], ["numberOfPassengers", "vehicleId"],
        ])
    func snakeAndCamelPathsAreAccepted(_ paths: [String]) throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1")
        let after = try harness.update(Self.name, paths, Self.everythingChanged())

        var expected = before
        expected.vehicleID = "vehicle-9"
        if paths.count == 2 { expected.numberOfPassengers = 4 }
        #expect(after == expected)
        #expect(try harness.get(Self.name) == expected)
    }

    @Test("fields outside the mask are untouched, and so are the versions of parts that did not change")
    func fieldsOutsideTheMaskAreUntouched() throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        harness.clock.advance(by: .seconds(10))
        let after = try harness.update(Self.name, ["number_of_passengers"], Self.everythingChanged())

        var expected = before
        expected.numberOfPassengers = 4
        #expect(after == expected)
    }

    @Test("a status change derives the remaining waypoints and stamps their version with the time of the change")
    func statusChangeMovesWaypointsAndVersions() throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        harness.clock.advance(by: .seconds(90))
        var change = Trip()
        change.tripStatus = .enrouteToDropoff
        let after = try harness.update(Self.name, ["tripStatus"], change)

        var expected = before
        expected.tripStatus = .enrouteToDropoff
        expected.pickupTime = ServiceHarness.time(90)
        expected.remainingWaypoints = [
            ServiceFixtures.waypoint(ServiceFixtures.dropoff, tripID: "trip-1", .dropOffWaypointType)
        ]
        expected.remainingWaypointsVersion = ServiceHarness.time(90)
        expected.remainingWaypointsRouteVersion = ServiceHarness.time(90)
        #expect(after == expected)
    }

    @Test("COMPLETE records the pickup and dropoff times and leaves no remaining waypoints")
    func completeRecordsTimes() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        harness.clock.advance(by: .seconds(30))
        var change = Trip()
        change.tripStatus = .enrouteToDropoff
        try harness.update(Self.name, ["trip_status"], change)
        harness.clock.advance(by: .seconds(300))
        change.tripStatus = .complete
        let after = try harness.update(Self.name, ["trip_status"], change)

        #expect(after.pickupTime == ServiceHarness.time(30))
        #expect(after.dropoffTime == ServiceHarness.time(330))
        #expect(after.remainingWaypoints == [])
        #expect(after.remainingWaypointsVersion == ServiceHarness.time(330))
    }

    @Test(
        "a mask naming an output-only field is INVALID_ARGUMENT on update_mask, and nothing changes",
        arguments: [
            "name", "trip_type", "tripType", "route", "current_route_segment", "currentRouteSegment",
            "remaining_waypoints", "remaining_distance_meters", "eta_to_first_waypoint", "pickup_time", "dropoff_time",
            "last_location", "current_route_segment_version", "intermediateDestinationsVersion", "view",
        ])
    func outputOnlyPathIsRefused(_ path: String) throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1")
        harness.clock.advance(by: .seconds(1))
        let error = try #require(
            fleetEngineError { try harness.update(Self.name, ["vehicle_id", path], Self.everythingChanged()) })
        #expect(error.code == .invalidArgument)
        #expect(error.message == "\"\(path)\" is an output-only field of Trip and cannot be updated")
        #expect(ServiceFixtures.badRequestField(error) == "update_mask")
        #expect(try harness.get(Self.name) == before)
    }

    @Test(
        "a mask naming something that is not a field of Trip is INVALID_ARGUMENT on update_mask",
        arguments: ["colour", "TRIP_STATUS", "pickup_point.point", "trip.vehicle_id", "vehicle_id ", "*"])
    func unknownPathIsRefused(_ path: String) throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1")
        let error = try #require(fleetEngineError { try harness.update(Self.name, [path], Self.everythingChanged()) })
        #expect(error.code == .invalidArgument)
        #expect(error.message == "\"\(path)\" is not a field of Trip")
        #expect(ServiceFixtures.badRequestField(error) == "update_mask")
        #expect(try harness.get(Self.name) == before)
    }

    @Test("an empty or missing mask is INVALID_ARGUMENT on update_mask")
    func emptyMaskIsRefused() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        var request = UpdateTripRequest()
        request.name = Self.name
        request.trip = Self.everythingChanged()
        let missing = try #require(fleetEngineError { try harness.service.updateTrip(request) })
        request.updateMask = FieldMask()
        let empty = try #require(fleetEngineError { try harness.service.updateTrip(request) })
        for error in [missing, empty] {
            #expect(error.code == .invalidArgument)
            #expect(error.message == "update_mask must name at least one field")
            #expect(ServiceFixtures.badRequestField(error) == "update_mask")
        }
    }

    @Test("a request without a trip is INVALID_ARGUMENT on trip; an unknown trip is NOT_FOUND")
    func missingTripOrUnknownName() throws {
        let harness = ServiceHarness()
        var request = UpdateTripRequest()
        request.name = Self.name
        var mask = FieldMask()
        mask.paths = ["vehicle_id"]
        request.updateMask = mask
        let noTrip = try #require(fleetEngineError { try harness.service.updateTrip(request) })
        #expect(noTrip.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(noTrip) == "trip")
        request.trip = Trip()
        #expect(fleetEngineError { try harness.service.updateTrip(request) }?.code == .notFound)
    }

    @Test(
        "an ended trip refuses every update with FAILED_PRECONDITION TRIP_ENDED",
        arguments: [
            TripStatus.complete, .canceled,
        ])
    func endedTripIsRefused(_ status: TripStatus) throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        var change = Trip()
        change.tripStatus = status
        let ended = try harness.update(Self.name, ["trip_status"], change)
        harness.clock.advance(by: .seconds(5))

        change.tripStatus = .enrouteToPickup
        change.vehicleID = "vehicle-2"
        for paths in [["trip_status"], ["vehicle_id"]] {
            let error = try #require(fleetEngineError { try harness.update(Self.name, paths, change) })
            #expect(error.code == .failedPrecondition)
            #expect(error.details == [ServiceFixtures.errorInfo(reason: "TRIP_ENDED", metadata: ["trip": Self.name])])
        }
        #expect(try harness.get(Self.name) == ended)
    }

    @Test("intermediate_destination_index changes only with the current intermediate_destinations_version")
    func intermediateIndexIsGuardedByVersion() throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate()
        given.intermediateDestinations = ServiceFixtures.stops
        let created = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "trip-1", trip: given))
        #expect(created.intermediateDestinationsVersion == ServiceHarness.time(0))

        harness.clock.advance(by: .seconds(10))
        var change = Trip()
        change.intermediateDestinationIndex = 1
        let stale = try #require(
            fleetEngineError { try harness.update(Self.name, ["intermediate_destination_index"], change) })
        #expect(stale.code == .failedPrecondition)
        #expect(
            stale.details == [
                ServiceFixtures.errorInfo(
                    reason: "STALE_INTERMEDIATE_DESTINATIONS_VERSION", metadata: ["trip": Self.name])
            ])

        change.intermediateDestinationsVersion = ServiceHarness.time(0)
        let moved = try harness.update(Self.name, ["intermediateDestinationIndex"], change)
        #expect(moved.intermediateDestinationIndex == 1)

        // New destinations make the version the client held stale.
        harness.clock.advance(by: .seconds(10))
        var newStops = Trip()
        newStops.intermediateDestinations = ServiceFixtures.stops.reversed() + [ServiceFixtures.terminal(38, -122)]
        let replaced = try harness.update(Self.name, ["intermediate_destinations"], newStops)
        #expect(replaced.intermediateDestinationsVersion == ServiceHarness.time(20))
        #expect(replaced.intermediateDestinationIndex == 1)

        change.intermediateDestinationIndex = 2
        #expect(
            fleetEngineError { try harness.update(Self.name, ["intermediate_destination_index"], change) }?.code
                == .failedPrecondition)
        change.intermediateDestinationsVersion = ServiceHarness.time(20)
        #expect(
            try harness.update(Self.name, ["intermediate_destination_index"], change).intermediateDestinationIndex == 2)
    }

    @Test(
        "ENROUTE_TO_INTERMEDIATE_DESTINATION with a stale intermediate_destinations_version is FAILED_PRECONDITION")
    func staleVersionGuardsTheStatusChange() throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate(vehicleID: "vehicle-1")
        given.intermediateDestinations = ServiceFixtures.stops
        _ = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "trip-1", trip: given))
        harness.clock.advance(by: .seconds(10))
        var newStops = Trip()
        newStops.intermediateDestinations = ServiceFixtures.stops.reversed()
        let replaced = try harness.update(Self.name, ["intermediate_destinations"], newStops)
        #expect(replaced.intermediateDestinationsVersion == ServiceHarness.time(10))

        // UpdateTripRequest.trip: "The Trip.intermediate_destinations_version passed must be consistent
        // with Fleet Engine's version. If it isn't, the request fails."
        var change = Trip()
        change.tripStatus = .enrouteToIntermediateDestination
        change.intermediateDestinationsVersion = ServiceHarness.time(0)
        let stale = try #require(fleetEngineError { try harness.update(Self.name, ["trip_status"], change) })
        #expect(stale.code == .failedPrecondition)
        #expect(
            stale.details == [
                ServiceFixtures.errorInfo(
                    reason: "STALE_INTERMEDIATE_DESTINATIONS_VERSION", metadata: ["trip": Self.name])
            ])
        #expect(try harness.get(Self.name) == replaced)

        change.intermediateDestinationsVersion = ServiceHarness.time(10)
        #expect(try harness.update(Self.name, ["trip_status"], change).tripStatus == .enrouteToIntermediateDestination)
    }

    @Test(
        "an intermediate_destination_index outside the destinations is INVALID_ARGUMENT",
        arguments: [Int32(-1), 2, 3])
    func intermediateIndexOutsideDestinationsIsRefused(_ index: Int32) throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate()
        given.intermediateDestinations = ServiceFixtures.stops
        let created = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "trip-1", trip: given))
        var change = Trip()
        change.intermediateDestinationIndex = index
        change.intermediateDestinationsVersion = created.intermediateDestinationsVersion
        let error = try #require(
            fleetEngineError { try harness.update(Self.name, ["intermediate_destination_index"], change) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "trip.intermediate_destination_index")
        #expect(try harness.get(Self.name) == created)
    }

    @Test("new intermediate destinations bump their version and the remaining waypoints', and nothing else")
    func newDestinationsBumpTheirVersions() throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1")
        harness.clock.advance(by: .seconds(42))
        var change = Trip()
        change.intermediateDestinations = ServiceFixtures.stops
        let after = try harness.update(Self.name, ["intermediateDestinations"], change)

        var expected = before
        expected.intermediateDestinations = ServiceFixtures.stops
        expected.remainingWaypoints.insert(
            contentsOf: ServiceFixtures.stops.map {
                ServiceFixtures.waypoint($0, tripID: "trip-1", .intermediateDestinationWaypointType)
            },
            at: 1)
        expected.intermediateDestinationsVersion = ServiceHarness.time(42)
        expected.remainingWaypointsVersion = ServiceHarness.time(42)
        expected.remainingWaypointsRouteVersion = ServiceHarness.time(42)
        #expect(after == expected)
    }
    @Test("the input-only actual_* fields are taken by UpdateTrip and kept, but no call returns them")
    func inputOnlyFieldsAreNeverReturned() throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        var stop = StopLocation()
        stop.point = ServiceFixtures.point(37.5, -122.5)
        stop.timestamp = ServiceHarness.time(5)
        var change = Trip()
        change.actualPickupPoint = stop
        change.actualPickupArrivalPoint = stop
        change.actualIntermediateDestinationArrivalPoints = [stop]
        change.actualIntermediateDestinations = [stop]
        change.actualDropoffPoint = stop
        let paths = [
            "actual_pickup_point", "actual_pickup_arrival_point", "actual_intermediate_destination_arrival_points",
            "actual_intermediate_destinations", "actual_dropoff_point",
        ]
        #expect(try harness.update(Self.name, paths, change) == before)
        #expect(try harness.get(Self.name) == before)
        var search = SearchTripsRequest()
        search.parent = "providers/\(ServiceFixtures.provider)"
        search.vehicleID = "vehicle-1"
        #expect(try harness.service.searchTrips(search).trips == [before])
        let stored = try harness.store.get(TripName(parsing: Self.name))
        #expect(stored.actualPickupPoint == stop)
        #expect(stored.actualDropoffPoint == stop)

        // A simulated trip, whose driver "reported" them all by the time it completed.
        let run = try MovingTripRun(index: 0)
        run.clock.advance(by: run.simulation.duration + .seconds(1))
        let done = try run.fetch()
        #expect(done.tripStatus == .complete)
        #expect(done.actualPickupPoint == nil && done.actualPickupArrivalPoint == nil && done.actualDropoffPoint == nil)
        #expect(done.actualIntermediateDestinationArrivalPoints == [] && done.actualIntermediateDestinations == [])
    }
}
