import FleetEngineCapture
import Testing

@Suite("PacketDecoder: IP and TCP headers")
struct PacketDecoderIPTests {
    static let client = PacketDecoderLinkTypeTests.client
    static let server = PacketDecoderLinkTypeTests.server
    static let clientV6 = PacketDecoderLinkTypeTests.clientV6
    static let serverV6 = PacketDecoderLinkTypeTests.serverV6

    static func decode(_ bytes: [UInt8], linkType: LinkType = .raw) throws(CaptureError) -> TCPSegment? {
        try PacketDecoder.tcpSegment(in: PacketDecoderLinkTypeTests.captured(bytes, linkType: linkType))
    }

    static func expectMalformed(
        _ bytes: [UInt8],
        linkType: LinkType = .raw,
        saying fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let segment = try decode(bytes, linkType: linkType)
            Issue.record("decoded \(String(describing: segment)) instead of failing", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .malformedPacket, sourceLocation: sourceLocation)
            #expect(error.byteOffset == 1_000, sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test("Ethernet padding after a short IPv4 packet is not payload")
    func trimsEthernetPadding() throws {
        let ip = IPPacket.tcp(
            from: Self.client, to: Self.server, sequenceNumber: 1, flags: .ack, payload: [0xAA, 0xBB])
        let frame = LinkLayer.ethernet.wrap(ip)
        #expect(frame.count == 60)
        let segment = try #require(try Self.decode(frame, linkType: .ethernet))
        #expect(Array(segment.payload) == [0xAA, 0xBB])
    }

    @Test("IPv4 options and TCP options are skipped by their header lengths")
    func skipsOptions() throws {
        let tcp = IPPacket.tcp(
            from: Self.client, to: Self.server, sequenceNumber: 1, flags: .ack,
            options: [2, 4, 0x05, 0xB4, 1, 1, 4, 2], payload: [1, 2, 3]
        )
        // Rebuild the IPv4 header with 8 bytes of options (IHL 7).
        let ip = IPPacket.ipv4(
            source: 0x0A01_0203, destination: 0x0A09_0807, protocol: 6, payload: Array(tcp[20...]),
            options: [1, 1, 1, 1, 1, 1, 1, 0]
        )
        let segment = try #require(try Self.decode(ip))
        #expect(Array(segment.payload) == [1, 2, 3])
        #expect(segment.byteOffset == 1_000 + 28 + 28)
    }

    @Test("IPv6 extension headers are walked to TCP")
    func walksExtensionHeaders() throws {
        let headers: [IPv6ExtensionHeader] = [
            .hopByHop(extraUnits: 1), .routing, .destinationOptions(),
            .fragment(offset: 0, moreFragments: false), .destinationOptions(extraUnits: 2),
        ]
        let ip = IPPacket.tcp(
            from: Self.clientV6, to: Self.serverV6, sequenceNumber: 0xFFFF_FFFF, flags: [.ack, .psh],
            payload: Array("grpc".utf8), ipv6ExtensionHeaders: headers
        )
        let segment = try #require(try Self.decode(ip))
        #expect(Array(segment.payload) == Array("grpc".utf8))
        #expect(segment.sequenceNumber == 0xFFFF_FFFF)
        #expect(segment.byteOffset == 1_000 + 40 + 16 + 8 + 8 + 8 + 24 + 20)
    }

    @Test(
        "packets that carry no TCP, or only part of a segment, give nil",
        arguments: [
            ("UDP over IPv4", IPPacket.udp(from: client, to: server, payload: [1, 2, 3])),
            ("UDP over IPv6", IPPacket.udp(from: clientV6, to: serverV6, payload: [1, 2, 3])),
            ("ICMP echo", IPPacket.ipv4(source: 1, destination: 2, protocol: 1, payload: [8, 0, 0, 0, 0, 0, 0, 0])),
            (
                "ICMPv6",
                IPPacket.ipv6(
                    source: clientV6.address, destination: serverV6.address, nextHeader: 58, payload: [128, 0, 0, 0])
            ),
            (
                "IPv6 no next header",
                IPPacket.ipv6(source: clientV6.address, destination: serverV6.address, nextHeader: 59, payload: [])
            ),
            (
                "a later IPv4 fragment",
                IPPacket.ipv4(
                    source: 1, destination: 2, protocol: 6, payload: Array(repeating: 0, count: 24),
                    dontFragment: false, fragmentOffset: 185)
            ),
            (
                "a first IPv4 fragment with More Fragments",
                IPPacket.ipv4(
                    source: 1, destination: 2, protocol: 6, payload: Array(repeating: 0x50, count: 24),
                    dontFragment: false, moreFragments: true)
            ),
            (
                "a first IPv6 fragment",
                IPPacket.tcp(
                    from: clientV6, to: serverV6, sequenceNumber: 1, flags: .ack,
                    ipv6ExtensionHeaders: [.fragment(offset: 0, moreFragments: true)])
            ),
            (
                "a later IPv6 fragment",
                IPPacket.tcp(
                    from: clientV6, to: serverV6, sequenceNumber: 1, flags: .ack,
                    ipv6ExtensionHeaders: [.hopByHop(), .fragment(offset: 100, moreFragments: false)])
            ),
        ]
    )
    func nonTCPGivesNil(name: String, ip: [UInt8]) throws {
        #expect(try Self.decode(ip) == nil)
        #expect(try Self.decode(LinkLayer.ethernet.wrap(ip), linkType: .ethernet) == nil)
    }

    @Test("non-IP EtherTypes give nil, also behind VLAN tags")
    func nonIPEtherTypes() throws {
        let arp: [UInt8] = [0, 1, 8, 0, 6, 4, 0, 1] + [UInt8](repeating: 0, count: 20)
        for link in [LinkLayer.ethernet, .ethernet(vlanTags: [.customer(5)]), .linuxSLL, .linuxSLL2] {
            #expect(try Self.decode(link.wrap(arp, etherType: 0x0806), linkType: link.linkType) == nil)
        }
        // An IEEE 802.3 length field where the EtherType would be.
        #expect(try Self.decode(LinkLayer.ethernet.wrap(arp, etherType: 0x001C), linkType: .ethernet) == nil)
    }

    @Test("a zero IPv4 total length (segmentation offload) takes the captured bytes as the packet")
    func zeroTotalLengthMeansOffload() throws {
        var ip = IPPacket.tcp(
            from: Self.client, to: Self.server, sequenceNumber: 1, flags: .ack,
            payload: Array(repeating: 7, count: 3_000))
        ip[2] = 0
        ip[3] = 0
        let segment = try #require(try Self.decode(ip))
        #expect(segment.payload.count == 3_000)
    }

    @Test("cut or inconsistent headers are malformed packets that say what is wrong")
    func malformedHeaders() {
        let ipv4 = IPPacket.tcp(
            from: Self.client, to: Self.server, sequenceNumber: 1, flags: .ack, payload: Array(repeating: 1, count: 40))
        let ipv6 = IPPacket.tcp(
            from: Self.clientV6, to: Self.serverV6, sequenceNumber: 1, flags: .ack,
            payload: Array(repeating: 1, count: 40))

        Self.expectMalformed(Array(ipv4[0..<19]), saying: "the IPv4 header is cut short")
        Self.expectMalformed([0x55] + Array(ipv4[1...]), saying: "a raw IP packet has IP version 5")
        var shortIHL = ipv4
        shortIHL[0] = 0x44
        Self.expectMalformed(shortIHL, saying: "the IPv4 header length is 16 bytes, less than 20")
        var longIHL = Array(ipv4[0..<24])
        longIHL[0] = 0x4F
        Self.expectMalformed(longIHL, saying: "the IPv4 header with options is cut short")
        var shortTotal = ipv4
        shortTotal[3] = 12
        Self.expectMalformed(shortTotal, saying: "the IPv4 total length 12 is less than its header length 20")
        Self.expectMalformed(
            Array(ipv4[0..<70]),
            saying: "the capture holds 70 of the 80 bytes the IPv4 total length gives (cut by the snap length)")
        var tinyTCP = Array(ipv4[0..<30])
        tinyTCP[3] = 30
        Self.expectMalformed(tinyTCP, saying: "the TCP header is cut short: the IP packet leaves 10 of its 20 bytes")
        var smallDataOffset = ipv4
        smallDataOffset[32] = 0x40
        Self.expectMalformed(smallDataOffset, saying: "the TCP data offset gives a 16-byte header in a 60-byte segment")
        var largeDataOffset = Array(ipv4[0..<44])
        largeDataOffset[3] = 44
        largeDataOffset[32] = 0x70
        Self.expectMalformed(largeDataOffset, saying: "the TCP data offset gives a 28-byte header in a 24-byte segment")

        Self.expectMalformed(Array(ipv6[0..<39]), saying: "the IPv6 header is cut short")
        Self.expectMalformed(
            Array(ipv6[0..<99]),
            saying: "the capture holds 99 of the 100 bytes the IPv6 payload length gives (cut by the snap length)")
        let withOptions = IPPacket.tcp(
            from: Self.clientV6, to: Self.serverV6, sequenceNumber: 1, flags: .ack,
            ipv6ExtensionHeaders: [.hopByHop(extraUnits: 3)]
        )
        var overlong = withOptions
        overlong[5] = 16
        Self.expectMalformed(overlong, saying: "the IPv6 extension header runs past the end the payload length gives")
        Self.expectMalformed(Array(withOptions[0..<50]), saying: "the IPv6 extension header is cut short")
    }

    @Test("a malformed packet's message names its link type and offset")
    func malformedMessage() {
        #expect {
            try Self.decode([0x45, 0, 0], linkType: .ipv4)
        } throws: { error in
            (error as? CaptureError)?.message
                == "the IPV4 packet at offset 1000: the IPv4 header is cut short: "
                + "the packet has 3 bytes, the header ends at 20"
        }
    }
}
