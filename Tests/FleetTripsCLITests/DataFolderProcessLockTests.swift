import FleetEngineEmulator
import Foundation
import Testing

/// A data folder held by an emulator in another process.
@Suite("fleettrips serve --data holds its folder against emulators in other processes")
struct DataFolderProcessLockTests {
    @Test("an emulator made while a serve process holds the folder is refused; once it stops, the folder is free")
    func otherProcessHoldsTheFolder() async throws {
        try await JournalWriteFailureTests.withDataFolder { folder in
            var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
            configuration.dataDirectory = folder
            let (_, ending) = try await ServeProcess.with(dataDirectory: folder) { _ in
                let error = try #require(throws: EmulatorError.self) {
                    _ = try FleetEngineEmulator(configuration: configuration)
                }
                #expect(error.code == .dataFolderInUse)
                #expect(
                    error.message
                        == "\(folder) is in use by another emulator: a data folder serves one emulator at a time")
            }
            #expect(ending.status == 0, "\(ending.errorOutput)")
            _ = try FleetEngineEmulator(configuration: configuration)
        }
    }
}
