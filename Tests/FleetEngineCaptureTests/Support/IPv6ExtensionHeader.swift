/// An IPv6 extension header (RFC 8200 section 4) to put between the IPv6 header and the payload
/// in test packets.
struct IPv6ExtensionHeader: Hashable {
    /// The header's own type, as the header before it names it in Next Header.
    var type: UInt8
    /// The header's bytes after the Next Header field; the writer fills in Next Header.
    var bodyAfterNextHeader: [UInt8]

    /// A hop-by-hop options header (type 0) of `8 × (extraUnits + 1)` bytes, filled with a PadN
    /// option (section 4.2).
    static func hopByHop(extraUnits: Int = 0) -> IPv6ExtensionHeader {
        IPv6ExtensionHeader(type: 0, bodyAfterNextHeader: optionsBody(extraUnits: extraUnits))
    }

    /// A destination options header (type 60), padded like ``hopByHop(extraUnits:)``.
    static func destinationOptions(extraUnits: Int = 0) -> IPv6ExtensionHeader {
        IPv6ExtensionHeader(type: 60, bodyAfterNextHeader: optionsBody(extraUnits: extraUnits))
    }

    /// A routing header (type 43) with no segments left, of routing type 253 (reserved for
    /// experiments, RFC 4727), so nothing has to understand it.
    static let routing = IPv6ExtensionHeader(type: 43, bodyAfterNextHeader: [0, 253, 0, 0, 0, 0, 0])

    /// A fragment header (type 44, section 4.5): `offset` in 8-octet units and the M flag.
    static func fragment(offset: UInt16, moreFragments: Bool, identification: UInt32 = 0x1234_5678)
        -> IPv6ExtensionHeader
    {
        var body = CaptureFieldWriter(bigEndian: true)
        body.uint8(0)
        body.uint16(offset << 3 | (moreFragments ? 1 : 0))
        body.uint32(identification)
        return IPv6ExtensionHeader(type: 44, bodyAfterNextHeader: body.bytes)
    }

    /// The header's bytes, naming `nextHeader` as what follows it.
    func bytes(nextHeader: UInt8) -> [UInt8] {
        [nextHeader] + bodyAfterNextHeader
    }

    private static func optionsBody(extraUnits: Int) -> [UInt8] {
        let padLength = 8 * (extraUnits + 1) - 4
        // Hdr Ext Len, then one PadN option (type 1) covering the rest.
        return [UInt8(extraUnits), 1, UInt8(padLength)] + [UInt8](repeating: 0, count: padLength)
    }
}
