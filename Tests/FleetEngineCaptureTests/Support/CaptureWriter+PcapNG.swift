import FleetEngineCapture

extension CaptureWriter {
    /// Starts a new pcapng section (draft-ietf-opsawg-pcapng section 4.1) in `bigEndian` order,
    /// describing `interfaces`; interface numbers start again from 0. Returns the offset of the
    /// Section Header Block.
    @discardableResult
    mutating func beginSection(bigEndian: Bool, interfaces: [Interface] = []) -> Int {
        fields.bigEndian = bigEndian
        self.interfaces = []
        let start = appendBlock(type: 0x0A0D_0D0A) { body in
            body.uint32(0x1A2B_3C4D)
            body.uint16(1)
            body.uint16(0)
            // Section length unknown (section 4.1).
            body.uint64(UInt64.max)
        }
        for interface in interfaces {
            addInterface(interface)
        }
        return start
    }

    /// Describes one more interface in the current section (section 4.2), writing if_tsresol and
    /// if_tsoffset when they differ from the defaults. Returns the offset of the block.
    @discardableResult
    mutating func addInterface(_ interface: Interface) -> Int {
        interfaces.append(interface)
        return appendBlock(type: 1) { body in
            body.uint16(UInt16(truncatingIfNeeded: interface.linkType.rawValue))
            body.uint16(0)
            body.uint32(interface.snapLength)
            var hasOptions = false
            if interface.timestampResolution != .microseconds {
                let value: UInt8
                switch interface.timestampResolution {
                case .decimal(let exponent): value = UInt8(exponent)
                case .binary(let exponent): value = 0x80 | UInt8(exponent)
                }
                body.uint16(9)
                body.uint16(1)
                body.uint8(value)
                body.pad(toMultipleOf: 4)
                hasOptions = true
            }
            if interface.timestampOffset != 0 {
                body.uint16(14)
                body.uint16(8)
                body.uint64(UInt64(bitPattern: interface.timestampOffset))
                hasOptions = true
            }
            if hasOptions {
                body.uint16(0)
                body.uint16(0)
            }
        }
    }

    /// Appends an Enhanced Packet Block (section 4.3) whose timestamp is `timestampUnits` ticks of
    /// the interface's clock. Returns the offset of the block.
    @discardableResult
    mutating func append(
        packet: [UInt8],
        timestampUnits: UInt64,
        originalLength: Int? = nil,
        interface: Int = 0
    ) -> Int {
        let start = appendBlock(type: 6) { body in
            body.uint32(UInt32(interface))
            body.uint32(UInt32(truncatingIfNeeded: timestampUnits >> 32))
            body.uint32(UInt32(truncatingIfNeeded: timestampUnits))
            body.uint32(UInt32(packet.count))
            body.uint32(UInt32(originalLength ?? packet.count))
            body.append(packet)
        }
        lastPacketDataOffset = start + 28
        return start
    }

    /// Appends a Simple Packet Block (section 4.4): no interface, no timestamp, and a captured
    /// length the reader works out from the original length and the snap length. Returns the
    /// offset of the block.
    @discardableResult
    mutating func appendSimplePacket(_ packet: [UInt8], originalLength: Int? = nil) -> Int {
        let start = appendBlock(type: 3) { body in
            body.uint32(UInt32(originalLength ?? packet.count))
            body.append(packet)
        }
        lastPacketDataOffset = start + 12
        return start
    }

    /// Appends a block of any type with `body` padded to 32 bits (section 3.1), for blocks the
    /// reader should skip. Returns the offset of the block.
    @discardableResult
    mutating func appendBlock(type: UInt32, body: [UInt8]) -> Int {
        appendBlock(type: type) { $0.append(body) }
    }

    /// Appends a block of `type` whose body `writeBody` writes in the section's byte order,
    /// framed with its total length at both ends.
    @discardableResult
    mutating func appendBlock(type: UInt32, _ writeBody: (inout CaptureFieldWriter) -> Void) -> Int {
        let start = fields.bytes.count
        fields.uint32(type)
        fields.uint32(0)
        writeBody(&fields)
        fields.pad(toMultipleOf: 4)
        let totalLength = UInt32(fields.bytes.count - start + 4)
        fields.uint32(totalLength)
        fields.setUInt32(totalLength, at: start + 4)
        return start
    }
}
