import FleetEngineCodec

/// base64url without padding, the encoding of every part of a compact JWS (RFC 7515 section 2,
/// "Base64url Encoding"; the alphabet is RFC 4648 section 5).
///
/// Encoding is the codec's `Base64`. Decoding is not: the codec's takes either alphabet and
/// padding, where this one is strict, because two spellings of the same bytes would let a token be
/// altered without touching its signature, and because RFC 7515 section 2 leaves no room: no `=`
/// padding, no line breaks, whitespace or other characters, no `+` or `/` from the standard
/// alphabet. A length that leaves one character over encodes no byte, and unused low bits of the
/// last character must be zero (RFC 4648 section 3.5 lets a decoder refuse them; only the zero form
/// is canonical).
enum Base64URL {
    /// The unpadded base64url text of `bytes`.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encode(bytes, padded: false, urlSafe: true)
    }

    /// The bytes of unpadded base64url text.
    ///
    /// - Parameter part: which part of the token the text is (`header`, `payload`, `signature`),
    ///   for the message.
    /// - Throws: ``JWTError/Code/malformedToken`` saying which character, at which index, is wrong.
    static func decode(_ text: Substring, part: String) throws(JWTError) -> [UInt8] {
        let characters = Array(text.utf8)
        if characters.count % 4 == 1 {
            throw JWTError(
                code: .malformedToken,
                message: "the \(part) is \(characters.count) base64url characters, which leaves one character "
                    + "over that encodes no byte",
                metadata: ["part": part]
            )
        }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var bits = 0
        for (index, character) in characters.enumerated() {
            guard let value = sextet(character) else {
                throw JWTError(
                    code: .malformedToken,
                    message: "the \(part) is not unpadded base64url (RFC 7515 section 2): \(describe(character)) "
                        + "at index \(index)",
                    metadata: ["part": part]
                )
            }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
                group &= (1 << UInt32(bits)) - 1
            }
        }
        if group != 0 {
            throw JWTError(
                code: .malformedToken,
                message: "the \(part)'s last base64url character has non-zero unused bits, so it is not the "
                    + "canonical encoding (RFC 4648 section 3.5)",
                metadata: ["part": part]
            )
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Names a byte without echoing much of the token: a printable ASCII character is shown
    /// quoted, anything else as its code.
    private static func describe(_ character: UInt8) -> String {
        if (0x21...0x7E).contains(character) {
            return "'\(Character(Unicode.Scalar(character)))'"
        }
        return "byte 0x\(String(character, radix: 16, uppercase: true))"
    }
}
