import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("One emulator per data folder: a second one on a folder in use is refused")
struct DataFolderLockTests {
    @Test("a second emulator on a folder in use is refused, naming the folder, and the first keeps every write")
    func secondEmulatorIsRefused() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        do {
            let first = try folder.emulator(clock: clock)
            _ = try PersistenceStoreTests.create(first, "trip-1")
            do {
                _ = try folder.emulator(clock: clock)
                Issue.record("a second emulator opened a data folder in use")
            } catch {
                #expect(
                    error.message
                        == "\(folder.path) is in use by another emulator: a data folder serves one emulator at a time")
            }
            // Acknowledged after the second start was tried: it must survive the restart below.
            _ = try PersistenceStoreTests.create(first, "trip-2")
        }

        let restarted = try folder.emulator(clock: clock)
        let names = try restarted.service.searchTrips(SearchTripsServiceTests.request()).trips.map(\.name)
        #expect(names == [ServiceFixtures.name("trip-1"), ServiceFixtures.name("trip-2")])
    }

    @Test("the folder is free again once the emulator holding it is gone")
    func folderIsFreedWithTheEmulator() throws {
        let folder = try TemporaryDataDirectory()
        let clock = PersistenceStoreTests.clock()
        do {
            _ = try PersistenceStoreTests.create(try folder.emulator(clock: clock), "trip-1")
        }
        let restarted = try folder.emulator(clock: clock)
        #expect(try PersistenceStoreTests.get(restarted, "trip-1").name == ServiceFixtures.name("trip-1"))
    }
}
