import FleetEngineCapture

/// A link-layer header to put in front of an IP packet, for building captured packets in tests.
///
/// ```swift
/// let frame = LinkLayer.ethernet(vlanTags: [.customer(100)]).wrap(ipPacket)
/// let same = LinkLayer.wrap(ipPacket, as: .linuxSLL2)
/// ```
struct LinkLayer: Hashable {
    /// One 802.1Q-style tag: its TPID (0x8100, 0x88A8 or 0x9100) and the tag control field.
    struct VLANTag: Hashable {
        var protocolIdentifier: UInt16
        var controlField: UInt16

        /// An 802.1Q customer tag for VLAN `id`.
        static func customer(_ id: UInt16) -> VLANTag { VLANTag(protocolIdentifier: 0x8100, controlField: id) }
        /// An 802.1ad service tag for VLAN `id`.
        static func service(_ id: UInt16) -> VLANTag { VLANTag(protocolIdentifier: 0x88A8, controlField: id) }
        /// A pre-standard QinQ tag (TPID 0x9100) for VLAN `id`.
        static func qinq(_ id: UInt16) -> VLANTag { VLANTag(protocolIdentifier: 0x9100, controlField: id) }
    }

    /// The capture file's link type for these headers.
    var linkType: LinkType
    /// VLAN tags between the Ethernet addresses and the EtherType, outermost first.
    var vlanTags: [VLANTag] = []
    /// Whether a NULL header's address family is big-endian (a big-endian capturing host).
    var nullFamilyBigEndian = false
    /// The AF_INET6 value a NULL or LOOP header uses: 10 (Linux), 24, 28 or 30 (BSDs).
    var inet6Family: UInt32 = 24
    /// Whether Ethernet frames are padded to the 60-byte minimum, as a receiving NIC shows them.
    var padsEthernetFrames = true

    static let ethernet = LinkLayer(linkType: .ethernet)
    static let linuxSLL = LinkLayer(linkType: .linuxSLL)
    static let linuxSLL2 = LinkLayer(linkType: .linuxSLL2)
    static let raw = LinkLayer(linkType: .raw)
    static let rawDLT12 = LinkLayer(linkType: .rawDLT12)
    static let rawDLT14 = LinkLayer(linkType: .rawDLT14)
    static let ipv4 = LinkLayer(linkType: .ipv4)
    static let ipv6 = LinkLayer(linkType: .ipv6)
    static let loop = LinkLayer(linkType: .loop)
    /// NULL as a little-endian host writes it.
    static let null = LinkLayer(linkType: .null)

    /// Ethernet with VLAN tags, outermost first.
    static func ethernet(vlanTags: [VLANTag]) -> LinkLayer {
        LinkLayer(linkType: .ethernet, vlanTags: vlanTags)
    }

    /// NULL with the address family in the given byte order and the given AF_INET6 value.
    static func null(bigEndian: Bool, inet6Family: UInt32 = 24) -> LinkLayer {
        LinkLayer(linkType: .null, nullFamilyBigEndian: bigEndian, inet6Family: inet6Family)
    }

    /// `ipPacket` behind `link`'s headers.
    static func wrap(_ ipPacket: [UInt8], as link: LinkLayer) -> [UInt8] {
        link.wrap(ipPacket)
    }

    /// `ipPacket` behind these headers; IPv4 or IPv6 is told by the version nibble.
    func wrap(_ ipPacket: [UInt8]) -> [UInt8] {
        let isIPv6 = (ipPacket.first ?? 0x40) >> 4 == 6
        switch linkType {
        case .null, .loop:
            let family = isIPv6 ? inet6Family : 2
            var header = CaptureFieldWriter(bigEndian: linkType == .loop || nullFamilyBigEndian)
            header.uint32(family)
            return header.bytes + ipPacket
        case .raw, .rawDLT12, .rawDLT14, .ipv4, .ipv6:
            return ipPacket
        default:
            return wrap(ipPacket, etherType: isIPv6 ? 0x86DD : 0x0800)
        }
    }

    /// `payload` behind these headers with `etherType` as the protocol (for ARP, 0x0806, and other
    /// non-IP payloads). Only for Ethernet, SLL and SLL2.
    func wrap(_ payload: [UInt8], etherType: UInt16) -> [UInt8] {
        var header = CaptureFieldWriter(bigEndian: true)
        switch linkType {
        case .linuxSLL:
            // tcpdump.org LINKTYPE_LINUX_SLL: packet type (0, to us), ARPHRD_ETHER, address length,
            // 8 address bytes, protocol.
            header.uint16(0)
            header.uint16(1)
            header.uint16(6)
            header.append([0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
            header.uint16(etherType)
            return header.bytes + payload
        case .linuxSLL2:
            // tcpdump.org LINKTYPE_LINUX_SLL2: protocol, reserved, interface index, ARPHRD_ETHER,
            // packet type, address length, 8 address bytes.
            header.uint16(etherType)
            header.uint16(0)
            header.uint32(1)
            header.uint16(1)
            header.uint8(0)
            header.uint8(6)
            header.append([0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
            return header.bytes + payload
        default:
            header.append([0x02, 0x00, 0x00, 0x00, 0x00, 0x02])
            header.append([0x02, 0x00, 0x00, 0x00, 0x00, 0x01])
            for tag in vlanTags {
                header.uint16(tag.protocolIdentifier)
                header.uint16(tag.controlField)
            }
            header.uint16(etherType)
            header.append(payload)
            if padsEthernetFrames {
                while header.bytes.count < 60 { header.uint8(0) }
            }
            return header.bytes
        }
    }
}
