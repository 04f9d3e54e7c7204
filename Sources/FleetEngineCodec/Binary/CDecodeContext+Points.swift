import CFleetEngineProtos
import CProtobufC

/// Points (`google.type.LatLng`), which the C rendering carries as bytes: protobuf-c frames them,
/// and they are read here. Nearly every point on the wire has one of four canonical forms (each of
/// latitude and longitude present or not, in field order); those are read directly, and anything
/// else (unknown fields, another order, a repeated field) goes through protobuf-c's LatLng unpack.
extension CDecodeContext {
    mutating func point(_ data: ProtobufCBinaryData) throws(CodecError) -> LatLng {
        let bytes = UnsafeRawBufferPointer(start: data.data, count: data.len)
        var point = LatLng()
        switch bytes.count {
        case 0:
            return point
        case 9 where bytes[0] == 0x09:
            point.latitude = Self.double(bytes, at: 1)
            return point
        case 9 where bytes[0] == 0x11:
            point.longitude = Self.double(bytes, at: 1)
            return point
        case 18 where bytes[0] == 0x09 && bytes[9] == 0x11:
            point.latitude = Self.double(bytes, at: 1)
            point.longitude = Self.double(bytes, at: 10)
            return point
        default:
            return try BinaryDecoding.decodeEmbedded(
                LatLng.self, UnsafeBufferPointer(start: data.data, count: data.len), context: &self)
        }
    }

    mutating func points(_ elements: UnsafeMutablePointer<ProtobufCBinaryData>?, count: Int) throws(CodecError)
        -> [LatLng]
    {
        guard count > 0, let elements else { return [] }
        try chargeMessages(LatLng.self, count: count)
        var result: [LatLng] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try point(elements[index]))
        }
        return result
    }

    /// A little-endian IEEE 754 double (protobuf's fixed64 encoding of `double`).
    private static func double(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
