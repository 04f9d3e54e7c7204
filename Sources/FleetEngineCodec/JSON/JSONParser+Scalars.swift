extension JSONParser.State {
    /// Parses a number and returns its exact text (RFC 8259 section 6).
    mutating func parseNumber() throws(CodecError) -> String {
        let start = position
        if input[position] == UInt8(ascii: "-") {
            position += 1
        }
        guard position < input.count, isDigit(input[position]) else {
            throw failure(.invalidJSON, "a number needs a digit after '-'", at: position)
        }
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) {
                throw failure(.invalidJSON, "a number must not start with a leading zero", at: start)
            }
        } else {
            skipDigits()
        }
        if position < input.count, input[position] == UInt8(ascii: ".") {
            position += 1
            guard position < input.count, isDigit(input[position]) else {
                throw failure(.invalidJSON, "a number needs a digit after the decimal point", at: position)
            }
            skipDigits()
        }
        if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else {
                throw failure(.invalidJSON, "a number needs a digit in its exponent", at: position)
            }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(CodecError) {
        let start = position
        let matches = literal.withUTF8Buffer { expected in
            guard input.count - position >= expected.count else { return false }
            return expected.indices.allSatisfy { input[position + $0] == expected[$0] }
        }
        guard matches else {
            throw failure(.invalidJSON, "unexpected text where the literal '\(literal)' was expected", at: start)
        }
        position += literal.utf8CodeUnitCount
    }

    /// Parses the string whose opening quote is at `position` (RFC 8259 section 7).
    ///
    /// The UTF-8 of the text is checked on the way (RFC 3629 section 4), so that a fault is reported at
    /// its own byte offset. A string without escapes is built straight from the input.
    mutating func parseString() throws(CodecError) -> String {
        let open = position
        position += 1
        var runStart = position
        var unescaped: [UInt8] = []
        var hasEscapes = false
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: input[runStart..<position])
                position += 1
                if hasEscapes {
                    unescaped.append(contentsOf: run)
                    return String(decoding: unescaped, as: UTF8.self)
                }
                return String(decoding: run, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                if !hasEscapes {
                    hasEscapes = true
                    unescaped.reserveCapacity(position - runStart + 16)
                }
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<position]))
                try parseEscape(into: &unescaped)
                runStart = position
            } else if byte < 0x20 {
                throw failure(
                    .invalidJSON,
                    "control character \(JSONParser.scalarName(UInt32(byte))) must be escaped in a string",
                    at: position
                )
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw failure(.invalidJSON, "the text ends inside the string that starts at byte \(open)", at: position)
    }

    /// Resolves the escape whose backslash is at `position` and appends its UTF-8.
    mutating func parseEscape(into output: inout [UInt8]) throws(CodecError) {
        let start = position
        guard position + 1 < input.count else {
            throw failure(.invalidJSON, "the text ends inside an escape sequence", at: start)
        }
        let letter = input[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(letter)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHexQuad(escapeAt: start)
            var scalar = first
            if (0xD800...0xDBFF).contains(first) {
                // RFC 8259 section 7: a character beyond the Basic Multilingual Plane is escaped as a
                // UTF-16 surrogate pair; half a pair is no character at all.
                let secondStart = position
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"),
                    input[position + 1] == UInt8(ascii: "u")
                else {
                    throw loneSurrogate(first, at: start)
                }
                position += 2
                let second = try parseHexQuad(escapeAt: secondStart)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw loneSurrogate(first, at: start)
                }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw loneSurrogate(first, at: start)
            }
            appendUTF8(scalar, to: &output)
        default:
            let shown = letter >= 0x21 && letter <= 0x7E ? "\\\(Character(Unicode.Scalar(letter)))" : "a backslash"
            throw failure(.invalidJSON, "\(shown) is not a JSON escape sequence", at: start)
        }
    }

    /// Reads the four hexadecimal digits of a `\u` escape.
    mutating func parseHexQuad(escapeAt start: Int) throws(CodecError) -> UInt32 {
        guard position + 4 <= input.count else {
            throw failure(.invalidJSON, "\\u must be followed by four hexadecimal digits", at: start)
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = input[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.invalidJSON, "\\u must be followed by four hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    func loneSurrogate(_ value: UInt32, at offset: Int) -> CodecError {
        failure(
            .invalidJSON,
            "the escape \\u\(String(value, radix: 16, uppercase: true)) is half of a UTF-16 surrogate pair without "
                + "its other half, so it is no character",
            at: offset
        )
    }

    func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, refusing overlong forms, surrogates and code points
    /// past U+10FFFF (the well-formed sequences of RFC 3629 section 4).
    mutating func skipUTF8Sequence() throws(CodecError) {
        let lead = input[position]
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F
        default:
            throw failure(.invalidUTF8, "byte 0x\(hex(lead)) cannot start a UTF-8 sequence", at: position)
        }
        guard position + length <= input.count else {
            throw failure(.invalidUTF8, "the text ends inside a UTF-8 sequence", at: position)
        }
        let second = input[position + 1]
        var wellFormed = second >= lowest && second <= highest
        for offset in 2..<length where input[position + offset] & 0xC0 != 0x80 {
            wellFormed = false
        }
        guard wellFormed else {
            let shown = input[position..<position + length].map { "0x" + hex($0) }.joined(separator: " ")
            throw failure(.invalidUTF8, "the bytes \(shown) are not a well-formed UTF-8 sequence", at: position)
        }
        position += length
    }

    func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + text : text
    }
}

extension JSONParser {
    /// Writes a code point the way Unicode names it: `U+000A`, `U+1F600`.
    static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Finds a key that an object names twice.
    ///
    /// Keys are compared by their code points, as Python's dict compares them, not by Swift's
    /// canonical equivalence (so `é` and `e` + U+0301 are different keys). Small objects are searched
    /// linearly; a large one (a big map) switches to hashing.
    struct DuplicateKeyDetector {
        private var seen: Set<CodePointKey>?
        private static let linearSearchLimit = 16

        mutating func isDuplicate(_ key: String, among members: [JSONMember]) -> Bool {
            if seen == nil {
                guard members.count >= Self.linearSearchLimit else {
                    return members.contains { $0.key.utf8.elementsEqual(key.utf8) }
                }
                seen = Set(members.map { CodePointKey(text: $0.key) })
            }
            return seen?.insert(CodePointKey(text: key)).inserted == false
        }
    }

    /// A string hashed and compared by its UTF-8 bytes.
    struct CodePointKey: Hashable {
        var text: String

        static func == (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
            lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 {
                hasher.combine(byte)
            }
            hasher.combine(0xFF as UInt8)
        }
    }
}
