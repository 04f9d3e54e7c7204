/// Finds the TCP segment in a captured packet: reads the link-layer header, the IPv4 or IPv6
/// header and the TCP header, and hands back the addresses, ports, sequence numbers, flags and
/// payload.
///
/// Packets that carry no TCP (ARP, UDP, ICMP, other EtherTypes and address families, IP
/// fragments whose reassembly would be needed) give `nil`: a capture of gRPC traffic holds
/// plenty of those and none is an error.
public enum PacketDecoder {
    /// The TCP segment `packet` carries, or `nil` when it carries none.
    ///
    /// Reads Ethernet (through any number of 802.1Q, 802.1ad and 0x9100 VLAN tags), Linux SLL
    /// and SLL2, raw IP (RAW, IPV4, IPV6), and BSD loopback (NULL in either byte order, LOOP).
    /// The payload is a slice of `packet.bytes`, trimmed to the length the IP header gives, so
    /// Ethernet padding and trailers never reach it.
    ///
    /// - Throws: ``CaptureError/Code/unsupportedLinkType`` for any other link type, and
    ///   ``CaptureError/Code/malformedPacket`` for a header that is cut short or contradicts
    ///   itself, including a packet the capture cut (snap length) before the end the IP header
    ///   gives. The error's `byteOffset` is the packet's.
    public static func tcpSegment(in packet: CapturedPacket) throws(CaptureError) -> TCPSegment? {
        let outcome = packet.bytes.withUnsafeBytes { raw in
            Result { () throws(CaptureError) -> TCPSegment? in try decode(raw, of: packet) }
        }
        switch outcome {
        case .success(let segment):
            return segment
        case .failure(var error):
            error.message = "the \(packet.linkType) packet at offset \(packet.byteOffset): \(error.message)"
            error.byteOffset = packet.byteOffset
            throw error
        }
    }

    /// The network-layer protocols a link-layer header can announce that this decoder follows.
    enum NetworkProtocol {
        case ipv4
        case ipv6
    }

    /// EtherTypes (IEEE 802 numbers) the decoder follows or reads through.
    enum EtherType {
        static let ipv4: UInt16 = 0x0800
        static let ipv6: UInt16 = 0x86DD
        /// 802.1Q customer VLAN tag, 802.1ad service tag, and the pre-standard 0x9100 QinQ tag.
        static let vlanTags: Set<UInt16> = [0x8100, 0x88A8, 0x9100]
    }

    /// BSD loopback address families (tcpdump.org LINKTYPE_NULL and LINKTYPE_LOOP).
    enum AddressFamily {
        static let inet: UInt32 = 2
        /// AF_INET6 differs by system: Linux 10, the BSDs 24, FreeBSD 28, Darwin 30.
        static let inet6: Set<UInt32> = [10, 24, 28, 30]
    }

    /// Decodes `raw`, the bytes of `packet`; errors carry only the problem, without the location.
    private static func decode(_ raw: UnsafeRawBufferPointer, of packet: CapturedPacket) throws(CaptureError)
        -> TCPSegment?
    {
        guard let (start, network) = try networkLayer(in: raw, linkType: packet.linkType) else { return nil }
        let location: TCPSegmentLocation?
        switch network {
        case .ipv4: location = try ipv4Segment(in: raw, from: start)
        case .ipv6: location = try ipv6Segment(in: raw, from: start)
        }
        guard let location else { return nil }
        let base = packet.bytes.startIndex
        return TCPSegment(
            source: TCPEndpoint(address: location.source, port: location.sourcePort),
            destination: TCPEndpoint(address: location.destination, port: location.destinationPort),
            sequenceNumber: location.sequenceNumber,
            acknowledgmentNumber: location.acknowledgmentNumber,
            flags: location.flags,
            payload: packet.bytes[(base + location.payload.lowerBound)..<(base + location.payload.upperBound)],
            timestamp: packet.timestamp,
            byteOffset: packet.byteOffset + Int64(location.payload.lowerBound)
        )
    }

