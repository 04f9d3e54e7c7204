extension PacketDecoder {
    /// IP protocol numbers (IANA "Assigned Internet Protocol Numbers") the decoder follows.
    enum IPProtocol {
        static let tcp: UInt8 = 6
        static let hopByHopOptions: UInt8 = 0
        static let routing: UInt8 = 43
        static let fragment: UInt8 = 44
        static let authentication: UInt8 = 51
        static let destinationOptions: UInt8 = 60
    }

    /// The TCP segment in the IPv4 packet starting at `start` (RFC 791 section 3.1), or `nil` for
    /// another protocol or a fragment.
    static func ipv4Segment(in raw: UnsafeRawBufferPointer, from start: Int) throws(CaptureError)
        -> TCPSegmentLocation?
    {
        try requireLength(start + 20, of: "IPv4 header", in: raw)
        let fields = CaptureFieldReader(raw, bigEndian: true)
        let versionAndLength = fields.uint8(at: start)
        guard versionAndLength >> 4 == 4 else {
            throw malformed("the IPv4 header has IP version \(versionAndLength >> 4)")
        }
        let headerLength = Int(versionAndLength & 0x0F) * 4
        guard headerLength >= 20 else {
            throw malformed("the IPv4 header length is \(headerLength) bytes, less than 20")
        }
        try requireLength(start + headerLength, of: "IPv4 header with options", in: raw)
        var totalLength = Int(fields.uint16(at: start + 2))
        if totalLength == 0 {
            // TCP segmentation offload hands the capture a packet whose total length is not
            // filled in yet; the captured bytes are the packet.
            totalLength = raw.count - start
        }
        guard totalLength >= headerLength else {
            throw malformed("the IPv4 total length \(totalLength) is less than its header length \(headerLength)")
        }
        // RFC 791: bit 0x2000 is More Fragments, the low 13 bits the fragment offset. Only an
        // unfragmented packet holds a whole TCP header and payload.
        let fragmentField = fields.uint16(at: start + 6)
        guard fragmentField & 0x3FFF == 0 else { return nil }
        guard fields.uint8(at: start + 9) == IPProtocol.tcp else { return nil }
        let end = start + totalLength
        guard end <= raw.count else {
            throw malformed(
                "the capture holds \(raw.count - start) of the \(totalLength) bytes the IPv4 total length gives "
                    + "(cut by the snap length)"
            )
        }
        return try tcpSegment(
            in: raw,
            from: start + headerLength,
            to: end,
            source: .v4(fields.uint32(at: start + 12)),
            destination: .v4(fields.uint32(at: start + 16))
        )
    }

    /// The TCP segment in the IPv6 packet starting at `start` (RFC 8200 section 3), after its
    /// hop-by-hop, routing, destination options, fragment and authentication headers (section 4),
    /// or `nil` for another protocol (ESP among them: its payload is encrypted) or a fragment.
    static func ipv6Segment(in raw: UnsafeRawBufferPointer, from start: Int) throws(CaptureError)
        -> TCPSegmentLocation?
    {
        try requireLength(start + 40, of: "IPv6 header", in: raw)
        let fields = CaptureFieldReader(raw, bigEndian: true)
        let version = fields.uint8(at: start) >> 4
        guard version == 6 else { throw malformed("the IPv6 header has IP version \(version)") }
        let payloadLength = Int(fields.uint16(at: start + 4))
        // A payload length of 0 means a jumbogram (RFC 2675) or segmentation offload: the
        // captured bytes are the packet.
        let end = payloadLength == 0 ? raw.count : start + 40 + payloadLength
        var nextHeader = fields.uint8(at: start + 6)
        var position = start + 40
        func requireExtension(_ length: Int, _ name: String) throws(CaptureError) {
            guard position + length <= end else {
                throw malformed("the IPv6 \(name) header runs past the end the payload length gives")
            }
            try requireLength(position + length, of: "IPv6 \(name) header", in: raw)
        }
        walk: while true {
            switch nextHeader {
            case IPProtocol.tcp:
                break walk
            case IPProtocol.hopByHopOptions, IPProtocol.routing, IPProtocol.destinationOptions:
                // Section 4.3-4.6: Hdr Ext Len counts 8-octet units beyond the first 8 octets.
                try requireExtension(2, "extension")
                let length = (Int(fields.uint8(at: position + 1)) + 1) * 8
                try requireExtension(length, "extension")
                nextHeader = fields.uint8(at: position)
                position += length
            case IPProtocol.fragment:
                // Section 4.5: a fragment with a non-zero offset or the M flag needs reassembly;
                // an atomic fragment (offset 0, M clear, RFC 6946) is a whole packet.
                try requireExtension(8, "fragment")
                guard fields.uint16(at: position + 2) & 0xFFF9 == 0 else { return nil }
                nextHeader = fields.uint8(at: position)
                position += 8
            case IPProtocol.authentication:
                // RFC 4302 section 2.2: Payload Len counts 4-octet units, minus 2. The header
                // authenticates the payload without hiding it, so the TCP segment follows in clear.
                try requireExtension(2, "authentication")
                let length = (Int(fields.uint8(at: position + 1)) + 2) * 4
                try requireExtension(length, "authentication")
                nextHeader = fields.uint8(at: position)
                position += length
            default:
                return nil
            }
        }
        guard end <= raw.count else {
            throw malformed(
                "the capture holds \(raw.count - start) of the \(end - start) bytes the IPv6 payload length gives "
                    + "(cut by the snap length)"
            )
        }
        return try tcpSegment(
            in: raw,
            from: position,
            to: end,
            source: .v6(fields.uint64(at: start + 8), fields.uint64(at: start + 16)),
            destination: .v6(fields.uint64(at: start + 24), fields.uint64(at: start + 32))
        )
    }

    /// The TCP segment between `start` and `end` (RFC 9293 section 3.1).
    static func tcpSegment(
        in raw: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int,
        source: IPAddress,
        destination: IPAddress
    ) throws(CaptureError) -> TCPSegmentLocation {
        guard start + 20 <= end else {
            throw malformed("the TCP header is cut short: the IP packet leaves \(end - start) of its 20 bytes")
        }
        let fields = CaptureFieldReader(raw, bigEndian: true)
        let headerLength = Int(fields.uint8(at: start + 12) >> 4) * 4
        guard headerLength >= 20, start + headerLength <= end else {
            throw malformed(
                "the TCP data offset gives a \(headerLength)-byte header in a \(end - start)-byte segment"
            )
        }
        return TCPSegmentLocation(
            source: source,
            destination: destination,
            sourcePort: fields.uint16(at: start),
            destinationPort: fields.uint16(at: start + 2),
            sequenceNumber: fields.uint32(at: start + 4),
            acknowledgmentNumber: fields.uint32(at: start + 8),
            flags: TCPFlags(rawValue: fields.uint8(at: start + 13)),
            payload: (start + headerLength)..<end
        )
    }
}
