import CFleetEngineProtos
import CProtobufC

extension EncodeArena {
    /// A point's wire bytes, for the C rendering that carries `google.type.LatLng` fields as bytes:
    /// written here in the form Google's encoders use, or by protobuf-c when it has unknown fields.
    func point(_ point: LatLng) -> ProtobufCBinaryData {
        guard point.unknownFields.isEmpty else { return binaryData(point.serializedBytes()) }
        let latitude = point.latitude.bitPattern
        let longitude = point.longitude.bitPattern
        let count = (latitude != 0 ? 9 : 0) + (longitude != 0 ? 9 : 0)
        if count == 0 { return ProtobufCBinaryData(len: 0, data: nil) }
        let target = allocateBytes(count)
        // Field 1 then field 2, each a fixed64 tag and the double's bits, little-endian; a field
        // whose bits are zero is left out, as proto3 encoders do.
        var offset = 0
        if latitude != 0 {
            target.storeBytes(of: 0x09, toByteOffset: 0, as: UInt8.self)
            target.storeBytes(of: latitude.littleEndian, toByteOffset: 1, as: UInt64.self)
            offset = 9
        }
        if longitude != 0 {
            target.storeBytes(of: 0x11, toByteOffset: offset, as: UInt8.self)
            target.storeBytes(of: longitude.littleEndian, toByteOffset: offset + 1, as: UInt64.self)
        }
        return ProtobufCBinaryData(len: count, data: target.assumingMemoryBound(to: UInt8.self))
    }
}
