import FleetEngineCapture
import Testing

/// The pcapng spec's obsolete Packet Block (type 2, appendix A), which old writers (Wireshark
/// before 1.x, some embedded tools) put packets in; tshark reads it (a TCP SYN in one reads as
/// `1 0.000000 127.0.0.1 → 127.0.0.1 TCP 40 50000 → 50051 [SYN]`). It is an Enhanced Packet Block
/// with a 16-bit interface id followed by a 16-bit drops count.
@Suite("pcapng: the obsolete Packet Block is read like an Enhanced Packet Block")
struct PcapNGPacketBlockTests {
    /// A TCP SYN from 127.0.0.1:50000 to 127.0.0.1:50051.
    static let packet = IPPacket.tcp(
        from: TCPEndpoint(address: IPPacket.ipv4Address(127, 0, 0, 1), port: 50_000),
        to: TCPEndpoint(address: IPPacket.ipv4Address(127, 0, 0, 1), port: 50_051),
        sequenceNumber: 1, acknowledgmentNumber: 0, flags: .syn, payload: [])

    /// A capture of one raw-IP interface and one Packet Block for `interface`.
    static func capture(interface: UInt16, drops: UInt16 = 0) -> [UInt8] {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        writer.appendBlock(type: 2) { body in
            body.uint16(interface)
            body.uint16(drops)
            body.uint32(0)  // timestamp (high)
            body.uint32(1)  // timestamp (low)
            body.uint32(UInt32(packet.count))  // captured length
            body.uint32(UInt32(packet.count))  // original length
            body.append(packet)
        }
        return writer.bytes
    }

    @Test("a packet in a Packet Block, with a drops count, is read with its interface, timestamp and bytes")
    func packetBlockIsRead() throws {
        let outcome = CaptureReaderHarness.read(Self.capture(interface: 0, drops: 7))
        #expect(outcome.error == nil)
        let packet = try #require(outcome.packets.first)
        #expect(outcome.packets.count == 1)
        #expect(Array(packet.bytes) == Self.packet)
        #expect(packet.originalLength == Self.packet.count)
        #expect(packet.interfaceID == 0)
        #expect(packet.linkType == .raw)
        #expect(packet.timestamp == CaptureTimestamp(seconds: 0, nanoseconds: 1_000))
    }

    @Test("a Packet Block for an interface the section does not describe: malformedRecord")
    func packetBlockForUnknownInterfaceIsRefused() {
        let outcome = CaptureReaderHarness.read(Self.capture(interface: 1))
        #expect(outcome.packets.isEmpty)
        #expect(outcome.error?.code == .malformedRecord)
    }
}
