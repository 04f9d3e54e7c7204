/// The Huffman code of RFC 7541 Appendix B, and the decoder of strings coded with it (section 5.2).
///
/// Decoding is table-driven: the code's tree has 256 inner nodes, and a table built once holds,
/// for every node and every 4 bits of input, the node those bits lead to and the symbol they
/// complete, if any. A byte costs two table look-ups instead of eight steps down a tree.
enum HPACKHuffman {
    /// The symbol that the code reserves for the end of a string, which a string must never
    /// contain (RFC 7541 section 5.2).
    static let endOfString = 256

    /// The length in bits of each symbol's code, symbol 0 first and EOS (256) last, as listed in
    /// RFC 7541 Appendix B.
    static let codeLengths: [UInt8] = [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,  // 0-15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,  // 16-31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,  // 32-47
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,  // 48-63
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  // 64-79
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,  // 80-95
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,  // 96-111
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,  // 112-127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,  // 128-143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,  // 144-159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,  // 160-175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,  // 176-191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,  // 192-207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,  // 208-223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,  // 224-239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,  // 240-255
        30,  // 256, EOS
    ]

    /// Each symbol's code, right-aligned in the integer, as Appendix B lists it.
    ///
    /// Appendix B's code is canonical: taken in order of length and then of symbol, each code is
    /// the one before plus one, shifted left by the growth in length. So the lengths alone fix
    /// every code, and carrying 257 lengths leaves less room for a typing mistake than 257 codes.
    static let codes: [UInt32] = makeCanonicalCodes(lengths: codeLengths)

    /// Why a Huffman-coded string does not decode, and at which of its bytes (counted from the
    /// string's first byte) that was found.
    enum DecodingFailure: Error, Hashable, Sendable {
        /// The string contains the EOS symbol, whose code ends in that byte.
        case endOfString(byteIndex: Int)
        /// The string ends with more than 7 bits of padding.
        case paddingTooLong(byteIndex: Int)
        /// The string ends with bits that are neither a whole code nor ones, the start of EOS.
        case paddingNotOnes(byteIndex: Int)
    }

    /// Decodes a Huffman-coded string (RFC 7541 section 5.2).
    ///
    /// - Returns: the decoded bytes, or why the string is malformed.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Result<[UInt8], DecodingFailure> {
        var failure: DecodingFailure?
        // The shortest code has 5 bits, so n bytes hold at most 8n/5 symbols.
        let decoded = [UInt8](unsafeUninitializedCapacity: bytes.count * 8 / 5 + 1) { output, count in
            failure = transitions.withUnsafeBufferPointer { table in
                bytes.withUnsafeBufferPointer { input in
                    decode(input, table: table, into: output, count: &count)
                }
            }
        }
        if let failure { return .failure(failure) }
        return .success(decoded)
    }

    /// The decoding loop, over raw buffers so that each byte costs two loads and two stores.
    ///
    /// - Parameters:
    ///   - output: room for `8 * input.count / 5 + 1` bytes: one more than the most symbols the
    ///     input can hold, since each nibble stores a symbol byte at the next free place whether or
    ///     not it completes one, to save a branch.
    ///   - count: set to the number of bytes written to `output`.
    @inline(__always)
    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>,
        table: UnsafeBufferPointer<Transition>,
        into output: UnsafeMutableBufferPointer<UInt8>,
        count: inout Int
    ) -> DecodingFailure? {
        // The table has 16 entries for each of its 256 states, and every state it names is one of
        // them, so indexing it with a state and a nibble never leaves it; 4 bits complete at most
        // one symbol, and symbols take at least 5 bits, so `output` never fills up.
        var written = 0
        defer { count = written }
        var row = 0
        var flags = Transition.accepting
        for byteIndex in input.indices {
            let byte = input[byteIndex]
            let high = table[row | Int(byte >> 4)]
            if high.flags & Transition.failing != 0 { return .endOfString(byteIndex: byteIndex) }
            output[written] = high.symbol
            written &+= Int(high.flags & Transition.emits)
            let low = table[high.nextRow | Int(byte & 0x0F)]
            if low.flags & Transition.failing != 0 { return .endOfString(byteIndex: byteIndex) }
            output[written] = low.symbol
            written &+= Int(low.flags & Transition.emits)
            row = low.nextRow
            flags = low.flags
        }
        if flags & Transition.accepting != 0 { return nil }
        // Section 5.2: the padding must be at most 7 bits, all ones (the start of EOS).
        let lastByte = max(input.count - 1, 0)
        if flags & Transition.onEndOfStringPath != 0 { return .paddingTooLong(byteIndex: lastByte) }
        return .paddingNotOnes(byteIndex: lastByte)
    }

    /// Assigns canonical codes to symbols from their code lengths: shorter codes first, and within
    /// one length, smaller symbols first.
    static func makeCanonicalCodes(lengths: [UInt8]) -> [UInt32] {
        let order = lengths.indices.sorted { (lengths[$0], $0) < (lengths[$1], $1) }
        var codes = [UInt32](repeating: 0, count: lengths.count)
        var code: UInt32 = 0
        var previousLength: UInt8 = 0
        for (rank, symbol) in order.enumerated() {
            let length = lengths[symbol]
            if rank > 0 { code += 1 }
            code <<= UInt32(length - previousLength)
            codes[symbol] = code
            previousLength = length
        }
        return codes
    }
}
