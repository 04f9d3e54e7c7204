import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("What a restart leaves in the data folder: each trip once, and simulated trips that were changed")
struct JournalCompactionTests {
    /// The number of entries in a journal's bytes (each: 4-byte length, 4-byte CRC, kind, payload).
    static func entryCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            offset += 9 + length
            count += 1
        }
        return count
    }

    @Test("a restart rewrites the journal as the last version of each trip still there, and the billing reports")
    func restartCompacts() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        let first = try folder.emulator(clock: clock)
        _ = try PersistenceStoreTests.create(first, "gone")
        _ = try PersistenceStoreTests.create(first, "kept")
        var last = Trip()
        for passengers in 1...5 {
            clock.advance(by: .seconds(1))
            var request = UpdateTripRequest()
            request.name = ServiceFixtures.name("kept")
            var change = Trip()
            change.numberOfPassengers = Int32(passengers)
            request.trip = change
            request.updateMask = FieldMask()
            request.updateMask?.paths = ["number_of_passengers"]
            last = try first.service.updateTrip(request)
        }
        var delete = DeleteTripRequest()
        delete.name = ServiceFixtures.name("gone")
        _ = try first.service.deleteTrip(delete)
        var report = ReportBillableTripRequest()
        report.name = ServiceFixtures.name("kept")
        report.countryCode = "DE"
        _ = try first.service.reportBillableTrip(report)
        #expect(Self.entryCount(try folder.journalBytes()) == 9)

        let second = try folder.emulator(clock: clock)
        #expect(Self.entryCount(try folder.journalBytes()) == 2)
        #expect(try PersistenceStoreTests.get(second, "kept").numberOfPassengers == last.numberOfPassengers)
        #expect(fleetEngineError { try PersistenceStoreTests.get(second, "gone") }?.code == .notFound)
    }

    @Test("a simulated trip changed before a restart is kept as it was changed when the seed runs again")
    func changedSimulatedTripIsKept() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        let first = try folder.emulator(clock: clock)
        let names = try first.simulate(providerID: ServiceFixtures.provider, count: 1, seed: 3)
        var request = UpdateTripRequest()
        request.name = names[0]
        var change = Trip()
        change.numberOfPassengers = 4
        request.trip = change
        request.updateMask = FieldMask()
        request.updateMask?.paths = ["number_of_passengers"]
        let changed = try first.service.updateTrip(request)

        let second = try folder.emulator(clock: clock)
        let error = try #require(
            fleetEngineError { try second.simulate(providerID: ServiceFixtures.provider, count: 1, seed: 3) })
        #expect(error.code == .alreadyExists)
        let again = try second.simulate(
            providerID: ServiceFixtures.provider, count: 1, seed: 3, keepingStoredTrips: true)
        #expect(again == names)
        var get = GetTripRequest()
        get.name = names[0]
        #expect(try second.service.getTrip(get).numberOfPassengers == changed.numberOfPassengers)
    }
}
