import FleetEngineCodec
import FleetEngineJournal
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
        var last = Trip()
        // The first emulator is gone before the second starts: a folder serves one at a time.
        do {
            let first = try folder.emulator(clock: clock)
            _ = try PersistenceStoreTests.create(first, "gone")
            _ = try PersistenceStoreTests.create(first, "kept")
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
            report.name = ServiceFixtures.billableName("kept")
            report.countryCode = "DE"
            _ = try first.service.reportBillableTrip(report)
            #expect(Self.entryCount(try folder.journalBytes()) == 9)
        }

        let second = try folder.emulator(clock: clock)
        #expect(Self.entryCount(try folder.journalBytes()) == 2)
        #expect(try PersistenceStoreTests.get(second, "kept").numberOfPassengers == last.numberOfPassengers)
        #expect(fleetEngineError { try PersistenceStoreTests.get(second, "gone") }?.code == .notFound)
    }

    @Test("a journal in use is compacted whenever it has doubled past the floor, and replays to the same state")
    func compactsWhileRunning() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        let kept = try TripName(parsing: ServiceFixtures.name("kept"))
        let gone = try TripName(parsing: ServiceFixtures.name("gone"))
        var counts: [Int] = []
        do {
            // A floor of one byte: only the doubling decides.
            let store = try TripStore(time: clock, directory: folder.path, compactionFloor: 1)
            for name in [kept, gone] {
                var trip = Trip()
                trip.name = name.description
                _ = try store.create(trip)
            }
            for passengers in 1...300 {
                clock.advance(by: .seconds(1))
                _ = try store.update(kept) { $0.numberOfPassengers = Int32(passengers % 7) }
                counts.append(Self.entryCount(try folder.journalBytes()))
            }
            try store.delete(gone) { _ in }
            var report = ReportBillableTripRequest()
            report.name = ServiceFixtures.billableName("kept")
            report.countryCode = "DE"
            try store.reportBillable(report, name: kept)
        }
        // Two trips' entries at most twice over, and the one being appended: never the 300 updates.
        #expect(counts.max() ?? 0 <= 5)
        #expect(Self.entryCount(try folder.journalBytes()) <= 4)

        let reopened = try TripStore(time: clock, directory: folder.path)
        #expect(try reopened.get(kept).numberOfPassengers == Int32(300 % 7))
        #expect(fleetEngineError { try reopened.get(gone) }?.code == .notFound)
        #expect(reopened.billingReports.map(\.countryCode) == ["DE"])
        #expect(reopened.trips(providerID: ServiceFixtures.provider) { _, _ in true }.count == 1)
    }

    @Test("a journal below the floor is not compacted while running")
    func floorHoldsCompactionOff() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        let store = try TripStore(time: clock, directory: folder.path)
        let name = try TripName(parsing: ServiceFixtures.name("kept"))
        var trip = Trip()
        trip.name = name.description
        _ = try store.create(trip)
        for passengers in 1...20 {
            clock.advance(by: .seconds(1))
            _ = try store.update(name) { $0.numberOfPassengers = Int32(passengers) }
        }
        #expect(Self.entryCount(try folder.journalBytes()) == 21)
    }

    @Test("a simulated trip changed before a restart is kept as it was changed when the seed runs again")
    func changedSimulatedTripIsKept() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        let names: [String]
        let changed: Trip
        do {
            let first = try folder.emulator(clock: clock)
            names = try first.simulate(providerID: ServiceFixtures.provider, count: 1, seed: 3)
            var request = UpdateTripRequest()
            request.name = names[0]
            var change = Trip()
            change.numberOfPassengers = 4
            request.trip = change
            request.updateMask = FieldMask()
            request.updateMask?.paths = ["number_of_passengers"]
            changed = try first.service.updateTrip(request)
        }

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

    @Test("when a trip last changed survives a restart, so minimum_staleness still finds it")
    func stalenessSurvivesRestart() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        _ = try PersistenceStoreTests.create(try folder.emulator(clock: clock), "quiet")
        clock.advance(by: .seconds(3_600))
        let restarted = try folder.emulator(clock: clock)
        var request = SearchTripsServiceTests.request()
        var staleness = ProtobufDuration()
        staleness.seconds = 1_800
        request.minimumStaleness = staleness
        #expect(try restarted.service.searchTrips(request).trips.map(\.name) == [ServiceFixtures.name("quiet")])
    }

    @Test("a journal written before change times were kept (kind 1 entries) still opens")
    func olderJournalOpens() throws {
        let folder = try TemporaryDataDirectory()
        var trip = Trip()
        trip.name = ServiceFixtures.name("old")
        trip.tripType = .exclusive
        let payload = [UInt8(1)] + trip.serializedBytes()
        var bytes: [UInt8] = []
        for value in [UInt32(payload.count - 1), CRC32.checksum(payload)] {
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        try folder.writeJournal(bytes + payload)
        let emulator = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(emulator, "old").tripType == .exclusive)
    }
}
