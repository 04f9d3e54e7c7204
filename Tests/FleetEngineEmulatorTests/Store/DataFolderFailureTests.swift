import FleetEngineCodec
import FleetEngineJournal
import Foundation
import NIOCore
import Testing

@testable import FleetEngineEmulator

/// A data folder the emulator cannot use: the error says which file and why, and carries the
/// system's error number.
@Suite("Data folder failures: storageFailed, with the system's error number as the cause")
struct DataFolderFailureTests {
    @Test(
        "a lock file or journal that is a folder: the emulator is refused, naming the file, with EISDIR",
        arguments: [("trips.lock", "cannot open"), ("trips.journal", "cannot read")])
    func fileIsAFolder(name: String, failure: String) throws {
        let folder = try TemporaryDataDirectory()
        let path = folder.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)

        let error = try #require(throws: EmulatorError.self) {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
        }
        #expect(error.code == .storageFailed)
        #expect(error.message == "\(failure) \(path): \(String(cString: strerror(EISDIR)))")
        #expect((error.cause as? IOError)?.errnoCode == EISDIR)
    }

    @Test("a data folder that is a file: the emulator is refused with ENOTDIR, not a folder in use")
    func folderIsAFile() throws {
        let folder = try TemporaryDataDirectory()
        let file = folder.path + "/not-a-folder"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1])))
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.dataDirectory = file

        let error = try #require(throws: EmulatorError.self) {
            _ = try FleetEngineEmulator(configuration: configuration)
        }
        #expect(error.code == .storageFailed)
        #expect(error.message.hasPrefix("cannot open \(file)/trips.lock: "))
        #expect((error.cause as? IOError)?.errnoCode == ENOTDIR)
    }

    @Test("a journal entry the codec cannot read is a corrupt journal, with the codec's error as the cause")
    func unreadableEntry() throws {
        let folder = try TemporaryDataDirectory()
        // One entry of kind 1 (a trip) whose payload is the bytes of a field cut short: tag 1
        // (name, length-delimited) promising 5 bytes and giving 1. The checksum is right, so only
        // the codec can find the fault.
        let payload: [UInt8] = [1, 0x0A, 0x05, 0x41]
        var entry: [UInt8] = []
        let length = UInt32(payload.count - 1)
        let checksum = CRC32.checksum(payload)
        for shift in stride(from: 0, to: 32, by: 8) { entry.append(UInt8(truncatingIfNeeded: length >> shift)) }
        for shift in stride(from: 0, to: 32, by: 8) { entry.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
        entry += payload
        try folder.writeJournal(entry)

        let error = try #require(throws: EmulatorError.self) {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
        }
        #expect(error.code == .corruptJournal)
        #expect(error.message.hasPrefix("\(folder.journalPath) has an unreadable entry at byte 0: "))
        #expect(error.cause is CodecError)
    }
}
