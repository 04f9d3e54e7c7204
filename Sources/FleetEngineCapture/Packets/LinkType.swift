/// The link-layer header type of a capture's packets (tcpdump.org's LINKTYPE_ values, which pcap
/// and pcapng share).
///
/// An open set: every 32-bit value is representable, and the ones the decoder reads have names.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// BSD loopback: a 4-byte address family in the byte order of the machine that captured.
    public static let null = LinkType(rawValue: 0)
    /// Ethernet II (with 802.1Q / 802.1ad VLAN tags read through).
    public static let ethernet = LinkType(rawValue: 1)
    /// Raw IP: the packet starts with the IPv4 or IPv6 header.
    public static let raw = LinkType(rawValue: 101)
    /// Raw IP as old writers put it in a file: the platform's DLT_RAW, 12 on most systems. Read as
    /// ``raw``, as Wireshark reads it.
    public static let rawDLT12 = LinkType(rawValue: 12)
    /// Raw IP as OpenBSD's and BSD/OS's DLT_RAW, 14, in old files. Read as ``raw``, as Wireshark
    /// reads it.
    public static let rawDLT14 = LinkType(rawValue: 14)
    /// OpenBSD loopback: a 4-byte address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// Linux "cooked" capture, version 1 (16-byte header).
    public static let linuxSLL = LinkType(rawValue: 113)
    /// Raw IPv4.
    public static let ipv4 = LinkType(rawValue: 228)
    /// Raw IPv6.
    public static let ipv6 = LinkType(rawValue: 229)
    /// Linux "cooked" capture, version 2 (20-byte header).
    public static let linuxSLL2 = LinkType(rawValue: 276)

    public var description: String {
        switch self {
        case .null: "NULL"
        case .ethernet: "ETHERNET"
        case .raw: "RAW"
        case .rawDLT12: "RAW (DLT 12)"
        case .rawDLT14: "RAW (DLT 14)"
        case .loop: "LOOP"
        case .linuxSLL: "LINUX_SLL"
        case .ipv4: "IPV4"
        case .ipv6: "IPV6"
        case .linuxSLL2: "LINUX_SLL2"
        default: "LINKTYPE \(rawValue)"
        }
    }
}
