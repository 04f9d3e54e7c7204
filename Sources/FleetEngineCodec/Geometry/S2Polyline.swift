/// A path in the encoding Fleet Engine uses for `Trip.current_route_segment`: an S2 polyline, losslessly
/// encoded, as URL-safe base64 text.
///
/// The bytes are those of S2's `S2Polyline::Encode` in its lossless form:
///
/// | bytes | content |
/// | --- | --- |
/// | 1 | the encoding version, `0x01` |
/// | 4 | the number of vertices, a little-endian `UInt32` |
/// | 24 per vertex | the vertex as a unit vector: `x`, `y`, `z`, each a little-endian IEEE 754 `Float64` |
///
/// where `x = cos(lat) cos(lng)`, `y = cos(lat) sin(lng)` and `z = sin(lat)`. The text is base64 with
/// the URL-safe alphabet of RFC 4648 section 5, padded with `=`, as Fleet Engine sends it. Google's
/// Fleet Debugger decodes the same bytes, so a segment made here can be checked there.
public struct S2Polyline: Sendable, Hashable {
    /// The version byte of the lossless encoding, the only one this type reads or writes.
    public static let encodingVersion: UInt8 = 1

    /// The path's points, in order.
    public var vertices: [LatLng]

    /// A polyline through these points.
    public init(vertices: [LatLng]) {
        self.vertices = vertices
    }

    /// Reads a polyline from its encoded text; nil when the text is not one.
    ///
    /// The text is read as proto3 JSON reads `bytes` (either base64 alphabet, padded or not). Refused:
    /// a character outside both alphabets, padding anywhere but at the end, a length that leaves a
    /// single character over, a version other than 1, a byte count that does not
    /// match the vertex count, and a vertex that is not a finite non-zero vector. The vector need not be
    /// of unit length: its direction is the point, as in S2.
    public init?(encoded text: String) {
        guard let bytes = try? Base64.decode(text), bytes.count >= 5, bytes[0] == Self.encodingVersion else {
            return nil
        }
        let count = Int(Self.readUInt32(bytes, at: 1))
        // Compared by division so that a hostile count cannot overflow the multiplication.
        guard (bytes.count - 5) % 24 == 0, (bytes.count - 5) / 24 == count else { return nil }
        var vertices: [LatLng] = []
        vertices.reserveCapacity(count)
        for index in 0..<count {
            let offset = 5 + index * 24
            let x = Double(bitPattern: Self.readUInt64(bytes, at: offset))
            let y = Double(bitPattern: Self.readUInt64(bytes, at: offset + 8))
            let z = Double(bitPattern: Self.readUInt64(bytes, at: offset + 16))
            guard x.isFinite, y.isFinite, z.isFinite, x != 0 || y != 0 || z != 0 else { return nil }
            vertices.append(LatLng(directionX: x, y: y, z: z))
        }
        self.vertices = vertices
    }

    /// The encoded text: version, count and unit vectors, in padded URL-safe base64.
    public var encoded: String {
        var bytes: [UInt8] = [Self.encodingVersion]
        bytes.reserveCapacity(5 + vertices.count * 24)
        Self.appendUInt32(UInt32(truncatingIfNeeded: vertices.count), to: &bytes)
        for vertex in vertices {
            let vector = vertex.unitVector
            Self.appendUInt64(vector.x.bitPattern, to: &bytes)
            Self.appendUInt64(vector.y.bitPattern, to: &bytes)
            Self.appendUInt64(vector.z.bitPattern, to: &bytes)
        }
        var text: [UInt8] = []
        Base64.encode(bytes, into: &text, urlSafe: true)
        return String(decoding: text, as: UTF8.self)
    }
}

extension S2Polyline {
    private static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    private static func appendUInt64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { value, index in value | UInt32(bytes[offset + index]) << UInt32(index * 8) }
    }

    private static func readUInt64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { value, index in value | UInt64(bytes[offset + index]) << UInt64(index * 8) }
    }
}
