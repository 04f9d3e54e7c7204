/// A cursor over a fuzzer's input that never fails: a read past the end gives zeros or fewer bytes,
/// so every input is some script.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// A cursor at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes, or those that are left.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[min(position, end)..<end])
    }

    /// A length: the byte's low bits, or, when they are all set, the next byte added to them, so
    /// short lengths cost one byte and longer ones two.
    public mutating func length(lowBitsOf byte: UInt8, bits: Int) -> Int {
        let mask = (1 << bits) - 1
        let low = Int(byte) & mask
        return low == mask ? low + Int(self.byte()) : low
    }
}
