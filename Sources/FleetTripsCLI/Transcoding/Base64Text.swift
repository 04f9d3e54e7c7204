/// Base64 (RFC 4648) as the tool reads and writes it.
///
/// Reading is lenient where people paste text from logs and terminals: the standard (section 4)
/// and URL-safe (section 5) alphabets are both accepted, whitespace anywhere is skipped, and
/// padding is optional at the end. Padded pieces may follow one another (`aGk=aGk=`), so text
/// that concatenates several encodings, one per line, reads as their bytes in order.
/// Writing uses the standard alphabet with padding.
enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of an alphabet character, or nil for anything else.
    private static func value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Decodes base64 text.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` naming the offending character and
    ///   its offset in the text, or a final piece too short to hold a byte.
    static func decode(_ text: some Collection<UInt8>) throws(FleetTripsError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 3)
        var group: UInt32 = 0
        var symbols = 0
        var padding = 0
        var groupStart = 0
        for (offset, character) in text.enumerated() {
            if TextInput.isWhitespace(character) { continue }
            if character == UInt8(ascii: "=") {
                // RFC 4648 section 3.2: padding follows 2 or 3 symbols and fills the group to 4.
                guard symbols >= 2, symbols + padding < 4 else {
                    throw invalid("'=' at text offset \(offset) does not end a group of 2 or 3 base64 characters")
                }
                padding += 1
                if symbols + padding == 4 {
                    flush(group, symbols: symbols, into: &output)
                    (group, symbols, padding) = (0, 0, 0)
                }
                continue
            }
            guard padding == 0 else {
                throw invalid(
                    "base64 character at text offset \(offset) comes before the padding of its group is complete")
            }
            guard let value = value(of: character) else {
                throw invalid("\(TextInput.describe(character)) at text offset \(offset) is not a base64 character")
            }
            if symbols == 0 { groupStart = offset }
            group = group << 6 | value
            symbols += 1
            if symbols == 4 {
                flush(group, symbols: 4, into: &output)
                (group, symbols) = (0, 0)
            }
        }
        guard padding == 0 else {
            throw invalid("base64 text ends inside the padding of the group at text offset \(groupStart)")
        }
        guard symbols != 1 else {
            throw invalid("base64 text ends with a single character at text offset \(groupStart), too few for a byte")
        }
        if symbols > 0 { flush(group, symbols: symbols, into: &output) }
        return output
    }

    /// Appends the bytes of a group of 2, 3 or 4 symbols (8, 16 or 24 bits; the rest is filler).
    private static func flush(_ group: UInt32, symbols: Int, into output: inout [UInt8]) {
        let bits = group << (6 * UInt32(4 - symbols))
        output.append(UInt8(truncatingIfNeeded: bits >> 16))
        if symbols >= 3 { output.append(UInt8(truncatingIfNeeded: bits >> 8)) }
        if symbols == 4 { output.append(UInt8(truncatingIfNeeded: bits)) }
    }

    /// Encodes bytes as base64 with the standard alphabet and padding (RFC 4648 section 4).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for position in 0..<3 {
                group = group << 8 | UInt32(position < count ? bytes[index + position] : 0)
            }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3f)])
                } else {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += count
        }
        return output
    }

    private static func invalid(_ message: String) -> FleetTripsError {
        FleetTripsError(code: .invalidInputText, message: message)
    }
}
