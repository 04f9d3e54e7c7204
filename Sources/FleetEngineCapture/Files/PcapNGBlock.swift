/// The fixed numbers of pcapng blocks (draft-ietf-opsawg-pcapng, "PCAP Next Generation (pcapng)
/// Capture File Format"), and what reading one block gives.
///
/// Every block is framed the same way (section 3.1): a 32-bit type, a 32-bit total length, the
/// body, and the total length again, so that a reader can skip a block it does not know.
enum PcapNGBlock {
    /// What reading one block gave the reader.
    enum ReadResult {
        /// The block has not all arrived yet.
        case needsMoreInput
        /// The block held a packet.
        case packet(CapturedPacket)
        /// The block was read and held no packet (a section or interface header, statistics,
        /// or a type this reader skips).
        case consumed
    }

    /// Section Header Block (section 4.1).
    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    /// Interface Description Block (section 4.2).
    static let interfaceDescriptionType: UInt32 = 0x0000_0001
    /// Packet Block (appendix A, obsolete): an Enhanced Packet Block with a 16-bit interface id
    /// and a 16-bit drops count, which old writers still put packets in.
    static let obsoletePacketType: UInt32 = 0x0000_0002
    /// Simple Packet Block (section 4.4).
    static let simplePacketType: UInt32 = 0x0000_0003
    /// Enhanced Packet Block (section 4.3).
    static let enhancedPacketType: UInt32 = 0x0000_0006
    /// Decryption Secrets Block (section 4.7).
    static let decryptionSecretsType: UInt32 = 0x0000_000A
    /// The secrets type of a TLS key log in a Decryption Secrets Block ("TLSK").
    static let tlsKeyLogSecretsType: UInt32 = 0x544C_534B

    /// The Section Header Block's byte-order magic, as the writer's machine stored it (section 4.1).
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// The only major version this reader knows (section 4.1).
    static let majorVersion: UInt16 = 1

    /// The framing alone: type, total length, and the trailing total length (section 3.1).
    static let framingLength = 12
    /// The room a block may take beyond its packet, for options: a block longer than
    /// `maxRecordLength` plus this is taken for a corrupt length.
    static let optionAllowance = 64 << 10

    /// Option code that ends an option list (section 3.5).
    static let endOfOptionsCode: UInt16 = 0
    /// Interface option: the timestamp resolution (section 4.2).
    static let timestampResolutionOptionCode: UInt16 = 9
    /// Interface option: seconds added to every timestamp (section 4.2).
    static let timestampOffsetOptionCode: UInt16 = 14

    /// The shortest total length a block of `type` can have: its framing and fixed fields.
    static func minimumLength(ofType type: UInt32) -> Int {
        switch type {
        case sectionHeaderType: 28  // magic, versions, section length
        case interfaceDescriptionType: 20  // link type, reserved, snap length
        case enhancedPacketType, obsoletePacketType: 32  // interface (and drops), timestamp, two lengths
        case simplePacketType: 16  // original length
        case decryptionSecretsType: 20  // secrets type, secrets length
        default: framingLength
        }
    }

    /// The block's name, for messages.
    static func name(ofType type: UInt32) -> String {
        switch type {
        case sectionHeaderType: "Section Header Block"
        case interfaceDescriptionType: "Interface Description Block"
        case enhancedPacketType: "Enhanced Packet Block"
        case obsoletePacketType: "Packet Block"
        case simplePacketType: "Simple Packet Block"
        case decryptionSecretsType: "Decryption Secrets Block"
        default: "block of type \(PcapFormat.hex(type))"
        }
    }

    /// The options between `start` and `end` in `raw` (section 3.5): code, and where the value
    /// starts and how long it is; `nil` when an option runs past `end`.
    static func options(
        in raw: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int,
        bigEndian: Bool
    ) -> [(code: UInt16, start: Int, length: Int)]? {
        let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
        var options: [(code: UInt16, start: Int, length: Int)] = []
        var position = start
        while position + 4 <= end {
            let code = fields.uint16(at: position)
            let length = Int(fields.uint16(at: position + 2))
            if code == endOfOptionsCode { break }
            let valueStart = position + 4
            guard valueStart + length <= end else { return nil }
            options.append((code, valueStart, length))
            // Values are padded to 32 bits (section 3.5).
            position = valueStart + (length + 3) & ~3
        }
        return options
    }
}
