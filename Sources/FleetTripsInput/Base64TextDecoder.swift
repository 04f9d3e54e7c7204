/// Reads base64 (RFC 4648) text a piece at a time, so that a long text can stream through in
/// bounded memory: groups cut between two pieces are carried over, and error offsets count from the
/// start of the whole text.
///
/// Lenient where people paste text from logs and terminals, which is why it is not the codec's
/// `Base64.decode` (whole texts only, no whitespace, padding only at the end): the standard
/// (section 4) and URL-safe (section 5) alphabets are both accepted, whitespace anywhere is
/// skipped, and padding is optional at the end. Padded pieces may follow one another
/// (`aGk=aGk=`), so text that concatenates several encodings, one per line, reads as their bytes in
/// order. The tool writes base64 with the codec's `Base64`: the standard alphabet with padding.
package struct Base64TextDecoder {
    private var group: UInt32 = 0
    private var symbols = 0
    private var padding = 0
    private var groupStart = 0
    /// Characters read so far, whitespace included.
    private var offset = 0

    /// Appends the bytes that the complete groups of `text` stand for to `output`.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` naming the offending character and
    ///   its offset in the whole text.
    package mutating func decode(_ text: some Sequence<UInt8>, into output: inout [UInt8]) throws(FleetTripsError) {
        for character in text {
            defer { offset += 1 }
            if TextInput.isWhitespace(character) { continue }
            if character == UInt8(ascii: "=") {
                // RFC 4648 section 3.2: padding follows 2 or 3 symbols and fills the group to 4.
                guard symbols >= 2, symbols + padding < 4 else {
                    throw Self.invalid("'=' at text offset \(offset) does not end a group of 2 or 3 base64 characters")
                }
                padding += 1
                if symbols + padding == 4 {
                    Self.flush(group, symbols: symbols, into: &output)
                    (group, symbols, padding) = (0, 0, 0)
                }
                continue
            }
            guard padding == 0 else {
                throw Self.invalid(
                    "base64 character at text offset \(offset) comes before the padding of its group is complete")
            }
            guard let value = Self.value(of: character) else {
                throw Self.invalid(
                    "\(TextInput.describe(character)) at text offset \(offset) is not a base64 character")
            }
            if symbols == 0 { groupStart = offset }
            group = group << 6 | value
            symbols += 1
            if symbols == 4 {
                Self.flush(group, symbols: 4, into: &output)
                (group, symbols) = (0, 0)
            }
        }
    }

    /// Ends the text: appends the bytes of an unpadded last group to `output`.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` for text that ends inside a group's
    ///   padding, or with a last group too short to hold a byte.
    package mutating func finish(into output: inout [UInt8]) throws(FleetTripsError) {
        guard padding == 0 else {
            throw Self.invalid("base64 text ends inside the padding of the group at text offset \(groupStart)")
        }
        guard symbols != 1 else {
            throw Self.invalid(
                "base64 text ends with a single character at text offset \(groupStart), too few for a byte")
        }
        if symbols > 0 { Self.flush(group, symbols: symbols, into: &output) }
        (group, symbols) = (0, 0)
    }

    /// The 6-bit value of a character of either alphabet, or nil for anything else.
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

    /// Appends the bytes of a group of 2, 3 or 4 symbols (8, 16 or 24 bits; the rest is filler).
    private static func flush(_ group: UInt32, symbols: Int, into output: inout [UInt8]) {
        let bits = group << (6 * UInt32(4 - symbols))
        output.append(UInt8(truncatingIfNeeded: bits >> 16))
        if symbols >= 3 { output.append(UInt8(truncatingIfNeeded: bits >> 8)) }
        if symbols == 4 { output.append(UInt8(truncatingIfNeeded: bits)) }
    }

    private static func invalid(_ message: String) -> FleetTripsError {
        FleetTripsError(code: .invalidInputText, message: message)
    }
}
