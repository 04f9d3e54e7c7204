import Foundation
import Testing

@testable import FleetTripsCLI

/// A terminal that records what is written to it; a class, so the test reads what the progress
/// wrote through its own copy of the sink.
final class RecordingTerminal: ByteSink {
    private(set) var bytes: [UInt8] = []
    var text: String { String(decoding: bytes, as: UTF8.self) }
    func write(_ bytes: [UInt8]) { self.bytes += bytes }
}

@Suite("fleettrips capture's progress line on a terminal")
struct CaptureProgressTests {
    static let capture = CaptureCommandTests.capture
    static let erase = "\r\u{1B}[K"

    @Test(
        "the line says the bytes read (of the size, when known), the messages and the rate",
        arguments: [
            (
                3 << 20, Int64(12 << 20), 1500, Duration.seconds(2),
                "capture: 3.0 MiB of 12.0 MiB (25%), 1500 messages, 1.5 MiB/s"
            ),
            (512, nil, 1, .zero, "capture: 512 B read, 1 message"),
            (1536, 1536, 0, .milliseconds(500), "capture: 1.5 KiB of 1.5 KiB (100%), 0 messages, 3.0 KiB/s"),
            // A file that grew while it was read stays at 100%.
            (2048, 1024, 7, .seconds(1), "capture: 2.0 KiB of 1.0 KiB (100%), 7 messages, 2.0 KiB/s"),
            (0, 0, 0, .zero, "capture: 0 B of 0 B, 0 messages"),
            (5_905_580_032, nil, 12, .seconds(2), "capture: 5.5 GiB read, 12 messages, 2.8 GiB/s"),
        ] as [(Int64, Int64?, Int, Duration, String)]
    )
    func line(bytesRead: Int64, totalBytes: Int64?, messages: Int, elapsed: Duration, expected: String) {
        #expect(
            CaptureProgress.line(bytesRead: bytesRead, totalBytes: totalBytes, messages: messages, elapsed: elapsed)
                == expected)
    }

    @Test("shown only on a terminal's standard error, never with --no-progress, nor beside records on a terminal")
    func shown() {
        let shown = { (noProgress: Bool, summary: Bool, errorTerminal: Bool, outputTerminal: Bool) in
            CaptureProgress.isShown(
                noProgress: noProgress, summary: summary, standardErrorIsTerminal: errorTerminal,
                standardOutputIsTerminal: outputTerminal)
        }
        #expect(shown(false, false, true, false))
        #expect(shown(false, true, true, true))
        #expect(!shown(false, false, false, false))
        #expect(!shown(false, true, false, true))
        #expect(!shown(true, false, true, false))
        #expect(!shown(true, true, true, true))
        #expect(!shown(false, false, true, true))
    }

    @Test("--no-progress turns it off whatever the terminal")
    func noProgressFlag() throws {
        let command = try #require(
            try CommandRunner.parse(["capture", "--no-progress", Self.capture]) as? CaptureCommand)
        #expect(command.noProgress)
        #expect(CaptureProgress.standardError(for: command) == nil)
        let defaults = try #require(try CommandRunner.parse(["capture", Self.capture]) as? CaptureCommand)
        #expect(!defaults.noProgress)
    }

    @Test("drawn first after the interval, at most once per interval, erased by clear and finish, never after finish")
    func drawing() {
        let terminal = RecordingTerminal()
        let start = ContinuousClock.now
        let progress = CaptureProgress(terminal: terminal, totalBytes: 4096, start: start)
        progress.read(1024)
        progress.decoded([], at: start + .milliseconds(100))
        #expect(terminal.text == "")
        progress.decoded([], at: start + .milliseconds(250))
        let drawn = "\rcapture: 1.0 KiB of 4.0 KiB (25%), 0 messages, 4.0 KiB/s\u{1B}[K"
        #expect(terminal.text == drawn)
        progress.decoded([], at: start + .milliseconds(400))
        #expect(terminal.text == drawn)
        progress.clear()
        #expect(terminal.text == drawn + Self.erase)
        progress.clear()
        progress.read(1024)
        progress.decoded([], at: start + .milliseconds(500))
        let redrawn = "\rcapture: 2.0 KiB of 4.0 KiB (50%), 0 messages, 4.0 KiB/s\u{1B}[K"
        #expect(terminal.text == drawn + Self.erase + redrawn)
        progress.finish()
        progress.decoded([], at: start + .seconds(10))
        progress.finish()
        #expect(terminal.text == drawn + Self.erase + redrawn + Self.erase)
    }

    @Test("a small input decoded within the interval draws nothing and erases nothing")
    func quickInput() throws {
        let command = try #require(try CommandRunner.parse(["capture", Self.capture]) as? CaptureCommand)
        let terminal = RecordingTerminal()
        var output: [UInt8] = []
        var notices: [UInt8] = []
        let progress = CaptureProgress(terminal: terminal, totalBytes: nil, start: .now + .seconds(3600))
        try command.run(output: &output, notices: &notices, progress: progress)
        #expect(terminal.bytes.isEmpty)
    }

    @Test("over a real capture: one line with the whole file and every message, erased at the end; output unchanged")
    func wholeCapture() throws {
        let command = try #require(try CommandRunner.parse(["capture", Self.capture]) as? CaptureCommand)
        var plainOutput: [UInt8] = []
        var notices: [UInt8] = []
        try command.run(output: &plainOutput, notices: &notices)

        let size = try #require(CaptureProgress.totalSize(of: [InputFile(path: Self.capture)]))
        #expect(size == Int64(try Data(contentsOf: URL(fileURLWithPath: Self.capture)).count))
        let terminal = RecordingTerminal()
        // Started long ago, so the first batch of records draws the line.
        let progress = CaptureProgress(terminal: terminal, totalBytes: size, start: .now - .seconds(3600))
        var output: [UInt8] = []
        try command.run(output: &output, notices: &notices, progress: progress)
        #expect(output == plainOutput)
        // Message lines have a top-level "message"; call ends have one only inside "status".
        let messages = try String(decoding: output, as: UTF8.self).split(separator: "\n").filter { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["message"] != nil
        }.count
        let sizeText = CaptureProgress.byteCount(size)
        let text = terminal.text
        #expect(text.hasPrefix("\rcapture: \(sizeText) of \(sizeText) (100%), \(messages) messages, "), "\(text)")
        #expect(text.hasSuffix("/s\u{1B}[K" + Self.erase), "\(text)")
    }

    @Test("a capture that ends in damage erases the line before the error is thrown")
    func erasedOnError() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.capture)))
        let path = NSTemporaryDirectory() + "progress-damaged-\(UUID().uuidString).pcap"
        try Data(whole.dropLast(3)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try #require(try CommandRunner.parse(["capture", path]) as? CaptureCommand)
        let terminal = RecordingTerminal()
        let progress = CaptureProgress(terminal: terminal, totalBytes: nil, start: .now - .seconds(3600))
        var output: [UInt8] = []
        var notices: [UInt8] = []
        #expect(throws: (any Error).self) { try command.run(output: &output, notices: &notices, progress: progress) }
        #expect(terminal.text.hasPrefix("\rcapture: "))
        #expect(terminal.text.hasSuffix(Self.erase))
        #expect(terminal.text.count(where: { $0 == "\r" }) == 2)
    }

    @Test("a pipe's size is not known; regular files' sizes add up")
    func totalSize() throws {
        var descriptors: [Int32] = [-1, -1]
        #expect(pipe(&descriptors) == 0)
        defer { for descriptor in descriptors { close(descriptor) } }
        let file = InputFile(path: Self.capture)
        let pipeEnd = InputFile(path: "/dev/fd/\(descriptors[0])")
        #expect(CaptureProgress.totalSize(of: [pipeEnd]) == nil)
        #expect(CaptureProgress.totalSize(of: [file, pipeEnd]) == nil)
        let size = try #require(CaptureProgress.totalSize(of: [file]))
        #expect(CaptureProgress.totalSize(of: [file, file]) == 2 * size)
    }
}
