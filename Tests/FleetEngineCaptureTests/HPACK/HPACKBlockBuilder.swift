@testable import FleetEngineCapture

/// Builds HPACK header blocks by hand (RFC 7541 sections 5 and 6), for the inputs an encoder never
/// makes: raw bytes that are not UTF-8, malformed integers and strings, bad Huffman padding.
struct HPACKBlockBuilder {
    /// How a literal field asks to be indexed (RFC 7541 section 6.2).
    enum LiteralKind {
        case incrementalIndexing
        case withoutIndexing
        case neverIndexed

        /// The representation's pattern bits and index prefix length.
        var pattern: (flags: UInt8, prefixBits: Int) {
            switch self {
            case .incrementalIndexing: (0x40, 6)
            case .withoutIndexing: (0x00, 4)
            case .neverIndexed: (0x10, 4)
            }
        }
    }

    /// The block so far.
    var bytes: [UInt8] = []

    /// The UTF-8 bytes of a string.
    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Appends an integer with an N-bit prefix (section 5.1), the prefix's high bits set to `flags`.
    mutating func integer(_ value: Int, prefixBits: Int, flags: UInt8 = 0) {
        let limit = (1 << prefixBits) - 1
        guard value >= limit else {
            bytes.append(flags | UInt8(value))
            return
        }
        bytes.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends a string literal (section 5.2), raw or Huffman-coded.
    mutating func string(_ value: [UInt8], huffman: Bool = false) {
        let payload = huffman ? Self.huffmanCoded(value.map(Int.init)) : value
        integer(payload.count, prefixBits: 7, flags: huffman ? 0x80 : 0)
        bytes += payload
    }

    /// Appends an indexed field (section 6.1).
    mutating func indexed(_ index: Int) {
        integer(index, prefixBits: 7, flags: 0x80)
    }

    /// Appends a literal field with a literal name (section 6.2).
    mutating func literal(name: [UInt8], value: [UInt8], kind: LiteralKind, huffman: Bool = false) {
        bytes.append(kind.pattern.flags)
        string(name, huffman: huffman)
        string(value, huffman: huffman)
    }

    /// Appends a literal field whose name is a table entry's (section 6.2).
    mutating func literal(nameIndex: Int, value: [UInt8], kind: LiteralKind, huffman: Bool = false) {
        integer(nameIndex, prefixBits: kind.pattern.prefixBits, flags: kind.pattern.flags)
        string(value, huffman: huffman)
    }

    /// Appends a dynamic table size update (section 6.3).
    mutating func tableSizeUpdate(_ size: Int) {
        integer(size, prefixBits: 5, flags: 0x20)
    }

    /// The Huffman coding of symbols (Appendix B), which may include EOS (256), padded with the
    /// given number of one bits or, by default, as few as fill the last byte.
    static func huffmanCoded(_ symbols: [Int], padding: Int? = nil) -> [UInt8] {
        var bits: [Bool] = []
        for symbol in symbols {
            let code = HPACKHuffman.codes[symbol]
            let length = Int(HPACKHuffman.codeLengths[symbol])
            for position in stride(from: length - 1, through: 0, by: -1) {
                bits.append((code >> UInt32(position)) & 1 == 1)
            }
        }
        bits += Array(repeating: true, count: padding ?? (8 - bits.count % 8) % 8)
        return stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].enumerated().reduce(UInt8(0)) { byte, bit in
                byte | (bit.element ? 0x80 >> UInt8(bit.offset) : 0)
            }
        }
    }
}
