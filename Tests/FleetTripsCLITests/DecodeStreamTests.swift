import FleetEngineCodec
import FleetEngineTestSupport
import FleetEngineWire
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

#if canImport(Glibc)
    import Glibc
#endif

@Suite("fleettrips decode --grpc-frames reads its input a piece at a time")
struct DecodeStreamTests {
    /// The write end of a pipe, closed at most once by whichever side gets there first.
    final class PipeWriter: @unchecked Sendable {
        private let lock = NSLock()
        private var descriptor: Int32?
        private(set) var closedByWatchdog = false

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        func write(_ bytes: [UInt8]) {
            lock.withLock {
                guard let descriptor else { return }
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                precondition(written == bytes.count, "a pipe takes a few bytes at once")
            }
        }

        func close(byWatchdog: Bool = false) {
            lock.withLock {
                guard let descriptor else { return }
                Glibc.close(descriptor)
                self.descriptor = nil
                closedByWatchdog = byWatchdog
            }
        }
    }

    /// Collects the output and runs `onLine` after each write.
    struct ReactingSink: ByteSink {
        var lines: [String] = []
        let onLine: (Int) -> Void

        mutating func write(_ bytes: [UInt8]) throws(FleetTripsError) {
            lines.append(String(decoding: bytes, as: UTF8.self))
            onLine(lines.count)
        }
    }

    @Test("each message is printed when its frame is complete, while the input is still open")
    func printsBeforeTheInputEnds() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = PipeWriter(descriptor: ends[1])
        defer { writer.close() }
        writer.write(grpcFramed(Samples.trip))
        // Only a decoder that waits for the end of its input needs this: it makes such a decoder
        // fail the expectations below instead of waiting for ever.
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: 30)
            writer.close(byWatchdog: true)
        }
        watchdog.start()
        // The second message is written, and the input closed, only once the first was printed.
        var sink = ReactingSink { count in
            guard count == 1 else { return }
            writer.write(grpcFramed(Samples.secondTrip))
            writer.close()
        }
        let decoder = MessageDecoder(messageType: Trip.self, framing: .grpcFrames(encoding: .identity))
        var notices: [UInt8] = []
        try decoder.run(file: InputFile(path: "/dev/fd/\(ends[0])"), output: &sink, notices: &notices)
        #expect(notices.isEmpty)
        #expect(sink.lines == [Samples.tripJSON + "\n", Samples.secondTripJSON + "\n"])
        #expect(!writer.closedByWatchdog, "the decoder printed nothing until its input ended")
    }

    @Test(
        "base64 and hex streams longer than a read decode across the pieces' edges",
        arguments: [BinaryForm.base64, .hex])
    func textAcrossReads(form: BinaryForm) throws {
        // 6,000 frames of 35 bytes: 280 KB of base64 with a line feed every 76 characters, or
        // 420 KB of hex with one every 64, so groups and digit pairs straddle the 64 KiB reads.
        let frames = Array(repeatElement(grpcFramed(Samples.trip), count: 6_000).joined())
        let text = wrapped(form.output(for: frames).dropLast(), every: form == .base64 ? 76 : 64)
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = MessageDecoder(
            messageType: Trip.self, inputForm: form, framing: .grpcFrames(encoding: .identity))
        var output: [UInt8] = []
        var notices: [UInt8] = []
        try decoder.run(file: InputFile(path: path), output: &output, notices: &notices)
        #expect(notices.isEmpty)
        let expected = Array(repeatElement(Array((Samples.tripJSON + "\n").utf8), count: 6_000).joined())
        #expect(output == expected)
    }

    @Test("a bad character far into a streamed text is named by its offset in the whole input")
    func badCharacterOffset() throws {
        var text = hexText(Array(repeatElement(grpcFramed(Samples.trip), count: 4_000).joined()))
        text[200_001] = UInt8(ascii: "g")
        let (error, output) = try failedRun(on: text, form: .hex)
        #expect(error.code == .invalidInputText)
        #expect(error.message == "'g' at text offset 200001 is not a hex digit")
        // The 2,857 frames wholly before the bad digit (70 hex digits each) were printed.
        #expect(output.count(where: { $0 == UInt8(ascii: "\n") }) == 200_001 / 70)
    }

    @Test("a stream that ends inside a base64 group read in pieces is an error, after the messages before it")
    func base64EndsInsideGroup() throws {
        let frames = Array(repeatElement(grpcFramed(Samples.trip), count: 3_000).joined())
        var text = BinaryForm.base64.output(for: frames).dropLast()
        text.append(UInt8(ascii: "Q"))
        let (error, output) = try failedRun(on: Array(text), form: .base64)
        #expect(error.code == .invalidInputText)
        #expect(error.message == "base64 text ends with a single character at text offset 140000, too few for a byte")
        #expect(output.count(where: { $0 == UInt8(ascii: "\n") }) == 3_000)
    }

    /// Decodes `text` from a file as a gRPC stream in `form`, expecting an error; returns the error
    /// and what was printed before it.
    private func failedRun(on text: [UInt8], form: BinaryForm) throws -> (FleetTripsError, [UInt8]) {
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = MessageDecoder(messageType: Trip.self, inputForm: form, framing: .grpcFrames(encoding: .identity))
        var output: [UInt8] = []
        var notices: [UInt8] = []
        let error = try #require(throws: FleetTripsError.self) {
            try decoder.run(file: InputFile(path: path), output: &output, notices: &notices)
        }
        return (error, output)
    }

    private func hexText(_ bytes: [UInt8]) -> [UInt8] {
        Array(BinaryForm.hex.output(for: bytes).dropLast())
    }

    private func wrapped(_ text: ArraySlice<UInt8>, every width: Int) -> [UInt8] {
        var output: [UInt8] = []
        for (index, character) in text.enumerated() {
            if index > 0, index % width == 0 { output.append(UInt8(ascii: "\n")) }
            output.append(character)
        }
        return output
    }

    private func temporaryFile(_ contents: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-stream-\(UInt64.random(in: 0...UInt64.max))").path
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }
}
