import FleetEngineCodec
import Foundation
import NIOCore
import Testing

@testable import FleetEngineEmulator

/// The data folder holds riders' trips: only its owner may read it, and a symbolic link put in
/// place of one of its files is refused, not followed.
@Suite("Data folder: created 0700, files 0600, symbolic links refused")
struct DataFolderPermissionTests {
    /// The permission bits of the file at `path`, read with `lstat` (a link's own, not its target's).
    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return status.st_mode & 0o7777
    }

    @Test("a folder the emulator creates is 0700, and its journal and lock file are 0600")
    func createdOwnerOnly() throws {
        let parent = try TemporaryDataDirectory()
        let path = parent.path + "/data"
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.dataDirectory = path
        let emulator = try FleetEngineEmulator(configuration: configuration, time: PersistenceStoreTests.clock())
        _ = try PersistenceStoreTests.create(emulator, "trip-1")

        #expect(try Self.mode(path) == 0o700)
        #expect(try Self.mode(path + "/trips.journal") == 0o600)
        #expect(try Self.mode(path + "/trips.lock") == 0o600)
    }

    @Test("a journal left world-readable (0644) is rewritten 0600 when the emulator starts")
    func existingJournalBecomesOwnerOnly() throws {
        let folder = try TemporaryDataDirectory()
        try folder.writeJournal([])
        #expect(chmod(folder.journalPath, 0o644) == 0)
        let temporary = folder.journalPath + ".tmp"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data([0])))
        #expect(chmod(temporary, 0o644) == 0)

        let emulator = try folder.emulator(clock: PersistenceStoreTests.clock())
        _ = try PersistenceStoreTests.create(emulator, "trip-1")

        #expect(try Self.mode(folder.journalPath) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test("a symbolic link in place of the journal is refused with ELOOP; the file it names is not read")
    func journalLinkRefused() throws {
        let folder = try TemporaryDataDirectory()
        let elsewhere = folder.path + "/elsewhere"
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data([1, 2, 3])))
        #expect(symlink(elsewhere, folder.journalPath) == 0)

        let error = try #require(throws: EmulatorError.self) {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
        }
        #expect(error.code == .storageFailed)
        #expect(
            error.message
                == "cannot open \(folder.journalPath): it is a symbolic link, which the emulator does not follow "
                + "(\(String(cString: strerror(ELOOP))))")
        #expect((error.cause as? IOError)?.errnoCode == ELOOP)
        #expect(FileManager.default.contents(atPath: elsewhere) == Data([1, 2, 3]))
    }

    @Test("a symbolic link in place of the journal's temporary file is refused; the file it names is not written")
    func temporaryLinkRefused() throws {
        let folder = try TemporaryDataDirectory()
        let elsewhere = folder.path + "/elsewhere"
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data([1, 2, 3])))
        let temporary = folder.journalPath + ".tmp"
        #expect(symlink(elsewhere, temporary) == 0)

        let error = try #require(throws: EmulatorError.self) {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
        }
        #expect(error.code == .storageFailed)
        #expect(error.message.hasPrefix("cannot create \(temporary): it is a symbolic link"))
        #expect((error.cause as? IOError)?.errnoCode == ELOOP)
        #expect(FileManager.default.contents(atPath: elsewhere) == Data([1, 2, 3]))
        #expect(!FileManager.default.fileExists(atPath: folder.journalPath))
    }

    @Test("a symbolic link in place of the lock file is refused with ELOOP")
    func lockLinkRefused() throws {
        let folder = try TemporaryDataDirectory()
        let elsewhere = folder.path + "/elsewhere"
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data()))
        #expect(symlink(elsewhere, folder.path + "/trips.lock") == 0)

        let error = try #require(throws: EmulatorError.self) {
            _ = try folder.emulator(clock: PersistenceStoreTests.clock())
        }
        #expect(error.code == .storageFailed)
        #expect(
            error.message.hasSuffix(
                "/trips.lock: it is a symbolic link, which the emulator does not follow "
                    + "(\(String(cString: strerror(ELOOP))))"))
        #expect((error.cause as? IOError)?.errnoCode == ELOOP)
    }
}
