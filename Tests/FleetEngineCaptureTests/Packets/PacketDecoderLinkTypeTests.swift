import FleetEngineCapture
import Testing

@Suite("PacketDecoder: link types")
struct PacketDecoderLinkTypeTests {
    /// A link layer, the length of its header in front of an IPv4 packet, and a name for the
    /// test's arguments.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var link: @Sendable () -> LinkLayer
        var headerLength: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ETHERNET", link: { .ethernet }, headerLength: 14),
        Case(name: "ETHERNET with an 802.1Q tag", link: { .ethernet(vlanTags: [.customer(100)]) }, headerLength: 18),
        Case(
            name: "ETHERNET with 802.1ad, 0x9100 and 802.1Q tags",
            link: { .ethernet(vlanTags: [.service(10), .qinq(20), .customer(30)]) },
            headerLength: 26
        ),
        Case(name: "LINUX_SLL", link: { .linuxSLL }, headerLength: 16),
        Case(name: "LINUX_SLL2", link: { .linuxSLL2 }, headerLength: 20),
        Case(name: "RAW", link: { .raw }, headerLength: 0),
        // What old writers put in files for raw IP (DLT_RAW is 12 on most systems, 14 on OpenBSD
        // and BSD/OS); tshark reads both as raw IP.
        Case(name: "RAW as DLT 12", link: { .rawDLT12 }, headerLength: 0),
        Case(name: "RAW as DLT 14", link: { .rawDLT14 }, headerLength: 0),
        Case(name: "NULL, little-endian host", link: { .null(bigEndian: false) }, headerLength: 4),
        Case(name: "NULL, big-endian host", link: { .null(bigEndian: true) }, headerLength: 4),
        Case(name: "LOOP", link: { .loop }, headerLength: 4),
    ]

    /// A packet as a capture at `byteOffset` would hand it over, its bytes a slice that does not
    /// start at index 0.
    static func captured(_ bytes: [UInt8], linkType: LinkType, byteOffset: Int64 = 1_000) -> CapturedPacket {
        CapturedPacket(
            timestamp: CaptureTimestamp(seconds: 5, nanoseconds: 6),
            linkType: linkType,
            bytes: ([0xEE, 0xEE, 0xEE] + bytes + [0xEE])[3..<(3 + bytes.count)],
            originalLength: bytes.count,
            byteOffset: byteOffset
        )
    }

    static let client = TCPEndpoint(address: IPPacket.ipv4Address(10, 1, 2, 3), port: 50_123)
    static let server = TCPEndpoint(address: IPPacket.ipv4Address(10, 9, 8, 7), port: 8_443)
    static let clientV6 = TCPEndpoint(address: .v6(0x2001_0DB8_0000_0000, 0x1), port: 50_123)
    static let serverV6 = TCPEndpoint(address: .v6(0xFE80_0000_0000_0000, 0x0202_B3FF_FE1E_8329), port: 443)

    @Test("reads the TCP segment of an IPv4 packet behind each link layer", arguments: cases)
    func readsIPv4(_ testCase: Case) throws {
        let link = testCase.link()
        let ip = IPPacket.tcp(
            from: Self.client, to: Self.server, sequenceNumber: 0xDEAD_BEEF, acknowledgmentNumber: 0x0102_0304,
            flags: [.ack, .psh], payload: [0x50, 0x52, 0x49]
        )
        let packet = Self.captured(link.wrap(ip), linkType: link.linkType)
        let segment = try #require(try PacketDecoder.tcpSegment(in: packet))
        #expect(segment.source == Self.client)
        #expect(segment.destination == Self.server)
        #expect(segment.sequenceNumber == 0xDEAD_BEEF)
        #expect(segment.acknowledgmentNumber == 0x0102_0304)
        #expect(segment.flags == [.ack, .psh])
        #expect(Array(segment.payload) == [0x50, 0x52, 0x49])
        #expect(segment.timestamp == CaptureTimestamp(seconds: 5, nanoseconds: 6))
        #expect(segment.byteOffset == 1_000 + Int64(testCase.headerLength) + 40)
        #expect(segment.payload.startIndex == packet.bytes.startIndex + testCase.headerLength + 40)
    }

    @Test("reads the TCP segment of an IPv6 packet behind each link layer", arguments: cases)
    func readsIPv6(_ testCase: Case) throws {
        let link = testCase.link()
        let ip = IPPacket.tcp(
            from: Self.serverV6, to: Self.clientV6, sequenceNumber: 7, acknowledgmentNumber: 9, flags: [.syn, .ack]
        )
        let packet = Self.captured(link.wrap(ip), linkType: link.linkType)
        let segment = try #require(try PacketDecoder.tcpSegment(in: packet))
        #expect(segment.source == Self.serverV6)
        #expect(segment.destination == Self.clientV6)
        #expect(segment.sequenceNumber == 7)
        #expect(segment.acknowledgmentNumber == 9)
        #expect(segment.flags == [.syn, .ack])
        #expect(segment.payload.isEmpty)
        #expect(segment.byteOffset == 1_000 + Int64(testCase.headerLength) + 60)
    }

    @Test("the IPV4 and IPV6 link types hold bare IP packets")
    func readsBareIPLinkTypes() throws {
        let v4 = IPPacket.tcp(from: Self.client, to: Self.server, sequenceNumber: 1, flags: .syn)
        let v6 = IPPacket.tcp(from: Self.clientV6, to: Self.serverV6, sequenceNumber: 2, flags: .syn)
        let segment4 = try #require(try PacketDecoder.tcpSegment(in: Self.captured(v4, linkType: .ipv4)))
        let segment6 = try #require(try PacketDecoder.tcpSegment(in: Self.captured(v6, linkType: .ipv6)))
        #expect(segment4.sequenceNumber == 1)
        #expect(segment6.sequenceNumber == 2)
        #expect(throws: CaptureError(.malformedPacket)) {
            try PacketDecoder.tcpSegment(in: Self.captured(v6, linkType: .ipv4))
        }
        #expect(throws: CaptureError(.malformedPacket)) {
            try PacketDecoder.tcpSegment(in: Self.captured(v4, linkType: .ipv6))
        }
    }

    @Test("NULL and LOOP read every AF_INET6 value", arguments: [UInt32(10), 24, 28, 30])
    func readsEveryInet6Family(family: UInt32) throws {
        let ip = IPPacket.tcp(from: Self.clientV6, to: Self.serverV6, sequenceNumber: 3, flags: .ack)
        for link in [
            LinkLayer.null(bigEndian: false, inet6Family: family), .null(bigEndian: true, inet6Family: family),
            LinkLayer(linkType: .loop, inet6Family: family),
        ] {
            let segment = try PacketDecoder.tcpSegment(in: Self.captured(link.wrap(ip), linkType: link.linkType))
            #expect(segment?.sequenceNumber == 3)
        }
    }

    @Test("another address family behind NULL carries no TCP")
    func unknownAddressFamily() throws {
        let packet = Self.captured([7, 0, 0, 0] + [UInt8](repeating: 0x45, count: 40), linkType: .null)
        #expect(try PacketDecoder.tcpSegment(in: packet) == nil)
    }

    @Test("a link type the decoder does not read is unsupported, at the packet's offset")
    func unsupportedLinkType() {
        let packet = Self.captured([1, 2, 3], linkType: LinkType(rawValue: 147), byteOffset: 4_242)
        #expect {
            try PacketDecoder.tcpSegment(in: packet)
        } throws: { error in
            let error = error as? CaptureError
            return error?.code == .unsupportedLinkType && error?.byteOffset == 4_242
                && error?.message
                    == "the LINKTYPE 147 packet at offset 4242: "
                    + "link type LINKTYPE 147 (147) is not one the decoder reads"
        }
    }

    @Test(
        "link-layer headers cut short are malformed packets",
        arguments: [
            (LinkType.ethernet, 13), (.linuxSLL, 15), (.linuxSLL2, 19), (.null, 3), (.loop, 0), (.raw, 0),
        ]
    )
    func cutLinkHeaders(linkType: LinkType, length: Int) {
        let packet = Self.captured([UInt8](repeating: 0, count: length), linkType: linkType, byteOffset: 77)
        #expect {
            try PacketDecoder.tcpSegment(in: packet)
        } throws: { error in
            (error as? CaptureError)?.code == .malformedPacket && (error as? CaptureError)?.byteOffset == 77
        }
    }

    @Test("a VLAN tag cut short is a malformed packet")
    func cutVLANTag() {
        let frame: [UInt8] = Array(repeating: 2, count: 12) + [0x81, 0x00, 0x00]
        #expect(throws: CaptureError(.malformedPacket)) {
            try PacketDecoder.tcpSegment(in: Self.captured(frame, linkType: .ethernet))
        }
    }
}
