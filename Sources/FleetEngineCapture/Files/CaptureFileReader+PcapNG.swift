extension CaptureFileReader {
    /// Reads one pcapng block (draft-ietf-opsawg-pcapng section 3.1), once all of it has arrived.
    mutating func readPcapNGBlock() throws(CaptureError) -> PcapNGBlock.ReadResult {
        let available = unconsumedByteCount
        guard available >= 8 else { return .needsMoreInput }
        let blockOffset = bytesConsumed
        var blockBigEndian = bigEndian
        let typeAsLittleEndian = withUnreadBytes { CaptureFieldReader($0, bigEndian: false).uint32(at: 0) }
        if typeAsLittleEndian == PcapNGBlock.sectionHeaderType {
            // A new section may switch byte order; its length can only be read after the
            // byte-order magic (section 4.1).
            guard available >= 12 else { return .needsMoreInput }
            let magic = withUnreadBytes { CaptureFieldReader($0, bigEndian: false).uint32(at: 8) }
            switch magic {
            case PcapNGBlock.byteOrderMagic: blockBigEndian = false
            case PcapNGBlock.byteOrderMagic.byteSwapped: blockBigEndian = true
            default:
                // A first block with a bad magic is most likely a text file that starts with
                // CR/LF characters, which is what the block type was chosen to catch.
                throw CaptureError(
                    code: fileHeaderRead ? .malformedRecord : .notACapture,
                    message: "the pcapng Section Header Block at offset \(blockOffset) has byte-order magic "
                        + "\(PcapFormat.hex(magic)), not \(PcapFormat.hex(PcapNGBlock.byteOrderMagic))",
                    byteOffset: blockOffset
                )
            }
        }
        let (type, totalLength) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: blockBigEndian)
            return (fields.uint32(at: 0), fields.uint32(at: 4))
        }
        let name = PcapNGBlock.name(ofType: type)
        func malformed(_ problem: String) -> CaptureError {
            CaptureError(
                code: .malformedRecord,
                message: "the pcapng \(name) at offset \(blockOffset) \(problem)",
                byteOffset: blockOffset
            )
        }
        // Section 3.1: the total length counts the whole block and is a multiple of 4.
        guard totalLength % 4 == 0 else { throw malformed("has total length \(totalLength), not a multiple of 4") }
        guard totalLength >= PcapNGBlock.framingLength else {
            throw malformed("has total length \(totalLength), less than the 12 bytes of its framing")
        }
        let limit = maxRecordLength + PcapNGBlock.optionAllowance
        guard Int(totalLength) <= limit else {
            throw malformed(
                "has total length \(totalLength), more than the limit of \(limit) bytes "
                    + "(the longest packet plus 64 KiB)"
            )
        }
        let length = Int(totalLength)
        let minimumLength = PcapNGBlock.minimumLength(ofType: type)
        guard length >= minimumLength else {
            throw malformed("has total length \(length), less than the \(minimumLength) bytes of its fixed fields")
        }
        guard available >= length else { return .needsMoreInput }
        let trailingLength = withUnreadBytes {
            CaptureFieldReader($0, bigEndian: blockBigEndian).uint32(at: length - 4)
        }
        guard trailingLength == totalLength else {
            throw malformed("starts with total length \(totalLength) but ends with \(trailingLength)")
        }

        let result: PcapNGBlock.ReadResult
        switch type {
        case PcapNGBlock.sectionHeaderType:
            let (major, minor) = withUnreadBytes { raw in
                let fields = CaptureFieldReader(raw, bigEndian: blockBigEndian)
                return (fields.uint16(at: 12), fields.uint16(at: 14))
            }
            // Section 4.1: a reader must not read a section whose major version it does not know.
            guard major == PcapNGBlock.majorVersion else {
                throw malformed("has version \(major).\(minor); only major version 1 is known")
            }
            // Interface numbers start again from 0 in every section (section 4.2).
            bigEndian = blockBigEndian
            interfaces.removeAll(keepingCapacity: true)
            fileHeaderRead = true
            result = .consumed
        case PcapNGBlock.interfaceDescriptionType:
            interfaces.append(try readInterfaceDescription(length: length, malformed: malformed))
            result = .consumed
        case PcapNGBlock.enhancedPacketType:
            result = .packet(try readEnhancedPacket(length: length, blockOffset: blockOffset, malformed: malformed))
        case PcapNGBlock.obsoletePacketType:
            result = .packet(
                try readEnhancedPacket(
                    length: length, blockOffset: blockOffset, interfaceIDIs16Bits: true, malformed: malformed))
        case PcapNGBlock.simplePacketType:
            result = .packet(try readSimplePacket(length: length, blockOffset: blockOffset, malformed: malformed))
        case PcapNGBlock.decryptionSecretsType:
            try readDecryptionSecrets(length: length, blockOffset: blockOffset, malformed: malformed)
            result = .consumed
        default:
            result = .consumed
        }
        if case .packet(let packet) = result {
            lastTimestamp = packet.timestamp
        }
        readIndex += length
        return result
    }

    /// Keeps the TLS key log of a Decryption Secrets Block (section 4.7), as `editcap
    /// --inject-secrets tls,KEYS` writes it, for ``takeTLSKeyLogs()``; secrets of other types
    /// (WireGuard, ZigBee, ...) are passed over.
    private mutating func readDecryptionSecrets(
        length: Int, blockOffset: Int64, malformed: (String) -> CaptureError
    ) throws(CaptureError) {
        let bigEndian = self.bigEndian
        let (secretsType, secretsLength) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
            return (fields.uint32(at: 8), Int(fields.uint32(at: 12)))
        }
        let dataOffset = 16
        let room = length - dataOffset - 4
        guard secretsLength <= room else {
            throw malformed("claims \(secretsLength) bytes of secrets, more than its \(room) bytes of room")
        }
        guard secretsType == PcapNGBlock.tlsKeyLogSecretsType else { return }
        tlsKeyLogs.append(
            (Array(copyUnreadBytes(from: dataOffset, count: secretsLength)), blockOffset + Int64(dataOffset)))
    }

    /// The TLS key logs of the Decryption Secrets Blocks read since the last call, with the byte
    /// offset of each in the file.
    mutating func takeTLSKeyLogs() -> [(bytes: [UInt8], byteOffset: Int64)] {
        defer { tlsKeyLogs.removeAll() }
        return tlsKeyLogs
    }

    /// The interface an Interface Description Block describes (section 4.2).
    private func readInterfaceDescription(
        length: Int,
        malformed: (String) -> CaptureError
    ) throws(CaptureError) -> PcapNGInterface {
        let bigEndian = self.bigEndian
        let (linkType, snapLength, options) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
            let options = PcapNGBlock.options(in: raw, from: 16, to: length - 4, bigEndian: bigEndian)
            return (fields.uint16(at: 8), fields.uint32(at: 12), options)
        }
        guard let options else { throw malformed("has an option that runs past the end of the block") }
        var interface = PcapNGInterface(linkType: LinkType(rawValue: UInt32(linkType)), snapLength: snapLength)
        for option in options {
            switch option.code {
            case PcapNGBlock.timestampResolutionOptionCode:
                guard option.length == 1 else {
                    throw malformed("has an if_tsresol option of \(option.length) bytes instead of 1")
                }
                let value = buffer[readIndex + option.start]
                let resolution = PcapNGInterface.TimestampResolution(optionValue: value)
                guard resolution.isSupported else {
                    throw malformed("has if_tsresol \(PcapFormat.hex(value)), finer than 10^-19 or 2^-63 seconds")
                }
                interface.timestampResolution = resolution
            case PcapNGBlock.timestampOffsetOptionCode:
                guard option.length == 8 else {
                    throw malformed("has an if_tsoffset option of \(option.length) bytes instead of 8")
                }
                let offset = withUnreadBytes { CaptureFieldReader($0, bigEndian: bigEndian).uint64(at: option.start) }
                interface.timestampOffset = Int64(bitPattern: offset)
            default:
                break
            }
        }
        return interface
    }

    /// The packet in an Enhanced Packet Block (section 4.3), or in the obsolete Packet Block
    /// (appendix A; `interfaceIDIs16Bits`), whose fields are the same but for a 16-bit interface id
    /// followed by a 16-bit drops count where the Enhanced Packet Block has a 32-bit interface id.
    private func readEnhancedPacket(
        length: Int,
        blockOffset: Int64,
        interfaceIDIs16Bits: Bool = false,
        malformed: (String) -> CaptureError
    ) throws(CaptureError) -> CapturedPacket {
        let (interfaceID, timestampHigh, timestampLow, capturedLength, originalLength) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
            return (
                interfaceIDIs16Bits ? UInt32(fields.uint16(at: 8)) : fields.uint32(at: 8), fields.uint32(at: 12),
                fields.uint32(at: 16), fields.uint32(at: 20),
                fields.uint32(at: 24)
            )
        }
        guard interfaceID < interfaces.count else {
            throw malformed("is for interface \(interfaceID), but the section describes \(interfaces.count)")
        }
        let interface = interfaces[Int(interfaceID)]
        let dataOffset = 28
        // The data is padded to 32 bits and followed by options and the trailing length.
        let room = length - dataOffset - 4
        guard capturedLength <= maxRecordLength, (Int(capturedLength) + 3) & ~3 <= room else {
            throw malformed("claims \(capturedLength) captured bytes, more than its \(room) bytes of room")
        }
        let units = UInt64(timestampHigh) << 32 | UInt64(timestampLow)
        guard let timestamp = interface.timestamp(units: units) else {
            throw malformed("has a timestamp of \(units) units that is out of range")
        }
        return CapturedPacket(
            timestamp: timestamp,
            linkType: interface.linkType,
            bytes: copyUnreadBytes(from: dataOffset, count: Int(capturedLength)),
            originalLength: Int(originalLength),
            interfaceID: Int(interfaceID),
            byteOffset: blockOffset + Int64(dataOffset)
        )
    }

    /// The packet in a Simple Packet Block (section 4.4).
    ///
    /// The block has no timestamp, so the packet gets the timestamp of the packet read before it
    /// (the epoch if there was none), which keeps packets in time order. Its captured length is
    /// the original length cut to the interface's snap length and to the room in the block.
    private func readSimplePacket(
        length: Int,
        blockOffset: Int64,
        malformed: (String) -> CaptureError
    ) throws(CaptureError) -> CapturedPacket {
        // Section 4.4: the packet belongs to the first interface of the section.
        guard let interface = interfaces.first else {
            throw malformed("comes before any Interface Description Block in its section")
        }
        let originalLength = withUnreadBytes { CaptureFieldReader($0, bigEndian: bigEndian).uint32(at: 8) }
        let dataOffset = 12
        var capturedLength = min(Int(originalLength), length - dataOffset - 4)
        if interface.snapLength != 0 {
            capturedLength = min(capturedLength, Int(interface.snapLength))
        }
        return CapturedPacket(
            timestamp: lastTimestamp,
            linkType: interface.linkType,
            bytes: copyUnreadBytes(from: dataOffset, count: capturedLength),
            originalLength: Int(originalLength),
            interfaceID: 0,
            byteOffset: blockOffset + Int64(dataOffset)
        )
    }
}