    /// Where the network-layer header starts and what it is, or `nil` for a protocol other than
    /// IPv4 and IPv6.
    private static func networkLayer(
        in raw: UnsafeRawBufferPointer,
        linkType: LinkType
    ) throws(CaptureError) -> (start: Int, network: NetworkProtocol)? {
        let fields = CaptureFieldReader(raw, bigEndian: true)
        switch linkType {
        case .ethernet:
            // Destination and source MAC addresses, then the EtherType (IEEE 802.3 clause 3.2.6).
            try requireLength(14, of: "Ethernet header", in: raw)
            return try etherTypeNetwork(in: raw, typeOffset: 12, headerEnd: 14)
        case .linuxSLL:
            // tcpdump.org LINKTYPE_LINUX_SLL: packet type, ARPHRD type, address length, 8-byte
            // address, then the protocol type.
            try requireLength(16, of: "Linux SLL header", in: raw)
            return try etherTypeNetwork(in: raw, typeOffset: 14, headerEnd: 16)
        case .linuxSLL2:
            // tcpdump.org LINKTYPE_LINUX_SLL2: the protocol type comes first.
            try requireLength(20, of: "Linux SLL2 header", in: raw)
            return try etherTypeNetwork(in: raw, typeOffset: 0, headerEnd: 20)
        case .raw, .rawDLT12, .rawDLT14:
            try requireLength(1, of: "IP header", in: raw)
            switch fields.uint8(at: 0) >> 4 {
            case 4: return (0, .ipv4)
            case 6: return (0, .ipv6)
            case let version: throw malformed("a raw IP packet has IP version \(version)")
            }
        case .ipv4:
            return (0, .ipv4)
        case .ipv6:
            return (0, .ipv6)
        case .null, .loop:
            try requireLength(4, of: "loopback header", in: raw)
            let networkOrder = fields.uint32(at: 0)
            // LINKTYPE_NULL stores the family in the capturing host's byte order, which the file
            // does not say; the families are small numbers, so only one order can match.
            let families = linkType == .loop ? [networkOrder] : [networkOrder, networkOrder.byteSwapped]
            if families.contains(AddressFamily.inet) { return (4, .ipv4) }
            if families.contains(where: AddressFamily.inet6.contains) { return (4, .ipv6) }
            return nil
        default:
            throw CaptureError(
                code: .unsupportedLinkType,
                message: "link type \(linkType) (\(linkType.rawValue)) is not one the decoder reads"
            )
        }
    }

    /// The network layer an EtherType announces, reading through VLAN tags (IEEE 802.1Q
    /// section 9: each tag is a 2-byte tag control field followed by the next EtherType).
    private static func etherTypeNetwork(
        in raw: UnsafeRawBufferPointer,
        typeOffset: Int,
        headerEnd: Int
    ) throws(CaptureError) -> (start: Int, network: NetworkProtocol)? {
        let fields = CaptureFieldReader(raw, bigEndian: true)
        var etherType = fields.uint16(at: typeOffset)
        var start = headerEnd
        while EtherType.vlanTags.contains(etherType) {
            try requireLength(start + 4, of: "VLAN tag", in: raw)
            etherType = fields.uint16(at: start + 2)
            start += 4
        }
        switch etherType {
        case EtherType.ipv4: return (start, .ipv4)
        case EtherType.ipv6: return (start, .ipv6)
        default: return nil
        }
    }

    /// Throws unless `raw` holds at least `length` bytes.
    static func requireLength(_ length: Int, of what: String, in raw: UnsafeRawBufferPointer) throws(CaptureError) {
        guard raw.count >= length else {
            throw malformed("the \(what) is cut short: the packet has \(raw.count) bytes, the header ends at \(length)")
        }
    }

    /// A malformed-packet error with just the problem; ``tcpSegment(in:)`` adds where.
    static func malformed(_ problem: String) -> CaptureError {
        CaptureError(code: .malformedPacket, message: problem)
    }
}
