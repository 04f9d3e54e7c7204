/// Appends fixed-size integers to a byte array in a chosen byte order, for building capture files
/// and packet headers in tests.
struct CaptureFieldWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []
    /// Whether multi-byte integers are written big-endian (network order) or little-endian.
    var bigEndian: Bool

    /// A writer for integers in the given byte order.
    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    /// Appends one byte.
    mutating func uint8(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends a 16-bit integer.
    mutating func uint16(_ value: UInt16) {
        integer(value)
    }

    /// Appends a 32-bit integer.
    mutating func uint32(_ value: UInt32) {
        integer(value)
    }

    /// Appends a 64-bit integer.
    mutating func uint64(_ value: UInt64) {
        integer(value)
    }

    /// Appends bytes as they are.
    mutating func append(_ more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends zero bytes until the length is a multiple of `multiple`.
    mutating func pad(toMultipleOf multiple: Int) {
        while bytes.count % multiple != 0 { bytes.append(0) }
    }

    /// Overwrites the 32-bit integer at `offset`, for lengths known only once the rest is written.
    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 {
            let shift = bigEndian ? 24 - 8 * index : 8 * index
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
    }

    private mutating func integer<Value: FixedWidthInteger>(_ value: Value) {
        let byteCount = Value.bitWidth / 8
        for index in 0..<byteCount {
            let shift = bigEndian ? (byteCount - 1 - index) * 8 : index * 8
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
