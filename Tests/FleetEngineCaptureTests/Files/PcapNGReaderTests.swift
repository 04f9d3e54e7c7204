import Testing

@testable import FleetEngineCapture

@Suite("CaptureFileReader: pcapng")
struct PcapNGReaderTests {
    @Test("reads Enhanced Packet Blocks in either byte order", arguments: [false, true])
    func readsEnhancedPacketBlocks(bigEndian: Bool) throws {
        var writer = CaptureWriter(format: .pcapng(bigEndian: bigEndian), linkType: .ethernet, snapLength: 65_535)
        let first = writer.append(
            packet: [1, 2, 3, 4, 5], timestamp: CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 250_000_000))
        let second = writer.append(
            packet: [6], timestamp: CaptureTimestamp(seconds: 1_700_000_001, nanoseconds: 7_000), originalLength: 60)
        var reader = CaptureFileReader()
        reader.append(writer.bytes)
        let packets = [try reader.nextPacket(), try reader.nextPacket()].compactMap { $0 }
        #expect(try reader.nextPacket() == nil)
        try reader.finish()
        #expect(reader.format == .pcapng)
        #expect(reader.bytesConsumed == Int64(writer.bytes.count))
        #expect(
            packets.map(CaptureReaderHarness.PacketSummary.init) == [
                .init(
                    CapturedPacket(
                        timestamp: CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 250_000_000),
                        linkType: .ethernet,
                        bytes: [1, 2, 3, 4, 5], originalLength: 5, interfaceID: 0, byteOffset: Int64(first + 28))),
                .init(
                    CapturedPacket(
                        timestamp: CaptureTimestamp(seconds: 1_700_000_001, nanoseconds: 7_000), linkType: .ethernet,
                        bytes: [6], originalLength: 60, interfaceID: 0, byteOffset: Int64(second + 28))),
            ]
        )
        // SHB 28 bytes, IDB 20 bytes: the first packet block starts at 48.
        #expect(first == 48)
        #expect(second == 48 + 28 + 8 + 4)
    }

    @Test("converts timestamps exactly at if_tsresol 10^-6, 10^-9, 10^-3, 10^0 and 2^-20")
    func convertsTimestampResolutions() throws {
        let interfaces: [CaptureWriter.Interface] = [
            .init(linkType: .raw, timestampResolution: .microseconds),
            .init(linkType: .raw, timestampResolution: .nanoseconds),
            .init(linkType: .raw, timestampResolution: .decimal(3)),
            .init(linkType: .raw, timestampResolution: .decimal(0)),
            .init(linkType: .raw, timestampResolution: .binary(20)),
            .init(linkType: .raw, timestampResolution: .binary(20)),
        ]
        var writer = CaptureWriter(format: .pcapng, interfaces: interfaces)
        writer.append(packet: [0], timestampUnits: 1_700_000_000_123_456, interface: 0)
        writer.append(packet: [1], timestampUnits: 1_700_000_000_123_456_789, interface: 1)
        writer.append(packet: [2], timestampUnits: 1_700_000_000_123, interface: 2)
        writer.append(packet: [3], timestampUnits: 1_700_000_000, interface: 3)
        // 5 s and half a second in 2^-20 units.
        writer.append(packet: [4], timestampUnits: 5 << 20 | 1 << 19, interface: 4)
        // One tick of 2^-20 s is 953.674... ns, rounded down.
        writer.append(packet: [5], timestampUnits: 5 << 20 | 1, interface: 5)
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(
            packets.map(\.timestamp) == [
                CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000),
                CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789),
                CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 123_000_000),
                CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 0),
                CaptureTimestamp(seconds: 5, nanoseconds: 500_000_000),
                CaptureTimestamp(seconds: 5, nanoseconds: 953),
            ]
        )
        #expect(packets.map(\.interfaceID) == [0, 1, 2, 3, 4, 5])
    }

    @Test("a binary resolution of 2^-63 keeps the nanoseconds exact")
    func convertsFinestBinaryResolution() throws {
        var writer = CaptureWriter(
            format: .pcapng, interfaces: [.init(linkType: .raw, timestampResolution: .binary(63))])
        // 1 s + 2^62 ticks (half a second) + 2^32 ticks (0.000000000465... s).
        writer.append(packet: [0], timestampUnits: 1 << 63 | 1 << 62 | 1 << 32)
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map(\.timestamp) == [CaptureTimestamp(seconds: 1, nanoseconds: 500_000_000)])
    }

    @Test("if_tsoffset seconds are added to every timestamp of the interface")
    func addsTimestampOffset() throws {
        var writer = CaptureWriter(
            format: .pcapng,
            interfaces: [
                .init(linkType: .raw, timestampResolution: .nanoseconds, timestampOffset: 1_600_000_000),
                .init(linkType: .raw, timestampOffset: -100),
            ]
        )
        writer.append(packet: [0], timestampUnits: 12_000_000_042, interface: 0)
        writer.append(packet: [1], timestampUnits: 1_000_000_500, interface: 1)
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(
            packets.map(\.timestamp) == [
                CaptureTimestamp(seconds: 1_600_000_012, nanoseconds: 42),
                CaptureTimestamp(seconds: 900, nanoseconds: 500_000),
            ]
        )
    }

    @Test("several sections each set their byte order and number their interfaces from 0")
    func readsSeveralSections() throws {
        var writer = CaptureWriter(
            format: .pcapng(bigEndian: false),
            interfaces: [.init(linkType: .ethernet), .init(linkType: .raw, timestampResolution: .nanoseconds)]
        )
        writer.append(packet: [1], timestampUnits: 1_000_001, interface: 0)
        writer.append(packet: [2], timestampUnits: 1_000_000_002, interface: 1)
        writer.beginSection(
            bigEndian: true, interfaces: [.init(linkType: .linuxSLL2, timestampResolution: .decimal(3))])
        writer.append(packet: [3], timestampUnits: 3_004, interface: 0)
        writer.beginSection(bigEndian: false, interfaces: [.init(linkType: .loop), .init(linkType: .null)])
        writer.append(packet: [4], timestampUnits: 4_000_000, interface: 1)
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map { Array($0.bytes) } == [[1], [2], [3], [4]])
        #expect(packets.map(\.linkType) == [.ethernet, .raw, .linuxSLL2, .null])
        #expect(packets.map(\.interfaceID) == [0, 1, 0, 1])
        #expect(
            packets.map(\.timestamp) == [
                CaptureTimestamp(seconds: 1, nanoseconds: 1_000),
                CaptureTimestamp(seconds: 1, nanoseconds: 2),
                CaptureTimestamp(seconds: 3, nanoseconds: 4_000_000),
                CaptureTimestamp(seconds: 4, nanoseconds: 0),
            ]
        )
    }

    @Test("an interface of an earlier section is undeclared in the next one")
    func interfacesDoNotCarryAcrossSections() {
        var writer = CaptureWriter(format: .pcapng, interfaces: [.init(linkType: .ethernet), .init(linkType: .raw)])
        writer.append(packet: [1], interface: 1)
        writer.beginSection(bigEndian: true, interfaces: [.init(linkType: .raw)])
        let offset = writer.append(packet: [2], timestampUnits: 0, interface: 1)
        let outcome = CaptureReaderHarness.read(writer.bytes)
        #expect(outcome.packets.count == 1)
        #expect(outcome.error == CaptureError(.malformedRecord))
        #expect(outcome.error?.byteOffset == Int64(offset))
        #expect(
            outcome.error?.message
                == "the pcapng Enhanced Packet Block at offset \(offset) is for interface 1, "
                + "but the section describes 1"
        )
    }

    @Test("a Simple Packet Block takes the previous packet's timestamp, or zero when it comes first")
    func simplePacketTimestamps() throws {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        let first = writer.appendSimplePacket([1, 2, 3, 4])
        writer.append(packet: [5], timestamp: CaptureTimestamp(seconds: 77, nanoseconds: 5_000))
        writer.appendSimplePacket([6, 7])
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(
            packets.map(\.timestamp) == [
                CaptureTimestamp(seconds: 0, nanoseconds: 0),
                CaptureTimestamp(seconds: 77, nanoseconds: 5_000),
                CaptureTimestamp(seconds: 77, nanoseconds: 5_000),
            ]
        )
        #expect(packets.map { Array($0.bytes) } == [[1, 2, 3, 4], [5], [6, 7]])
        #expect(packets.map(\.interfaceID) == [0, 0, 0])
        #expect(packets[0].byteOffset == Int64(first + 12))
        #expect(packets[0].linkType == .raw)
    }

    @Test("a Simple Packet Block's captured length is cut to the snap length and to the block's room")
    func simplePacketCapturedLength() throws {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw, snapLength: 8)
        writer.appendSimplePacket(Array(1...12))
        writer.beginSection(bigEndian: true, interfaces: [.init(linkType: .raw, snapLength: 0)])
        // 10 bytes padded to 12 in the block, but 1500 on the wire: the room (12) wins.
        writer.appendSimplePacket(Array(1...10), originalLength: 1500)
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map { Array($0.bytes) } == [Array(1...8), Array(1...10) + [0, 0]])
        #expect(packets.map(\.originalLength) == [12, 1500])
    }

    @Test("blocks of other types are skipped by their length")
    func skipsOtherBlocks() throws {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        // A Custom Block (0x00000BAD) with an odd body, padded.
        writer.appendBlock(type: 0x0000_0BAD, body: Array(repeating: 0xEE, count: 13))
        // A Name Resolution Block.
        writer.appendBlock(type: 4, body: [0, 0, 0, 0])
        let packetBlock = writer.append(packet: [1], timestamp: CaptureTimestamp(seconds: 1, nanoseconds: 0))
        // An Interface Statistics Block, an empty Custom Block, and a Decryption Secrets Block.
        writer.appendBlock(type: 5, body: Array(repeating: 0, count: 12))
        writer.appendBlock(type: 0x0000_0BAD, body: [])
        writer.appendBlock(type: 0x0000_000A, body: Array(repeating: 0, count: 20))
        writer.append(packet: [2], timestamp: CaptureTimestamp(seconds: 2, nanoseconds: 0))
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map { Array($0.bytes) } == [[1], [2]])
        #expect(packets[0].byteOffset == Int64(packetBlock + 28))
    }

    @Test("options after the timestamp options and packets with options of their own are read past")
    func readsBlocksWithOptions() throws {
        var writer = CaptureWriter(format: .pcapng, interfaces: [])
        writer.appendBlock(type: 1) { body in
            body.uint16(1)
            body.uint16(0)
            body.uint32(0)
            body.uint16(2)  // if_name "lo", padded
            body.uint16(2)
            body.append(Array("lo".utf8))
            body.pad(toMultipleOf: 4)
            body.uint16(9)  // if_tsresol 10^-9
            body.uint16(1)
            body.uint8(9)
            body.pad(toMultipleOf: 4)
            body.uint16(0)
            body.uint16(0)
        }
        writer.appendBlock(type: 6) { body in
            body.uint32(0)
            body.uint32(0)
            body.uint32(1_000_000_123)
            body.uint32(3)
            body.uint32(3)
            body.append([7, 8, 9])
            body.pad(toMultipleOf: 4)
            body.uint16(2)  // epb_flags
            body.uint16(4)
            body.uint32(1)
            body.uint16(0)
            body.uint16(0)
        }
        let packets = try CaptureReaderHarness.packets(in: writer.bytes)
        #expect(packets.map { Array($0.bytes) } == [[7, 8, 9]])
        #expect(packets.map(\.timestamp) == [CaptureTimestamp(seconds: 1, nanoseconds: 123)])
    }
}
