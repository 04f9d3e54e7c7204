import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("CreateTrip: the service's rules")
struct CreateTripServiceTests {
    @Test("a created trip is named from parent and trip_id, is NEW, and keeps what the request gave")
    func createdTripIsNamedAndNew() throws {
        let harness = ServiceHarness()
        let trip = try harness.createTrip("trip-1", vehicleID: "vehicle-7")

        var expected = Trip()
        expected.name = "providers/test-project/trips/trip-1"
        expected.tripType = .exclusive
        expected.tripStatus = .new
        expected.pickupPoint = ServiceFixtures.pickup
        expected.dropoffPoint = ServiceFixtures.dropoff
        expected.numberOfPassengers = 2
        expected.vehicleID = "vehicle-7"
        expected.remainingWaypoints = [
            ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "trip-1", .pickupWaypointType),
            ServiceFixtures.waypoint(ServiceFixtures.dropoff, tripID: "trip-1", .dropOffWaypointType),
        ]
        // Every part the trip has is new at creation, so its version is the creation time; a trip
        // made through the API has no traffic, so no traffic version.
        let now = ServiceHarness.time(0)
        expected.currentRouteSegmentVersion = now
        expected.currentRouteSegmentTrafficVersion = nil
        expected.remainingWaypointsVersion = now
        expected.remainingWaypointsRouteVersion = now
        expected.intermediateDestinationsVersion = now
        #expect(trip == expected)
        #expect(try harness.get(expected.name) == expected)
    }

    @Test("intermediate destinations, vehicle waypoints and attributes are taken from the request")
    func optionalFieldsAreTaken() throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate()
        given.intermediateDestinations = ServiceFixtures.stops
        given.vehicleWaypoints = [ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "w", .pickupWaypointType)]
        var attribute = TripAttribute()
        attribute.key = "colour"
        attribute.tripAttributeValue = .stringValue("blue")
        given.attributes = [attribute]
        let trip = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "multi", trip: given))

        #expect(trip.intermediateDestinations == ServiceFixtures.stops)
        #expect(trip.vehicleWaypoints == given.vehicleWaypoints)
        #expect(trip.attributes == [attribute])
        #expect(
            trip.remainingWaypoints == [
                ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "multi", .pickupWaypointType),
                ServiceFixtures.waypoint(
                    ServiceFixtures.stops[0], tripID: "multi", .intermediateDestinationWaypointType),
                ServiceFixtures.waypoint(
                    ServiceFixtures.stops[1], tripID: "multi", .intermediateDestinationWaypointType),
                ServiceFixtures.waypoint(ServiceFixtures.dropoff, tripID: "multi", .dropOffWaypointType),
            ])
    }

    @Test("fields the server owns are ignored: name, status, route, times, versions")
    func serverOwnedFieldsAreIgnored() throws {
        let harness = ServiceHarness()
        var given = ServiceFixtures.tripToCreate()
        given.name = "providers/someone-else/trips/other"
        given.tripStatus = .complete
        given.route = [ServiceFixtures.point(1, 2), ServiceFixtures.point(3, 4)]
        given.currentRouteSegment = "abc"
        given.remainingDistanceMeters = 1_234
        given.pickupTime = ServiceHarness.time(-100)
        given.dropoffTime = ServiceHarness.time(-50)
        given.intermediateDestinationIndex = 3
        given.currentRouteSegmentVersion = ServiceHarness.time(9_999)
        given.remainingWaypoints = []
        given.view = .journeySharingV1s
        let trip = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "trip-1", trip: given))

        #expect(trip.name == "providers/test-project/trips/trip-1")
        #expect(trip.tripStatus == .new)
        #expect(trip.route == [])
        #expect(trip.currentRouteSegment == "")
        #expect(trip.remainingDistanceMeters == nil)
        #expect(trip.pickupTime == nil)
        #expect(trip.dropoffTime == nil)
        #expect(trip.intermediateDestinationIndex == 0)
        #expect(trip.currentRouteSegmentVersion == ServiceHarness.time(0))
        #expect(trip.remainingWaypoints.count == 2)
        #expect(trip.view == .unspecified)
    }

    enum MissingPart: String, CaseIterable, CustomTestStringConvertible {
        case trip, tripType, pickupPoint, pickupPointWithoutPoint

        var testDescription: String { rawValue }

        var request: CreateTripRequest {
            var trip = ServiceFixtures.tripToCreate()
            switch self {
            case .trip: return ServiceFixtures.createRequest(tripID: "t", trip: nil)
            case .tripType: trip.tripType = .unknownTripType
            case .pickupPoint: trip.pickupPoint = nil
            case .pickupPointWithoutPoint:
                var location = TerminalLocation()
                location.accessPointID = "gate-3"
                trip.pickupPoint = location
            }
            return ServiceFixtures.createRequest(tripID: "t", trip: trip)
        }

        var field: String {
            switch self {
            case .trip: "trip"
            case .tripType: "trip.trip_type"
            case .pickupPoint, .pickupPointWithoutPoint: "trip.pickup_point"
            }
        }
    }

    @Test(
        "a request without a required part is INVALID_ARGUMENT with a BadRequest violation of exactly that field",
        arguments: MissingPart.allCases)
    func requiredPartsAreChecked(_ missing: MissingPart) throws {
        let harness = ServiceHarness()
        let error = try #require(fleetEngineError { try harness.service.createTrip(missing.request) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == missing.field)
        #expect(fleetEngineError { try harness.get(ServiceFixtures.name("t")) }?.code == .notFound)
    }

    @Test("a SHARED trip with intermediate destinations is INVALID_ARGUMENT; an EXCLUSIVE one takes them")
    func intermediateDestinationsOnlyForExclusiveTrips() throws {
        let harness = ServiceHarness()
        var trip = ServiceFixtures.tripToCreate()
        var stop = TerminalLocation()
        stop.point = LatLng(latitude: 52.51, longitude: 13.39)
        trip.intermediateDestinations = [stop]
        trip.tripType = .shared
        let error = try #require(
            fleetEngineError { try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "s", trip: trip)) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "trip.intermediate_destinations")
        trip.tripType = .exclusive
        let created = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "e", trip: trip))
        #expect(created.intermediateDestinations == [stop])
    }

    @Test(
        "a malformed parent or trip_id is INVALID_ARGUMENT naming that request field",
        arguments: [
            ("projects/test-project", "trip-1", "parent"),
            ("providers/", "trip-1", "parent"),
            ("providers/a/b", "trip-1", "parent"),
            ("providers/test-project", "", "trip_id"),
            ("providers/test-project", "a/b", "trip_id"),
            ("providers/test-project", "a:b", "trip_id"),
        ])
    func malformedParentOrTripIDIsRefused(parent: String, tripID: String, field: String) throws {
        let harness = ServiceHarness()
        var request = ServiceFixtures.createRequest(tripID: tripID, trip: ServiceFixtures.tripToCreate())
        request.parent = parent
        let error = try #require(fleetEngineError { try harness.service.createTrip(request) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == field)
    }

    @Test("creating a name in use is ALREADY_EXISTS with ErrorInfo TRIP_ALREADY_EXISTS, and the first trip stays")
    func duplicateNameIsAlreadyExists() throws {
        let harness = ServiceHarness()
        let first = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        harness.clock.advance(by: .seconds(5))

        let error = try #require(fleetEngineError { try harness.createTrip("trip-1", vehicleID: "vehicle-2") })
        #expect(error.code == .alreadyExists)
        #expect(error.message == "trip providers/test-project/trips/trip-1 already exists")
        #expect(
            error.details == [
                ServiceFixtures.errorInfo(
                    reason: "TRIP_ALREADY_EXISTS", metadata: ["trip": "providers/test-project/trips/trip-1"])
            ])
        #expect(try harness.get(first.name) == first)
    }

    @Test("the same trip id under two providers names two trips")
    func tripIDsArePerProvider() throws {
        let harness = ServiceHarness()
        let first = try harness.createTrip("trip-1", provider: "provider-a")
        let second = try harness.createTrip("trip-1", provider: "provider-b")
        #expect(first.name == "providers/provider-a/trips/trip-1")
        #expect(second.name == "providers/provider-b/trips/trip-1")
    }
    @Test("of vehicle_waypoints only trip_id, waypoint_type and location are taken, by CreateTrip and UpdateTrip")
    func vehicleWaypointsKeepOnlyTheirStops() throws {
        let harness = ServiceHarness()
        let stop = ServiceFixtures.waypoint(ServiceFixtures.pickup, tripID: "w", .pickupWaypointType)
        var detailed = stop
        detailed.pathToWaypoint = [ServiceFixtures.point(37.0, -122.0), ServiceFixtures.point(37.1, -122.0)]
        detailed.encodedPathToWaypoint = EncodedPolyline.encode(detailed.pathToWaypoint)
        detailed.distanceMeters = 900
        detailed.eta = ServiceHarness.time(60)
        var given = ServiceFixtures.tripToCreate(vehicleID: "vehicle-1")
        given.vehicleWaypoints = [detailed]
        let created = try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "w", trip: given))
        #expect(created.vehicleWaypoints == [stop])
        let updated = try harness.update(ServiceFixtures.name("w"), ["vehicle_waypoints"], given)
        #expect(updated.vehicleWaypoints == [stop])
    }
}
