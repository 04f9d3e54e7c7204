import FleetEngineCapture
import FleetEngineCodec
import Testing

@Suite("A damaged record: the records decoded before it are returned, then the error says where")
struct DamagedRecordTests {
    /// A pcap record header claiming 0xFFFFFFFF captured bytes: `malformedRecord`.
    static let corrupt: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    @Test("a corrupt record after two whole calls: the calls' records do not depend on how the input was chunked")
    func corruptRecordDoesNotTakeTheChunkWithIt() throws {
        let conversation = try CaptureExactnessTests.conversation(points: 3)
        let good = CaptureWriter.file(of: CaptureExactnessTests.packets(conversation))

        // Two chunks, split where the damage starts: the calls come out, then the error.
        var split = CaptureDecoder()
        let beforeDamage = try split.decode(good)
        #expect(throws: CaptureError(.malformedRecord)) { try split.decode(Self.corrupt) }
        #expect(beforeDamage.messages.count == 3)
        #expect(beforeDamage.callEnds.count == 2)

        // The same bytes in one chunk (what `fleettrips capture` reads: 1 MiB at a time): the
        // calls come back, and the next call throws the error, with where the damage starts.
        var whole = CaptureDecoder()
        let records = try whole.decode(good + Self.corrupt)
        #expect(records.messages.count == 3)
        #expect(records.callEnds.count == 2)
        do {
            _ = try whole.finish()
            Issue.record("finish() did not throw")
        } catch {
            #expect(error.code == .malformedRecord)
            #expect(error.byteOffset == Int64(good.count))
        }
        #expect(throws: CaptureError(.malformedRecord)) { try whole.decode([]) }
    }

    @Test("a corrupt record and nothing before it in the chunk: decode throws at once")
    func corruptRecordAloneThrows() throws {
        let conversation = try CaptureExactnessTests.conversation(points: 3)
        let good = CaptureWriter.file(of: CaptureExactnessTests.packets(conversation))
        var decoder = CaptureDecoder()
        #expect(throws: CaptureError(.malformedRecord)) { try decoder.decode(Array(good.prefix(24)) + Self.corrupt) }
    }
}
