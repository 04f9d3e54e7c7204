/// Varints, the one variable-length piece of protobuf's encoding.
enum WireReading {
    /// Reads a varint at `position` without bounds or length checks beyond the buffer's end, for
    /// bytes the scanner has already checked. Returns 0 at the end of the buffer.
    static func varint(in buffer: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < buffer.count {
            let byte = buffer[position]
            position += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
            if shift >= 64 { break }
        }
        return value
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }
}

extension WireReading {
    /// Moves past one field's value, for bytes already checked to be well-formed (unknown fields
    /// that decoding kept, or that ``UnknownFields/init(validating:)`` accepted).
    static func skipValue(
        wireType: UInt8, fieldNumber: UInt64, in buffer: UnsafeBufferPointer<UInt8>, at position: inout Int
    ) {
        switch wireType {
        case 0:
            _ = varint(in: buffer, at: &position)
        case 1:
            position = min(position + 8, buffer.count)
        case 2:
            let length = varint(in: buffer, at: &position)
            position = length > UInt64(buffer.count - position) ? buffer.count : position + Int(length)
        case 3:
            while position < buffer.count {
                let tag = varint(in: buffer, at: &position)
                if tag & 7 == 4 && tag >> 3 == fieldNumber { return }
                skipValue(wireType: UInt8(tag & 7), fieldNumber: tag >> 3, in: buffer, at: &position)
            }
        case 5:
            position = min(position + 4, buffer.count)
        default:
            // End-group tags are consumed by the group case; nothing else reaches here from checked bytes.
            position = buffer.count
        }
    }
}
