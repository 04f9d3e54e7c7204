import Testing

@testable import FleetEngineCapture

@Suite("CaptureFileReader: pcap")
struct PcapReaderTests {

    @Test(
        "reads every pcap variant's records with their timestamps, lengths and offsets",
        arguments: [(false, false), (false, true), (true, false), (true, true)]
    )
    func readsRecords(nanosecond: Bool, bigEndian: Bool) throws {
        var writer = CaptureWriter(format: .pcap(nanosecond: nanosecond, bigEndian: bigEndian), linkType: .linuxSLL)
        writer.append(packet: [1, 2, 3], timestamp: CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789))
        writer.append(
            packet: Array(repeating: 0xAB, count: 100),
            timestamp: CaptureTimestamp(seconds: 4_000_000_000, nanoseconds: 999_999_999),
            originalLength: 1500
        )
        var reader = CaptureFileReader()
        #expect(reader.format == nil)
        reader.append(writer.bytes)
        let first = try #require(try reader.nextPacket())
        #expect(reader.format == .pcap(nanosecond: nanosecond, bigEndian: bigEndian))
        let second = try #require(try reader.nextPacket())
        #expect(try reader.nextPacket() == nil)
        try reader.finish()

        #expect(
            first.timestamp
                == CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: nanosecond ? 123_456_789 : 123_456_000))
        #expect(first.linkType == .linuxSLL)
        #expect(Array(first.bytes) == [1, 2, 3])
        #expect(first.originalLength == 3)
        #expect(first.interfaceID == 0)
        #expect(first.byteOffset == 40)
        #expect(
            second.timestamp
                == CaptureTimestamp(seconds: 4_000_000_000, nanoseconds: nanosecond ? 999_999_999 : 999_999_000))
        #expect(Array(second.bytes) == Array(repeating: 0xAB, count: 100))
        #expect(second.originalLength == 1500)
        #expect(second.byteOffset == 40 + 3 + 16)
        #expect(reader.bytesConsumed == Int64(writer.bytes.count))
    }

    @Test("a file header alone is a whole capture with no packets")
    func headerAloneHasNoPackets() throws {
        let writer = CaptureWriter(format: .pcap, linkType: .raw)
        var reader = CaptureFileReader()
        reader.append(writer.bytes)
        #expect(try reader.nextPacket() == nil)
        try reader.finish()
        #expect(reader.format == .pcap(nanosecond: false, bigEndian: false))
        #expect(reader.bytesConsumed == 24)
    }

    @Test("the upper four bits of the link type field (FCS length) are not part of the link type")
    func linkTypeIgnoresFCSBits() throws {
        var writer = CaptureWriter(format: .pcap, linkType: LinkType(rawValue: 0x1000_0000 | 276))
        writer.append(packet: [9])
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map(\.linkType) == [.linuxSLL2])
    }

    @Test("the FCS-present bit and the reserved bits of the link type field are not part of the link type")
    func linkTypeIgnoresFCSPresentAndReservedBits() throws {
        // libpcap's LT_FCS_DATALINK_EXT(4): FCS length 4 in the upper four bits, with the bit
        // that says it is present (0x04000000), over LINKTYPE_ETHERNET; and the reserved bits set.
        var writer = CaptureWriter(format: .pcap, linkType: LinkType(rawValue: 0x4400_0000 | 0x03FF_0000 | 1))
        writer.append(packet: [9])
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map(\.linkType) == [.ethernet])
    }

    @Test("a fraction of a second or more in a record is carried into the seconds")
    func fractionOverflowIsCarried() throws {
        var writer = CaptureWriter(format: .pcap)
        writer.append(packet: [1], timestamp: CaptureTimestamp(seconds: 10, nanoseconds: 0))
        var bytes = writer.bytes
        // ts_usec = 2_500_000 (little-endian) at offset 24 + 4.
        bytes.replaceSubrange(28..<32, with: [0xA0, 0x25, 0x26, 0x00])
        let packets = try CaptureReaderHarness.packets(in: bytes)
        #expect(packets.map(\.timestamp) == [CaptureTimestamp(seconds: 12, nanoseconds: 500_000_000)])
    }

    @Test("a file header with a major version other than 2 is a malformed record at offset 0")
    func rejectsUnknownVersion() {
        var bytes = CaptureWriter(format: .pcap(nanosecond: false, bigEndian: true)).bytes
        bytes[5] = 3
        let error = CaptureReaderHarness.read(bytes).error
        #expect(error == CaptureError(.malformedRecord))
        #expect(error?.byteOffset == 0)
        #expect(error?.message == "the pcap file header has version 3.4; only version 2 is known")
    }

    @Test("a record longer than maxRecordLength is a malformed record at the record's offset")
    func rejectsOversizedRecord() {
        var writer = CaptureWriter(format: .pcap)
        writer.append(packet: Array(repeating: 1, count: 100))
        let offset = writer.append(packet: Array(repeating: 2, count: 101))
        let outcome = CaptureReaderHarness.read(writer.bytes, maxRecordLength: 100)
        #expect(outcome.packets.count == 1)
        #expect(outcome.error == CaptureError(.malformedRecord))
        #expect(outcome.error?.byteOffset == Int64(offset))
        #expect(offset == 140)
        #expect(
            outcome.error?.message
                == "the pcap record at offset 140 claims 101 captured bytes, more than the limit of 100"
        )
    }

    @Test("input that starts with no capture magic is not a capture, reported at offset 0")
    func rejectsNonCapture() {
        let outcome = CaptureReaderHarness.read(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(outcome.error == CaptureError(.notACapture))
        #expect(outcome.error?.byteOffset == 0)
    }

    @Test("a wrong first byte is reported before four bytes have arrived")
    func rejectsNonCaptureEarly() {
        var reader = CaptureFileReader()
        reader.append([0x47])
        #expect(throws: CaptureError(.notACapture)) { try reader.nextPacket() }
        // The reader stays failed.
        #expect(throws: CaptureError(.notACapture)) { try reader.nextPacket() }
        #expect(throws: CaptureError(.notACapture)) { try reader.finish() }
    }

    @Test("an empty input is a truncated capture at offset 0")
    func emptyInputIsTruncated() {
        let error = CaptureReaderHarness.read([]).error
        #expect(error == CaptureError(.truncatedCapture))
        #expect(error?.byteOffset == 0)
    }

    @Test("the error from nextPacket is thrown again by every later call")
    func errorsAreSticky() {
        var writer = CaptureWriter(format: .pcap)
        writer.append(packet: Array(repeating: 1, count: 50))
        var reader = CaptureFileReader(maxRecordLength: 10)
        reader.append(writer.bytes)
        #expect(throws: CaptureError(.malformedRecord)) { try reader.nextPacket() }
        reader.append(writer.bytes)
        #expect(throws: CaptureError(.malformedRecord)) { try reader.nextPacket() }
        #expect(throws: CaptureError(.malformedRecord)) { try reader.finish() }
    }
}
