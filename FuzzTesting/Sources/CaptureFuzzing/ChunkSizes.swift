/// Chunk sizes from SplitMix64: mostly small (1 to 64 bytes, so that headers and blocks are cut
/// everywhere), sometimes up to 4 KiB.
public struct ChunkSizes {
    private var state: UInt64
    private let constant: Int?

    public init(seed: UInt64) {
        state = seed
        constant = nil
    }

    public init(constant: Int) {
        state = 0
        self.constant = constant
    }

    public mutating func next() -> Int {
        if let constant { return constant }
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return mixed & 7 == 0 ? 1 + Int((mixed >> 8) % 4096) : 1 + Int((mixed >> 8) % 64)
    }

    /// FNV-1a over the input: a seed that is the same each time the input is replayed.
    public static func hash(_ input: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
