import Testing

@testable import FleetEngineCapture

@Suite("CaptureFileReader: malformed pcapng blocks")
struct PcapNGMalformedBlockTests {
    /// A little-endian pcapng file with one raw-IP interface and one packet, and the offset of
    /// the packet's block.
    static func capture() -> (bytes: [UInt8], packetBlock: Int) {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        writer.append(packet: [1, 2, 3, 4], timestamp: CaptureTimestamp(seconds: 1, nanoseconds: 0))
        let packetBlock = writer.append(
            packet: [5, 6, 7, 8, 9], timestamp: CaptureTimestamp(seconds: 2, nanoseconds: 0))
        return (writer.bytes, packetBlock)
    }

    /// Overwrites the little-endian 32-bit value at `offset`.
    static func patch(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        var field = CaptureFieldWriter(bigEndian: false)
        field.uint32(value)
        bytes.replaceSubrange(offset..<(offset + 4), with: field.bytes)
    }

    static func expectError(
        _ bytes: [UInt8],
        _ code: CaptureError.Code,
        at offset: Int,
        packetsBefore: Int,
        message: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let outcome = CaptureReaderHarness.read(bytes)
        #expect(outcome.packets.count == packetsBefore, sourceLocation: sourceLocation)
        #expect(outcome.error?.code == code, sourceLocation: sourceLocation)
        #expect(outcome.error?.byteOffset == Int64(offset), sourceLocation: sourceLocation)
        if let message {
            #expect(outcome.error?.message == message, sourceLocation: sourceLocation)
        }
    }

    @Test("a trailing total length that differs from the leading one is a malformed record")
    func trailingLengthMismatch() {
        var (bytes, block) = Self.capture()
        // The block is 28 + 8 + 4 = 40 bytes; its trailing length is its last 4 bytes.
        Self.patch(&bytes, at: block + 36, 44)
        Self.expectError(
            bytes, .malformedRecord, at: block, packetsBefore: 1,
            message: "the pcapng Enhanced Packet Block at offset \(block) starts with total length 40 but ends with 44"
        )
    }

    @Test("a total length that is not a multiple of 4 is a malformed record")
    func lengthNotMultipleOfFour() {
        var (bytes, block) = Self.capture()
        Self.patch(&bytes, at: block + 4, 38)
        Self.expectError(
            bytes, .malformedRecord, at: block, packetsBefore: 1,
            message: "the pcapng Enhanced Packet Block at offset \(block) has total length 38, not a multiple of 4"
        )
    }

    @Test("a total length under 12 is a malformed record", arguments: [0, 4, 8])
    func lengthUnderTwelve(length: UInt32) {
        var (bytes, block) = Self.capture()
        Self.patch(&bytes, at: block + 4, length)
        Self.expectError(bytes, .malformedRecord, at: block, packetsBefore: 1)
    }

    @Test("a total length too short for the block type's fixed fields is a malformed record")
    func lengthUnderFixedFields() {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        let block = writer.appendBlock(type: 6, body: Array(repeating: 0, count: 16))
        Self.expectError(
            writer.bytes, .malformedRecord, at: block, packetsBefore: 0,
            message: "the pcapng Enhanced Packet Block at offset \(block) has total length 28, "
                + "less than the 32 bytes of its fixed fields"
        )
    }

    @Test("a total length beyond maxRecordLength and the option allowance is a malformed record")
    func lengthOverLimit() {
        var (bytes, block) = Self.capture()
        Self.patch(&bytes, at: block + 4, 0xFFFF_FFF0)
        Self.expectError(bytes, .malformedRecord, at: block, packetsBefore: 1)
    }

    @Test("a captured length that overruns the block is a malformed record")
    func capturedLengthOverrunsBlock() {
        var (bytes, block) = Self.capture()
        Self.patch(&bytes, at: block + 20, 9)
        Self.expectError(
            bytes, .malformedRecord, at: block, packetsBefore: 1,
            message: "the pcapng Enhanced Packet Block at offset \(block) claims 9 captured bytes, "
                + "more than its 8 bytes of room"
        )
    }

