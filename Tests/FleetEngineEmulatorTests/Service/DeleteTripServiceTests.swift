import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("DeleteTrip: active trips with a vehicle are kept")
struct DeleteTripServiceTests {
    static func delete(_ harness: ServiceHarness, _ tripID: String) throws(FleetEngineError) {
        var request = DeleteTripRequest()
        request.name = ServiceFixtures.name(tripID)
        _ = try harness.service.deleteTrip(request)
    }

    @Test("an active trip assigned to a vehicle is FAILED_PRECONDITION TRIP_ACTIVE and stays")
    func activeTripWithVehicleIsKept() throws {
        let harness = ServiceHarness()
        let trip = try harness.createTrip("trip-1", vehicleID: "vehicle-1")
        let error = try #require(fleetEngineError { try Self.delete(harness, "trip-1") })
        #expect(error.code == .failedPrecondition)
        #expect(
            error.message
                == "trip providers/test-project/trips/trip-1 is active and assigned to vehicle vehicle-1; complete or "
                + "cancel it first")
        #expect(
            error.details == [
                ServiceFixtures.errorInfo(
                    reason: "TRIP_ACTIVE",
                    metadata: ["trip": "providers/test-project/trips/trip-1", "vehicleId": "vehicle-1"])
            ])
        #expect(try harness.get(trip.name) == trip)
    }

    @Test(
        "a trip without a vehicle, or one that has ended, is deleted and then NOT_FOUND",
        arguments: [(TripStatus.new, ""), (.enrouteToPickup, ""), (.complete, "vehicle-1"), (.canceled, "vehicle-1")])
    func deletableTripIsDeleted(status: TripStatus, vehicleID: String) throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1", vehicleID: vehicleID)
        try harness.createTrip("trip-2", vehicleID: vehicleID)
        if status != .new {
            var change = Trip()
            change.tripStatus = status
            try harness.update(ServiceFixtures.name("trip-1"), ["trip_status"], change)
        }
        try Self.delete(harness, "trip-1")

        #expect(fleetEngineError { try harness.get(ServiceFixtures.name("trip-1")) }?.code == .notFound)
        #expect(fleetEngineError { try Self.delete(harness, "trip-1") }?.code == .notFound)
        #expect(try harness.get(ServiceFixtures.name("trip-2")).name == ServiceFixtures.name("trip-2"))
        let listed = try harness.service.searchTrips(SearchTripsServiceTests.request())
        #expect(listed.trips.map(\.name) == [ServiceFixtures.name("trip-2")])
    }

    @Test("a deleted name can be created again, as a new trip")
    func deletedNameCanBeReused() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        try Self.delete(harness, "trip-1")
        harness.clock.advance(by: .seconds(7))
        let again = try harness.createTrip("trip-1")
        #expect(again.tripStatus == .new)
        #expect(again.currentRouteSegmentVersion == ServiceHarness.time(7))
    }

    @Test("deleting a trip that was never created is NOT_FOUND with ErrorInfo TRIP_NOT_FOUND")
    func unknownTripIsNotFound() throws {
        let harness = ServiceHarness()
        let error = try #require(fleetEngineError { try Self.delete(harness, "ghost") })
        #expect(error.code == .notFound)
        #expect(ServiceFixtures.errorInfoReason(error) == "TRIP_NOT_FOUND")
    }
}
