extension CaptureFileReader {
    /// Finds the format from the magic number: `false` until four bytes have arrived.
    ///
    /// Fails as soon as the bytes seen cannot begin any known magic number, so that a text file
    /// is rejected at once rather than at ``finish()``.
    mutating func detectFormat() throws(CaptureError) -> Bool {
        let available = unconsumedByteCount
        let prefix = Array(buffer[readIndex..<(readIndex + min(available, 4))])
        guard PcapFormat.magicByteSequences.contains(where: { $0.starts(with: prefix) }) else {
            let shown = prefix.map { PcapFormat.hex($0) }.joined(separator: " ")
            throw CaptureError(
                code: .notACapture,
                message: "the input starts with bytes \(shown), which begin neither a pcap nor a pcapng file",
                byteOffset: 0
            )
        }
        guard available >= 4 else { return false }
        let magic = withUnreadBytes { CaptureFieldReader($0, bigEndian: false).uint32(at: 0) }
        switch magic {
        case PcapFormat.microsecondMagic: format = .pcap(nanosecond: false, bigEndian: false)
        case PcapFormat.microsecondMagic.byteSwapped: format = .pcap(nanosecond: false, bigEndian: true)
        case PcapFormat.nanosecondMagic: format = .pcap(nanosecond: true, bigEndian: false)
        case PcapFormat.nanosecondMagic.byteSwapped: format = .pcap(nanosecond: true, bigEndian: true)
        default: format = .pcapng
        }
        if case .pcap(_, let bigEndian) = format {
            self.bigEndian = bigEndian
        }
        return true
    }

    /// Reads the 24-byte pcap file header (draft-ietf-opsawg-pcap section 4): `false` until it has
    /// all arrived.
    mutating func readPcapFileHeader() throws(CaptureError) -> Bool {
        guard unconsumedByteCount >= PcapFormat.fileHeaderLength else { return false }
        let (major, minor, linkTypeField) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
            return (fields.uint16(at: 4), fields.uint16(at: 6), fields.uint32(at: 20))
        }
        guard major == PcapFormat.majorVersion else {
            throw CaptureError(
                code: .malformedRecord,
                message: "the pcap file header has version \(major).\(minor); only version 2 is known",
                byteOffset: 0
            )
        }
        // Section 4: only the lower 16 bits are the link type; above them are the FCS length,
        // the bit that says it is present (0x04000000, libpcap's LT_FCS_DATALINK_EXT) and
        // reserved bits, which readers must ignore.
        pcapLinkType = LinkType(rawValue: linkTypeField & 0x0000_FFFF)
        readIndex += PcapFormat.fileHeaderLength
        fileHeaderRead = true
        return true
    }

    /// Reads one pcap packet record (section 5): `nil` until the whole record has arrived.
    mutating func readPcapRecord(nanosecond: Bool) throws(CaptureError) -> CapturedPacket? {
        let headerLength = PcapFormat.recordHeaderLength
        guard unconsumedByteCount >= headerLength else { return nil }
        let (seconds, fraction, capturedLength, originalLength) = withUnreadBytes { raw in
            let fields = CaptureFieldReader(raw, bigEndian: bigEndian)
            return (fields.uint32(at: 0), fields.uint32(at: 4), fields.uint32(at: 8), fields.uint32(at: 12))
        }
        let recordOffset = bytesConsumed
        guard capturedLength <= maxRecordLength else {
            throw CaptureError(
                code: .malformedRecord,
                message: "the pcap record at offset \(recordOffset) claims \(capturedLength) captured bytes, "
                    + "more than the limit of \(maxRecordLength)",
                byteOffset: recordOffset
            )
        }
        let length = Int(capturedLength)
        guard unconsumedByteCount >= headerLength + length else { return nil }

        // A fraction of a second or more is carried into the seconds rather than rejected:
        // some writers produce it, and the sum is still the instant they meant.
        let unitsPerSecond: UInt32 = nanosecond ? 1_000_000_000 : 1_000_000
        let nanosecondsPerUnit: UInt32 = nanosecond ? 1 : 1000
        let timestamp = CaptureTimestamp(
            seconds: Int64(seconds) + Int64(fraction / unitsPerSecond),
            nanoseconds: (fraction % unitsPerSecond) * nanosecondsPerUnit
        )
        let packet = CapturedPacket(
            timestamp: timestamp,
            linkType: pcapLinkType,
            bytes: copyUnreadBytes(from: headerLength, count: length),
            originalLength: Int(originalLength),
            interfaceID: 0,
            byteOffset: recordOffset + Int64(headerLength)
        )
        readIndex += headerLength + length
        lastTimestamp = timestamp
        return packet
    }
}
