import FleetEngineCapture
import Foundation
import Testing

@testable import FleetTripsCLI

/// `fleettrips capture` on a capture file whose last record is cut short (tcpdump killed,
/// the disk filled, a file copied while tcpdump was writing it) or whose last record is corrupt.
/// tshark/tcpdump print every packet before the damage and then say the file is cut short; the
/// calls the capture holds whole must be printed too, before the error.
@Suite("A damaged tail does not take the capture's whole output with it")
struct CaptureCommandDamagedTailTests {
    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetEngineCaptureTests/Fixtures/grpcio-tripservice.pcap").path

    /// Runs the command on `bytes` written to a temporary file; returns the lines it wrote and the
    /// error it threw, if any.
    static func run(on bytes: [UInt8]) throws -> (lines: [[String: Any]], error: (any Error)?) {
        let path = NSTemporaryDirectory() + "damaged-tail-\(UUID().uuidString).pcap"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try #require(try CommandRunner.parse(["capture", path]) as? CaptureCommand)
        var output: [UInt8] = []
        var thrown: (any Error)?
        do { try command.run(output: &output) } catch { thrown = error }
        let lines = try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        return (lines, thrown)
    }

    @Test("the last record cut 3 bytes short (a bare FIN): the 10 calls before it are still printed")
    func truncatedLastRecord() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.capture)))
        let complete = try Self.run(on: whole)
        #expect(complete.error == nil)
        #expect(complete.lines.filter { $0["status"] != nil }.count == 10)

        let (lines, error) = try Self.run(on: Array(whole.dropLast(3)))
        #expect(error != nil)  // the truncation is an error, as it should be
        // ...but everything the capture holds whole must come out first.
        #expect(lines.filter { $0["status"] != nil }.count == 10, "got \(lines.count) lines")
    }

    @Test("a corrupt record header appended after the calls: the 10 calls before it are still printed")
    func corruptRecordAfterTheCalls() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.capture)))
        // A pcap record header (little-endian file) claiming 0xFFFFFFFF captured bytes.
        let corrupt: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let (lines, error) = try Self.run(on: whole + corrupt)
        #expect(error != nil)
        #expect(lines.filter { $0["status"] != nil }.count == 10, "got \(lines.count) lines")
    }
}