    @Test("a packet for an interface never described is a malformed record")
    func undeclaredInterface() {
        var (bytes, block) = Self.capture()
        Self.patch(&bytes, at: block + 8, 3)
        Self.expectError(bytes, .malformedRecord, at: block, packetsBefore: 1)
    }

    @Test("a Simple Packet Block before any interface is a malformed record")
    func simplePacketWithoutInterface() {
        var writer = CaptureWriter(format: .pcapng, interfaces: [])
        let block = writer.appendSimplePacket([1, 2])
        Self.expectError(
            writer.bytes, .malformedRecord, at: block, packetsBefore: 0,
            message: "the pcapng Simple Packet Block at offset \(block) comes before any Interface Description "
                + "Block in its section"
        )
    }

    @Test("a section of an unknown major version is a malformed record")
    func unknownMajorVersion() {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        writer.append(packet: [1])
        let section = writer.beginSection(bigEndian: false, interfaces: [.init(linkType: .raw)])
        var bytes = writer.bytes
        bytes[section + 12] = 2
        Self.expectError(
            bytes, .malformedRecord, at: section, packetsBefore: 1,
            message:
                "the pcapng Section Header Block at offset \(section) has version 2.0; only major version 1 is known"
        )
    }

    @Test("a bad byte-order magic is not a capture in the first block and malformed in a later one")
    func badByteOrderMagic() {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        writer.append(packet: [1])
        let section = writer.beginSection(bigEndian: true)
        var later = writer.bytes
        later[section + 8] = 0x99
        Self.expectError(later, .malformedRecord, at: section, packetsBefore: 1)

        var first = writer.bytes
        first[9] = 0x99
        Self.expectError(first, .notACapture, at: 0, packetsBefore: 0)
    }

    @Test("an if_tsresol finer than the reader converts is a malformed record")
    func unsupportedResolution() {
        var writer = CaptureWriter(format: .pcapng, interfaces: [])
        let block = writer.addInterface(.init(linkType: .raw, timestampResolution: .decimal(20)))
        Self.expectError(
            writer.bytes, .malformedRecord, at: block, packetsBefore: 0,
            message: "the pcapng Interface Description Block at offset \(block) has if_tsresol 0x14, "
                + "finer than 10^-19 or 2^-63 seconds"
        )
    }

    @Test("an option that runs past the end of its block is a malformed record")
    func optionOverrunsBlock() {
        var writer = CaptureWriter(format: .pcapng, interfaces: [])
        let block = writer.appendBlock(type: 1) { body in
            body.uint16(1)
            body.uint16(0)
            body.uint32(0)
            body.uint16(2)
            body.uint16(200)
            body.append([0x6C, 0x6F, 0, 0])
        }
        Self.expectError(writer.bytes, .malformedRecord, at: block, packetsBefore: 0)
    }

    @Test("timestamp options of the wrong length are malformed records")
    func wrongOptionLengths() {
        for (code, length) in [(UInt16(9), UInt16(2)), (14, 4)] {
            var writer = CaptureWriter(format: .pcapng, interfaces: [])
            let block = writer.appendBlock(type: 1) { body in
                body.uint16(1)
                body.uint16(0)
                body.uint32(0)
                body.uint16(code)
                body.uint16(length)
                body.append(Array(repeating: 0, count: Int(length)))
                body.pad(toMultipleOf: 4)
            }
            Self.expectError(writer.bytes, .malformedRecord, at: block, packetsBefore: 0)
        }
    }

    @Test("a timestamp whose seconds do not fit 64 signed bits is a malformed record")
    func timestampOutOfRange() {
        var writer = CaptureWriter(
            format: .pcapng, interfaces: [.init(linkType: .raw, timestampResolution: .decimal(0))])
        let block = writer.append(packet: [1], timestampUnits: UInt64.max)
        Self.expectError(writer.bytes, .malformedRecord, at: block, packetsBefore: 0)
    }
}
