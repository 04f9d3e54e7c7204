import FleetEngineCapture
import Testing

@Suite("SyntheticTCPConnection")
struct SyntheticTCPConnectionTests {
    /// The segments a capture of `packets` decodes to.
    static func segments(of packets: [[UInt8]], link: LinkLayer, format: CaptureWriter.Format) throws -> [TCPSegment] {
        let bytes = CaptureWriter.file(of: packets, link: link, format: format)
        return try CaptureReaderHarness.packets(in: bytes).compactMap { packet throws(CaptureError) in
            try PacketDecoder.tcpSegment(in: packet)
        }
    }

    @Test("the handshake, data, FIN and RST carry the sequence and acknowledgment numbers of a real connection")
    func sequenceNumbers() throws {
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: .v4(0x0A00_0001), port: 40_000),
            server: TCPEndpoint(address: .v4(0x0A00_0002), port: 50_051),
            clientInitialSequenceNumber: 0xFFFF_FFFE,
            serverInitialSequenceNumber: 1_000
        )
        var packets = connection.handshake()
        packets += connection.send(Array("hello world".utf8), from: .client, segmentSizes: [3, 5])
        packets += connection.send(Array("ok".utf8), from: .server)
        packets.append(connection.fin(from: .client))
        packets.append(connection.rst(from: .server))
        let segments = try Self.segments(of: packets, link: .ethernet, format: .pcapng)

        #expect(
            segments.map(\.flags) == [
                .syn, [.syn, .ack], .ack, [.ack, .psh], [.ack, .psh], [.ack, .psh], [.ack, .psh], [.fin, .ack],
                [.rst, .ack],
            ])
        #expect(
            segments.map(\.sequenceNumber) == [0xFFFF_FFFE, 1_000, 0xFFFF_FFFF, 0xFFFF_FFFF, 2, 7, 1_001, 10, 1_003])
        #expect(segments.map(\.acknowledgmentNumber) == [0, 0xFFFF_FFFF, 1_001, 1_001, 1_001, 1_001, 10, 1_003, 11])
        #expect(
            segments.map { String(decoding: $0.payload, as: UTF8.self) } == [
                "", "", "", "hel", "lo wo", "rld", "ok", "", "",
            ])
        #expect(
            segments.map(\.source.port) == [40_000, 50_051, 40_000, 40_000, 40_000, 40_000, 50_051, 40_000, 50_051])
        #expect(connection.nextSequenceNumber(of: .client) == 11)
        #expect(connection.nextSequenceNumber(of: .server) == 1_003)
    }

    @Test("segment sizes that run past the data are cut to what is left")
    func segmentSizesAreClipped() {
        var connection = SyntheticTCPConnection.ipv4()
        #expect(connection.send([1, 2, 3, 4], from: .server, segmentSizes: [3, 3, 3]).count == 2)
        #expect(connection.send([], from: .server).isEmpty)
        #expect(connection.nextSequenceNumber(of: .server) == 0x2000_0004)
    }

    @Test(
        "an IPv6 connection with extension headers decodes behind every link layer",
        arguments: [
            CaptureWriter.Format.pcap, .pcap(nanosecond: true, bigEndian: true), .pcapng, .pcapng(bigEndian: true),
        ])
    func ipv6EndToEnd(format: CaptureWriter.Format) throws {
        var connection = SyntheticTCPConnection.ipv6()
        connection.ipv6ExtensionHeaders = [.hopByHop(), .destinationOptions()]
        var packets = connection.handshake()
        packets += connection.send(Array(repeating: 0x42, count: 3_000), from: .client, segmentSizes: [1_400, 1_400])
        for link in [
            LinkLayer.ethernet, .ethernet(vlanTags: [.customer(7)]), .linuxSLL, .linuxSLL2, .raw, .null, .loop, .ipv6,
        ] {
            let segments = try Self.segments(of: packets, link: link, format: format)
            #expect(segments.map(\.payload.count) == [0, 0, 0, 1_400, 1_400, 200])
            #expect(
                segments.map(\.source) == [connection.client, connection.server]
                    + Array(repeating: connection.client, count: 4))
            #expect(segments.first?.destination.description == "[2001:db8::2]:443")
        }
    }
}
