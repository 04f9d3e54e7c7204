import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("Enum values a request names must be ones the schema names, or the request is INVALID_ARGUMENT")
struct TripStatusValueTests {
    @Test(
        "UpdateTrip to UNKNOWN_TRIP_STATUS or an unnamed status is INVALID_ARGUMENT on trip.trip_status, nothing stored",
        arguments: [Int32(0), 9, 42, -1])
    func unnamedStatusIsRefused(_ rawStatus: Int32) throws {
        let harness = ServiceHarness()
        let before = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        harness.clock.advance(by: .seconds(1))
        var change = Trip()
        change.tripStatus = TripStatus(rawValue: rawStatus)
        change.numberOfPassengers = 3
        let error = try #require(
            fleetEngineError {
                try harness.update(UpdateTripServiceTests.name, ["number_of_passengers", "trip_status"], change)
            })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "trip.trip_status")
        #expect(
            error.message
                == "trip_status \(rawStatus) is not a status a trip can be set to: NEW, ENROUTE_TO_PICKUP, "
                + "ARRIVED_AT_PICKUP, ARRIVED_AT_INTERMEDIATE_DESTINATION, ENROUTE_TO_INTERMEDIATE_DESTINATION, "
                + "ENROUTE_TO_DROPOFF, COMPLETE or CANCELED")
        #expect(try harness.get(UpdateTripServiceTests.name) == before)
    }

    @Test("CreateTrip with an unnamed trip_type is INVALID_ARGUMENT on trip.trip_type, and nothing is created")
    func unnamedTripTypeIsRefused() throws {
        let harness = ServiceHarness()
        var trip = ServiceFixtures.tripToCreate()
        trip.tripType = TripType(rawValue: 7)
        let error = try #require(
            fleetEngineError {
                try harness.service.createTrip(ServiceFixtures.createRequest(tripID: "trip-1", trip: trip))
            })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "trip.trip_type")
        #expect(error.message == "trip_type is required (SHARED or EXCLUSIVE)")
        #expect(fleetEngineError { try harness.get(ServiceFixtures.name("trip-1")) }?.code == .notFound)
    }
}
