/// The fixed numbers of the classic pcap file format (draft-ietf-opsawg-pcap, "PCAP Capture
/// File Format") and of the magic numbers that tell capture formats apart.
enum PcapFormat {
    /// The magic number of a pcap file with microsecond timestamps (section 4).
    static let microsecondMagic: UInt32 = 0xA1B2_C3D4
    /// The magic number of a pcap file with nanosecond timestamps (section 4).
    static let nanosecondMagic: UInt32 = 0xA1B2_3C4D
    /// The pcapng Section Header Block type, which is also the first four bytes of every pcapng
    /// file; a palindrome, so it reads the same in both byte orders (pcapng section 4.1).
    static let pcapNGSectionHeaderType: UInt32 = 0x0A0D_0D0A

    /// The length of the file header (section 4).
    static let fileHeaderLength = 24
    /// The length of a packet record's header (section 5).
    static let recordHeaderLength = 16
    /// The only major version this reader knows (section 4).
    static let majorVersion: UInt16 = 2

    /// The first four bytes of every capture format this reader knows, as they appear in a file.
    static let magicByteSequences: [[UInt8]] = [
        [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4],
        [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D],
        [0x0A, 0x0D, 0x0D, 0x0A],
    ]

    /// A value as `0x` and upper-case hex digits, two per byte of its type, for messages.
    static func hex<Value: FixedWidthInteger>(_ value: Value) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, Value.bitWidth / 4 - digits.count)) + digits
    }
}
