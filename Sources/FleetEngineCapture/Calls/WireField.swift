/// One field of a protobuf message read without its schema: its number, its wire type and the
/// value as the wire carries it (protobuf encoding, "Message Structure").
public struct WireField: Sendable, Hashable {
    /// A field's value, by wire type.
    public enum Value: Sendable, Hashable {
        /// Wire type 0.
        case varint(UInt64)
        /// Wire type 1, little-endian.
        case fixed64(UInt64)
        /// Wire type 2: a string, bytes, a message or a packed repeated field.
        case lengthDelimited(ArraySlice<UInt8>)
        /// Wire type 5, little-endian.
        case fixed32(UInt32)
    }

    public var number: UInt32
    public var value: Value

    /// The fields of `bytes` in order, or nil when `bytes` is not a well-formed message (a
    /// truncated field, a field number of 0, an unknown or group wire type).
    public static func fields(of bytes: ArraySlice<UInt8>) -> [WireField]? {
        var fields: [WireField] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let tag = readVarint(bytes, &index), tag >> 3 != 0, tag >> 3 <= UInt64(UInt32.max) else {
                return nil
            }
            let number = UInt32(tag >> 3)
            switch tag & 7 {
            case 0:
                guard let value = readVarint(bytes, &index) else { return nil }
                fields.append(WireField(number: number, value: .varint(value)))
            case 1:
                guard bytes.endIndex - index >= 8 else { return nil }
                var value: UInt64 = 0
                for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
                index += 8
                fields.append(WireField(number: number, value: .fixed64(value)))
            case 2:
                guard let length = readVarint(bytes, &index), length <= UInt64(bytes.endIndex - index) else {
                    return nil
                }
                let end = index + Int(length)
                fields.append(WireField(number: number, value: .lengthDelimited(bytes[index..<end])))
                index = end
            case 5:
                guard bytes.endIndex - index >= 4 else { return nil }
                var value: UInt32 = 0
                for offset in 0..<4 { value |= UInt32(bytes[index + offset]) << (8 * UInt32(offset)) }
                index += 4
                fields.append(WireField(number: number, value: .fixed32(value)))
            default:
                return nil
            }
        }
        return fields
    }

    private static func readVarint(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
