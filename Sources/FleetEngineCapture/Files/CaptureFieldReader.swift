/// Reads the fixed-size integer fields of capture file headers and packet headers out of raw bytes,
/// in the byte order the file or protocol uses.
///
/// Capture formats mix byte orders: pcap and pcapng fields are in the writer's order (said by the
/// magic number), network protocol fields are big-endian. Every read is `loadUnaligned` because
/// neither records nor headers are aligned in the buffer. Callers check bounds before reading.
struct CaptureFieldReader {
    /// The bytes to read from, indexed from 0.
    let bytes: UnsafeRawBufferPointer
    /// Whether multi-byte fields are big-endian.
    let bigEndian: Bool

    /// A reader over `bytes` for fields in the given byte order.
    init(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// The byte at `offset`.
    @inline(__always)
    func uint8(at offset: Int) -> UInt8 {
        bytes[offset]
    }

    /// The 16-bit field at `offset`.
    @inline(__always)
    func uint16(at offset: Int) -> UInt16 {
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: value) : UInt16(littleEndian: value)
    }

    /// The 32-bit field at `offset`.
    @inline(__always)
    func uint32(at offset: Int) -> UInt32 {
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }

    /// The 64-bit field at `offset`.
    @inline(__always)
    func uint64(at offset: Int) -> UInt64 {
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: value) : UInt64(littleEndian: value)
    }
}
