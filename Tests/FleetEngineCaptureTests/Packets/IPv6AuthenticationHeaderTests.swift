import FleetEngineCapture
import Testing

/// RFC 8200 section 4.1 lists the Authentication Header (51, RFC 4302) among the IPv6 extension
/// headers; unlike ESP it leaves the TCP segment in clear, and tshark decodes the TCP segment
/// after it. Its length is in 4-octet units minus 2 (RFC 4302 section 2.2).
@Suite("IPv6 Authentication Header: the TCP segment after it is read")
struct IPv6AuthenticationHeaderTests {
    /// Payload Len 4 (24 bytes): reserved, SPI, sequence number, a 12-byte ICV (HMAC-SHA1-96).
    static let authentication = IPv6ExtensionHeader(
        type: 51,
        bodyAfterNextHeader: [4, 0, 0] + [0, 0, 1, 0] + [0, 0, 0, 1] + [UInt8](repeating: 0xA5, count: 12))

    @Test("TCP after an Authentication Header, alone or after hop-by-hop options, is read with its payload")
    func tcpAfterAuthenticationHeader() throws {
        for headers in [[Self.authentication], [.hopByHop(extraUnits: 1), Self.authentication]] {
            let ip = IPPacket.tcp(
                from: PacketDecoderIPTests.clientV6, to: PacketDecoderIPTests.serverV6, sequenceNumber: 7,
                flags: .ack, payload: Array("grpc".utf8), ipv6ExtensionHeaders: headers)
            let segment = try #require(try PacketDecoderIPTests.decode(ip))
            #expect(Array(segment.payload) == Array("grpc".utf8))
            #expect(segment.sequenceNumber == 7)
        }
    }

    @Test("an Authentication Header whose length runs past the packet is malformed")
    func overlongAuthenticationHeader() {
        var body = Self.authentication.bodyAfterNextHeader
        body[0] = 40  // 168 bytes, in a packet of far fewer
        let ip = IPPacket.tcp(
            from: PacketDecoderIPTests.clientV6, to: PacketDecoderIPTests.serverV6, sequenceNumber: 7, flags: .ack,
            payload: [], ipv6ExtensionHeaders: [IPv6ExtensionHeader(type: 51, bodyAfterNextHeader: body)])
        PacketDecoderIPTests.expectMalformed(
            ip, saying: "the IPv6 authentication header runs past the end the payload length gives")
    }
}
