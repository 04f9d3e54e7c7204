import FleetEngineCodec
import FoundationEssentials
import Testing

@testable import FleetEngineCapture

@Suite("The memory bounds give up the same frames and calls on every run of the same capture")
struct BoundDeterminismTests {
    /// Decodes `file` `runs` times, each with a new decoder, and returns each run's JSON lines.
    /// The decoders are all kept until the end, so that each run's tables live at other addresses:
    /// a dictionary's order follows its storage's address, and a choice that went by that order
    /// would differ between runs.
    static func decodeRuns(_ file: [UInt8], options: CaptureOptions, runs: Int) throws -> [[UInt8]] {
        var decoders: [CaptureDecoder] = []
        var outputs: [[UInt8]] = []
        for _ in 0..<runs {
            var decoder = CaptureDecoder(options: options)
            var records: [CaptureRecord] = []
            var offset = 0
            while offset < file.count {
                let end = min(offset + 40_000, file.count)
                records += try decoder.decode(file[offset..<end])
                offset = end
            }
            records += try decoder.finish()
            outputs.append(records.flatMap { $0.jsonLine + [0x0A] })
            decoders.append(decoder)
        }
        return outputs
    }

    @Test("six connections whose frames tie for the largest under a 1 MiB frame bound: the same output every run")
    func partialFrameTies() throws {
        let (packets, _) = try LostFrameCaptureTests.largeResponses(connections: 6)
        let outputs = try Self.decodeRuns(
            CaptureWriter.file(of: packets), options: CaptureOptions(maxPartialFrameBytes: 1 << 20), runs: 8)
        let givenUp = String(decoding: outputs[0], as: UTF8.self).components(separatedBy: "too many open calls")
        #expect(givenUp.count > 1, "the bound gave nothing up: the test shows nothing")
        #expect(outputs.allSatisfy { $0 == outputs[0] })
    }
}
