import FleetEngineCodec
import Foundation
import Testing

@testable import FleetEngineEmulator

/// A fresh, empty folder for one test's journal, removed when the test is done with it.
struct TemporaryDataDirectory: ~Copyable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleet-engine-emulator-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The journal the store keeps in the folder.
    var journalPath: String { path + "/trips.journal" }

    func journalBytes() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: journalPath)))
    }

    func writeJournal(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: journalPath))
    }

    /// Where each journal entry starts, read from the length fields (4 bytes little-endian payload
    /// length, 4 bytes CRC, a kind byte, the payload), and the offset just past the last one.
    func entryOffsets() throws -> [Int] {
        let bytes = try journalBytes()
        var offsets: [Int] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            offsets.append(offset)
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << ($1 * 8) }
            offset += 9 + length
        }
        #expect(offset == bytes.count, "the journal does not end on an entry boundary")
        return offsets
    }

    /// An emulator keeping its trips in this folder, on `clock`.
    func emulator(clock: ManualTimeSource) throws(EmulatorError) -> FleetEngineEmulator {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.dataDirectory = path
        return try FleetEngineEmulator(configuration: configuration, time: clock)
    }
}
