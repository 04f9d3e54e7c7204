import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

@testable import FleetEngineEmulator

@Suite("Store persistence: what an emulator with a data folder keeps across restarts")
struct PersistenceStoreTests {
    static func clock() -> ManualTimeSource {
        ManualTimeSource(start: ServiceHarness.time(0))
    }

    static func create(_ emulator: FleetEngineEmulator, _ tripID: String, vehicleID: String = "")
        throws(FleetEngineError) -> Trip
    {
        try emulator.service.createTrip(
            ServiceFixtures.createRequest(tripID: tripID, trip: ServiceFixtures.tripToCreate(vehicleID: vehicleID)))
    }

    static func get(_ emulator: FleetEngineEmulator, _ tripID: String) throws(FleetEngineError) -> Trip {
        var request = GetTripRequest()
        request.name = ServiceFixtures.name(tripID)
        return try emulator.service.getTrip(request)
    }

    @Test("created and updated trips, versions included, survive a restart on the same folder")
    func writesSurviveRestart() throws {
        let folder = try TemporaryDataDirectory()
        let clock = Self.clock()
        let untouched: Trip
        let updated: Trip
        // Gone before the restart: a data folder serves one emulator at a time.
        do {
            let first = try folder.emulator(clock: clock)
            untouched = try Self.create(first, "trip-1")
            _ = try Self.create(first, "trip-2", vehicleID: "vehicle-1")
            clock.advance(by: .seconds(30))
            var request = UpdateTripRequest()
            request.name = ServiceFixtures.name("trip-2")
            var change = Trip()
            change.tripStatus = .enrouteToDropoff
            change.intermediateDestinations = ServiceFixtures.stops
            request.trip = change
            var mask = FieldMask()
            mask.paths = ["trip_status", "intermediate_destinations"]
            request.updateMask = mask
            updated = try first.service.updateTrip(request)
            #expect(updated.intermediateDestinationsVersion == ServiceHarness.time(30))
        }

        clock.advance(by: .seconds(3_600))
        let second = try folder.emulator(clock: clock)
        #expect(try Self.get(second, "trip-1") == untouched)
        var expected = updated
        expected.currentRouteSegment = ""
        #expect(try Self.get(second, "trip-2") == expected)
        let listed = try second.service.searchTrips(SearchTripsServiceTests.request())
        #expect(listed.trips.map(\.name) == [ServiceFixtures.name("trip-1"), ServiceFixtures.name("trip-2")])
    }

    @Test("a name in use stays in use after a restart")
    func namesStayTaken() throws {
        let folder = try TemporaryDataDirectory()
        let clock = Self.clock()
        _ = try Self.create(try folder.emulator(clock: clock), "trip-1")
        let restarted = try folder.emulator(clock: clock)
        let error = try #require(fleetEngineError { try Self.create(restarted, "trip-1") })
        #expect(error.code == .alreadyExists)
    }

    @Test("a deleted trip stays deleted after a restart")
    func deletesSurviveRestart() throws {
        let folder = try TemporaryDataDirectory()
        let clock = Self.clock()
        let kept: Trip
        do {
            let first = try folder.emulator(clock: clock)
            _ = try Self.create(first, "trip-1")
            kept = try Self.create(first, "trip-2")
            var delete = DeleteTripRequest()
            delete.name = ServiceFixtures.name("trip-1")
            _ = try first.service.deleteTrip(delete)
        }
        do {
            let second = try folder.emulator(clock: clock)
            #expect(fleetEngineError { try Self.get(second, "trip-1") }?.code == .notFound)
            #expect(try Self.get(second, "trip-2") == kept)
        }
        // And a third start replays the compacted journal the second one wrote.
        let third = try folder.emulator(clock: clock)
        #expect(fleetEngineError { try Self.get(third, "trip-1") }?.code == .notFound)
        #expect(try Self.get(third, "trip-2") == kept)
    }

    @Test("billing reports survive a restart, in order, and new ones are added after them")
    func billingReportsSurviveRestart() throws {
        let folder = try TemporaryDataDirectory()
        let clock = Self.clock()
        let us = ReportBillableTripServiceTests.report("trip-1", country: "US")
        let fr = ReportBillableTripServiceTests.report("trip-1", country: "FR")
        let br = ReportBillableTripServiceTests.report("trip-1", country: "BR")
        do {
            let first = try folder.emulator(clock: clock)
            _ = try Self.create(first, "trip-1")
            _ = try first.service.reportBillableTrip(us)
            _ = try first.service.reportBillableTrip(fr)
        }
        do {
            let second = try folder.emulator(clock: clock)
            #expect(second.billingReports == [us, fr])
            _ = try second.service.reportBillableTrip(br)
        }
        #expect(try folder.emulator(clock: clock).billingReports == [us, fr, br])
    }

    @Test("refused writes leave nothing in the journal")
    func refusedWritesAreNotJournaled() throws {
        let folder = try TemporaryDataDirectory()
        let clock = Self.clock()
        let emulator = try folder.emulator(clock: clock)
        _ = try Self.create(emulator, "trip-1", vehicleID: "vehicle-1")
        let before = try folder.journalBytes()
        #expect(fleetEngineError { try Self.create(emulator, "trip-1") }?.code == .alreadyExists)
        var delete = DeleteTripRequest()
        delete.name = ServiceFixtures.name("trip-1")
        #expect(fleetEngineError { try emulator.service.deleteTrip(delete) }?.code == .failedPrecondition)
        let badReport = ReportBillableTripServiceTests.report("trip-1", country: "")
        #expect(fleetEngineError { try emulator.service.reportBillableTrip(badReport) }?.code == .invalidArgument)
        #expect(try folder.journalBytes() == before)
    }

    @Test("a data folder that does not exist yet is created")
    func missingFolderIsCreated() throws {
        let folder = try TemporaryDataDirectory()
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.dataDirectory = folder.path + "/nested"
        do {
            let emulator = try FleetEngineEmulator(configuration: configuration, time: Self.clock())
            _ = try Self.create(emulator, "trip-1")
            #expect(FileManager.default.fileExists(atPath: folder.path + "/nested/trips.journal"))
        }
        let restarted = try FleetEngineEmulator(configuration: configuration, time: Self.clock())
        #expect(try Self.get(restarted, "trip-1").name == ServiceFixtures.name("trip-1"))
    }
}
