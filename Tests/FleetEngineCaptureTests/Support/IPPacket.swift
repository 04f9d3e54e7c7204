import FleetEngineCapture

/// Builds IPv4 and IPv6 packets, with TCP or UDP inside, for tests. Checksums are filled in so
/// that other tools (tshark) read the packets as valid.
enum IPPacket {
    /// An IPv4 address from its four dotted-decimal parts.
    static func ipv4Address(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> IPAddress {
        .v4(UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d))
    }

    /// A TCP segment (RFC 9293 section 3.1) inside an IPv4 or IPv6 packet, chosen by the address
    /// family of the endpoints. `ipv6ExtensionHeaders` go between the IPv6 header and TCP.
    static func tcp(
        from source: TCPEndpoint,
        to destination: TCPEndpoint,
        sequenceNumber: UInt32,
        acknowledgmentNumber: UInt32 = 0,
        flags: TCPFlags,
        window: UInt16 = 65_535,
        options: [UInt8] = [],
        payload: [UInt8] = [],
        ipv6ExtensionHeaders: [IPv6ExtensionHeader] = []
    ) -> [UInt8] {
        var segment = CaptureFieldWriter(bigEndian: true)
        segment.uint16(source.port)
        segment.uint16(destination.port)
        segment.uint32(sequenceNumber)
        segment.uint32(acknowledgmentNumber)
        let headerLength = 20 + (options.count + 3) / 4 * 4
        segment.uint8(UInt8(headerLength / 4) << 4)
        segment.uint8(flags.rawValue)
        segment.uint16(window)
        segment.uint16(0)
        segment.uint16(0)
        segment.append(options)
        segment.pad(toMultipleOf: 4)
        segment.append(payload)
        var bytes = segment.bytes
        let checksum = transportChecksum(
            of: bytes, protocol: 6, source: source.address, destination: destination.address)
        bytes[16] = UInt8(checksum >> 8)
        bytes[17] = UInt8(checksum & 0xFF)
        return ip(
            from: source.address, to: destination.address, protocol: 6, payload: bytes,
            ipv6ExtensionHeaders: ipv6ExtensionHeaders)
    }

    /// A UDP datagram (RFC 768) inside an IPv4 or IPv6 packet.
    static func udp(from source: TCPEndpoint, to destination: TCPEndpoint, payload: [UInt8]) -> [UInt8] {
        var datagram = CaptureFieldWriter(bigEndian: true)
        datagram.uint16(source.port)
        datagram.uint16(destination.port)
        datagram.uint16(UInt16(8 + payload.count))
        datagram.uint16(0)
        datagram.append(payload)
        var bytes = datagram.bytes
        let checksum = transportChecksum(
            of: bytes, protocol: 17, source: source.address, destination: destination.address)
        bytes[6] = UInt8(checksum >> 8)
        bytes[7] = UInt8(checksum & 0xFF)
        return ip(from: source.address, to: destination.address, protocol: 17, payload: bytes)
    }

    /// `payload` inside an IPv4 or IPv6 header, by the family of `source`.
    static func ip(
        from source: IPAddress,
        to destination: IPAddress,
        protocol number: UInt8,
        payload: [UInt8],
        ipv6ExtensionHeaders: [IPv6ExtensionHeader] = []
    ) -> [UInt8] {
        switch (source, destination) {
        case (.v4(let source), .v4(let destination)):
            return ipv4(source: source, destination: destination, protocol: number, payload: payload)
        default:
            return ipv6(
                source: source,
                destination: destination,
                nextHeader: number,
                extensionHeaders: ipv6ExtensionHeaders,
                payload: payload
            )
        }
    }

    /// An IPv4 packet (RFC 791 section 3.1); `options` makes the header longer than 20 bytes.
    static func ipv4(
        source: UInt32,
        destination: UInt32,
        protocol number: UInt8,
        payload: [UInt8],
        identification: UInt16 = 1,
        dontFragment: Bool = true,
        moreFragments: Bool = false,
        fragmentOffset: UInt16 = 0,
        options: [UInt8] = []
    ) -> [UInt8] {
        let headerLength = 20 + (options.count + 3) / 4 * 4
        var header = CaptureFieldWriter(bigEndian: true)
        header.uint8(0x40 | UInt8(headerLength / 4))
        header.uint8(0)
        header.uint16(UInt16(headerLength + payload.count))
        header.uint16(identification)
        header.uint16((dontFragment ? 0x4000 : 0) | (moreFragments ? 0x2000 : 0) | fragmentOffset)
        header.uint8(64)
        header.uint8(number)
        header.uint16(0)
        header.uint32(source)
        header.uint32(destination)
        header.append(options)
        header.pad(toMultipleOf: 4)
        var bytes = header.bytes
        let checksum = internetChecksum(bytes)
        bytes[10] = UInt8(checksum >> 8)
        bytes[11] = UInt8(checksum & 0xFF)
        return bytes + payload
    }

    /// An IPv6 packet (RFC 8200 section 3) with `extensionHeaders` chained in order before
    /// `payload`, whose protocol is `nextHeader`.
    static func ipv6(
        source: IPAddress,
        destination: IPAddress,
        nextHeader: UInt8,
        extensionHeaders: [IPv6ExtensionHeader] = [],
        payload: [UInt8]
    ) -> [UInt8] {
        var chain: [UInt8] = []
        for (index, header) in extensionHeaders.enumerated() {
            let following = index + 1 < extensionHeaders.count ? extensionHeaders[index + 1].type : nextHeader
            chain += header.bytes(nextHeader: following)
        }
        var header = CaptureFieldWriter(bigEndian: true)
        header.uint32(0x6000_0000)
        header.uint16(UInt16(chain.count + payload.count))
        header.uint8(extensionHeaders.first?.type ?? nextHeader)
        header.uint8(64)
        for address in [source, destination] {
            switch address {
            case .v6(let high, let low):
                header.uint64(high)
                header.uint64(low)
            case .v4(let value):
                // An IPv4-mapped address (RFC 4291 section 2.5.5.2), so mixed families still build.
                header.uint64(0)
                header.uint64(0xFFFF_0000_0000 | UInt64(value))
            }
        }
        return header.bytes + chain + payload
    }

    /// The RFC 1071 one's-complement checksum of `bytes`.
    static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var index = 0
        while index + 1 < bytes.count {
            sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            index += 2
        }
        if index < bytes.count { sum += UInt32(bytes[index]) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    /// The TCP or UDP checksum of `segment` over the IPv4 (RFC 9293 section 3.1) or IPv6
    /// (RFC 8200 section 8.1) pseudo-header.
    private static func transportChecksum(
        of segment: [UInt8],
        protocol number: UInt8,
        source: IPAddress,
        destination: IPAddress
    ) -> UInt16 {
        var pseudo = CaptureFieldWriter(bigEndian: true)
        switch (source, destination) {
        case (.v4(let source), .v4(let destination)):
            pseudo.uint32(source)
            pseudo.uint32(destination)
            pseudo.uint8(0)
            pseudo.uint8(number)
            pseudo.uint16(UInt16(segment.count))
        default:
            for address in [source, destination] {
                switch address {
                case .v6(let high, let low):
                    pseudo.uint64(high)
                    pseudo.uint64(low)
                case .v4(let value):
                    pseudo.uint64(0)
                    pseudo.uint64(0xFFFF_0000_0000 | UInt64(value))
                }
            }
            pseudo.uint32(UInt32(segment.count))
            pseudo.append([0, 0, 0, number])
        }
        return internetChecksum(pseudo.bytes + segment)
    }
}
