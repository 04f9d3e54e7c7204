import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

@testable import FleetEngineEmulator

@Suite("Store journal damage: a torn last entry is dropped, corruption before it stops the start")
struct JournalDamageStoreTests {
    /// A folder whose journal holds three created trips, one entry each; returns the trips.
    static func journalOfThreeTrips(in folder: borrowing TemporaryDataDirectory) throws -> [Trip] {
        let clock = PersistenceStoreTests.clock()
        let emulator = try folder.emulator(clock: clock)
        var trips: [Trip] = []
        for id in ["trip-1", "trip-2", "trip-3"] {
            trips.append(try PersistenceStoreTests.create(emulator, id))
            clock.advance(by: .seconds(1))
        }
        return trips
    }

    @Test(
        "a last entry cut short by 1 to 9 bytes is dropped, and the entries before it are kept",
        arguments: [1, 3, 8, 9])
    func tornLastEntryIsDropped(cut: Int) throws {
        let folder = try TemporaryDataDirectory()
        let trips = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        #expect(offsets.count == 3)
        let bytes = try folder.journalBytes()
        try folder.writeJournal(Array(bytes.dropLast(cut)))

        let restarted = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(restarted, "trip-1") == trips[0])
        #expect(try PersistenceStoreTests.get(restarted, "trip-2") == trips[1])
        #expect(fleetEngineError { try PersistenceStoreTests.get(restarted, "trip-3") }?.code == .notFound)
        // The start compacted the journal to the entries it kept.
        #expect(try folder.journalBytes() == Array(bytes[0..<offsets[2]]))
    }

    @Test("a journal cut inside the last entry's header is dropped the same way")
    func tornHeaderIsDropped() throws {
        let folder = try TemporaryDataDirectory()
        let trips = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        let bytes = try folder.journalBytes()
        try folder.writeJournal(Array(bytes[0..<(offsets[2] + 5)]))

        let restarted = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(restarted, "trip-2") == trips[1])
        #expect(fleetEngineError { try PersistenceStoreTests.get(restarted, "trip-3") }?.code == .notFound)
    }

    @Test("writes after a dropped torn entry are kept by the next restart")
    func writesAfterRecoveryAreKept() throws {
        let folder = try TemporaryDataDirectory()
        _ = try Self.journalOfThreeTrips(in: folder)
        try folder.writeJournal(Array(try folder.journalBytes().dropLast(4)))

        let again: Trip
        let fourth: Trip
        do {
            let recovered = try folder.emulator(clock: PersistenceStoreTests.clock())
            again = try PersistenceStoreTests.create(recovered, "trip-3")
            fourth = try PersistenceStoreTests.create(recovered, "trip-4")
        }

        let restarted = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(restarted, "trip-3") == again)
        #expect(try PersistenceStoreTests.get(restarted, "trip-4") == fourth)
        #expect(try folder.entryOffsets().count == 4)
    }

    @Test(
        "a flipped byte in a middle entry stops the start with an error naming the entry's byte offset",
        arguments: [0, 9, 20])
    func corruptMiddleEntryStopsTheStart(byteInPayload: Int) throws {
        let folder = try TemporaryDataDirectory()
        _ = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        var bytes = try folder.journalBytes()
        // Past the 8-byte header: the kind byte (0) or the payload.
        bytes[offsets[1] + 8 + byteInPayload] ^= 0x40
        try folder.writeJournal(bytes)

        do {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
            Issue.record("the emulator started on a corrupt journal")
        } catch {
            #expect(error.code == .corruptJournal)
            #expect(error.message == "\(folder.journalPath) is corrupt at byte \(offsets[1]): checksum mismatch")
        }
        // Nothing was thrown away: the journal is as it was, for someone to look at.
        #expect(try folder.journalBytes() == bytes)
    }

    @Test(
        "a damaged length field in a middle entry that runs past the end stops the start, not drops the rest",
        arguments: [1, 2, 3])
    func damagedMiddleLengthStopsTheStart(lengthByte: Int) throws {
        let folder = try TemporaryDataDirectory()
        _ = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        var bytes = try folder.journalBytes()
        // The length now claims more than is left in the file.
        bytes[offsets[1] + lengthByte] = 0xFF
        try folder.writeJournal(bytes)

        do {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
            Issue.record("the emulator started on a journal whose middle entry has a damaged length")
        } catch {
            #expect(error.code == .corruptJournal)
            #expect(error.message.hasPrefix("\(folder.journalPath) is corrupt at byte \(offsets[1]): its length"))
            #expect(error.message.hasSuffix("yet a whole entry starts at byte \(offsets[2])"))
        }
        #expect(try folder.journalBytes() == bytes)
    }

    @Test("a flipped checksum byte in the first entry stops the start at byte 0")
    func corruptFirstEntryStopsTheStart() throws {
        let folder = try TemporaryDataDirectory()
        _ = try Self.journalOfThreeTrips(in: folder)
        var bytes = try folder.journalBytes()
        bytes[5] ^= 0x01
        try folder.writeJournal(bytes)

        do {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
            Issue.record("the emulator started on a corrupt journal")
        } catch {
            #expect(error.code == .corruptJournal)
            #expect(error.message == "\(folder.journalPath) is corrupt at byte 0: checksum mismatch")
        }
    }

    @Test("a flipped byte in the complete last entry drops that entry only, as a write never acknowledged")
    func corruptLastEntryIsDropped() throws {
        let folder = try TemporaryDataDirectory()
        let trips = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        var bytes = try folder.journalBytes()
        bytes[offsets[2] + 12] ^= 0xFF
        try folder.writeJournal(bytes)

        let restarted = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(restarted, "trip-2") == trips[1])
        #expect(fleetEngineError { try PersistenceStoreTests.get(restarted, "trip-3") }?.code == .notFound)
    }

    @Test(
        "a last entry that reads as zeros (the file grew, its data never reached the disk) is dropped",
        arguments: [9, 40, 0])
    func zeroedLastEntryIsDropped(zeroBytes: Int) throws {
        let folder = try TemporaryDataDirectory()
        let trips = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        let bytes = try folder.journalBytes()
        // 0: the last entry's own length; otherwise a tail of that many zeros after it was cut off.
        let zeros = zeroBytes == 0 ? bytes.count - offsets[2] : zeroBytes
        try folder.writeJournal(Array(bytes[0..<offsets[2]]) + [UInt8](repeating: 0, count: zeros))

        let restarted = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try PersistenceStoreTests.get(restarted, "trip-1") == trips[0])
        #expect(try PersistenceStoreTests.get(restarted, "trip-2") == trips[1])
        #expect(fleetEngineError { try PersistenceStoreTests.get(restarted, "trip-3") }?.code == .notFound)
        #expect(try folder.journalBytes() == Array(bytes[0..<offsets[2]]))
    }

    @Test("zeros in the middle of the journal, with a whole entry after them, stop the start at their first byte")
    func zerosBeforeAnEntryStopTheStart() throws {
        let folder = try TemporaryDataDirectory()
        _ = try Self.journalOfThreeTrips(in: folder)
        let offsets = try folder.entryOffsets()
        var bytes = try folder.journalBytes()
        for index in offsets[1]..<offsets[2] { bytes[index] = 0 }
        try folder.writeJournal(bytes)

        do {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
            Issue.record("the emulator started on a journal with zeros before a whole entry")
        } catch {
            #expect(error.code == .corruptJournal)
            #expect(error.message == "\(folder.journalPath) is corrupt at byte \(offsets[1]): checksum mismatch")
        }
        #expect(try folder.journalBytes() == bytes)
    }

    @Test("an empty journal file starts an empty emulator")
    func emptyJournalIsEmpty() throws {
        let folder = try TemporaryDataDirectory()
        try folder.writeJournal([])
        let emulator = try folder.emulator(clock: PersistenceStoreTests.clock())
        #expect(try emulator.service.searchTrips(SearchTripsServiceTests.request()).trips == [])
        #expect(emulator.billingReports == [])
    }
}
