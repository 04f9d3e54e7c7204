import ArgumentParser
import FleetEngineCapture
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips capture --keylog-file: TLS captures print as cleartext ones, and say what they cannot read")
struct CaptureCommandTLSTests {
    /// The TLS fixtures of the capture tests (Scripts/make-tls-capture-fixtures.py): curl posting a
    /// CreateTrip and GetTrips to `fleettrips serve --tls-cert` with SSLKEYLOGFILE set.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetEngineCaptureTests/Fixtures/TLS")

    static func path(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    static func run(_ arguments: [String]) throws -> (lines: [[String: Any]], notices: String) {
        let command = try #require(try CommandRunner.parse(["capture"] + arguments) as? CaptureCommand)
        var output: [UInt8] = []
        var notices: [UInt8] = []
        try command.run(output: &output, notices: &notices)
        let lines = try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        return (lines, String(decoding: notices, as: UTF8.self))
    }

    @Test(
        "with its key log, a TLS 1.3 and a TLS 1.2 capture give message lines and OK call ends, and no note",
        arguments: ["tls13-chacha20", "tls12-ecdhe-rsa-aes256gcm"])
    func decrypted(name: String) throws {
        let (lines, notices) = try Self.run([Self.path("\(name).pcap"), "--keylog-file", Self.path("\(name).keys")])
        #expect(notices.isEmpty)
        #expect(lines.allSatisfy { $0["problem"] == nil })
        let messages = lines.filter { $0["message"] != nil }
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { ($0["type"] as? String)?.hasPrefix("maps.fleetengine.v1.") == true })
        let ends = lines.filter { $0["status"] != nil }
        #expect(!ends.isEmpty)
        #expect(ends.allSatisfy { ($0["status"] as? [String: Any])?["name"] as? String == "OK" })
    }

    @Test("--summary and --only-method work on the decrypted calls as on cleartext ones")
    func summaryAndFilter() throws {
        let keys = ["--keylog-file", Self.path("tls13-aes128gcm.keys")]
        let all = try Self.run([Self.path("tls13-aes128gcm.pcap")] + keys).lines.filter { $0["status"] != nil }
        let gets = try Self.run([Self.path("tls13-aes128gcm.pcap"), "--only-method", "GetTrip"] + keys).lines
        #expect(!gets.isEmpty)
        #expect(gets.allSatisfy { ($0["method"] as? String)?.hasSuffix("/GetTrip") == true })
        #expect(gets.filter { $0["status"] != nil }.count < all.count)
        let summary = try Self.run([Self.path("tls13-aes128gcm.pcap"), "--summary"] + keys).lines
        #expect(summary.count == 1)
        let methods = try #require(summary.first?["methods"] as? [[String: Any]])
        #expect(methods.compactMap { $0["calls"] as? Int }.reduce(0, +) == all.count)
        #expect(summary.first?["problems"] as? Int == 0)
    }

    @Test("without a key log: a problem line and one note naming TLS, the key log and --keylog-file; no messages")
    func withoutKeyLog() throws {
        let (lines, notices) = try Self.run([Self.path("tls13-aes128gcm.pcap")])
        #expect(lines.allSatisfy { $0["message"] == nil && $0["status"] == nil })
        #expect(lines.count == 1)
        let noteLines = notices.split(separator: "\n")
        #expect(noteLines.count == 1)
        let note = String(noteLines.first ?? "")
        #expect(note.hasPrefix("note: TLS on 127.0.0.1:"))
        #expect(note.contains("key log"))
        #expect(note.contains("--keylog-file KEYS"))
    }

    @Test("a key log for none of the capture's connections is a note, not an error")
    func unusedKeyLog() throws {
        let (_, notices) = try Self.run([
            Self.path("tls13-aes128gcm.pcap"), "--keylog-file", Self.path("tls12-ecdhe-rsa-chacha20.keys"),
        ])
        #expect(notices.contains("note: the key log holds secrets for 1 TLS connections"))
    }

    @Test("a malformed key log line is an error naming the file and the line, without the secret")
    func malformedKeyLog() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID()).log").path
        let secret = String(repeating: "ab", count: 48)
        let text =
            "# a comment\r\n\r\nCLIENT_RANDOM \(String(repeating: "01", count: 32)) \(secret)\r\nCLIENT_RANDOM 0102 \(secret)\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: CaptureError.self) {
            try Self.run([Self.path("tls13-aes128gcm.pcap"), "--keylog-file", path])
        }
        #expect(error.code == .malformedKeyLog)
        #expect(error.message == "\(path) line 4: the client random has 2 bytes instead of 32")
        #expect(!error.description.contains(secret))
    }

    @Test("--keylog-file with --h2 is a usage error")
    func keyLogWithRawHTTP2() throws {
        #expect(throws: (any Error).self) {
            try CommandRunner.parse(["capture", "--h2", "client.bin", "--keylog-file", "keys.log"])
        }
    }
}
