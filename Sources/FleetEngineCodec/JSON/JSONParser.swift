/// Parses JSON text (RFC 8259) into a ``JSONValue`` tree.
///
/// The parser is strict, as Google's Python `json_format.Parse` is: no comments, no trailing commas,
/// no leading zeros, no `NaN` or `Infinity` literals, only space, tab, CR and LF between tokens, no
/// byte order mark, and no object that names the same key twice. Strings must be valid UTF-8 and
/// their `\u` escapes valid UTF-16 (a lone surrogate is refused). Numbers keep their exact text.
/// Every error carries the byte offset of the fault.
enum JSONParser {
    /// Parses one JSON value, which may be surrounded by whitespace and nothing else.
    ///
    /// - Parameter maxNestingDepth: how many objects and arrays may nest; the outermost one is level 1.
    /// - Throws: ``CodecError`` with code `invalidJSON`, `invalidUTF8` or `nestingTooDeep`.
    static func parse(_ bytes: some Collection<UInt8>, maxNestingDepth: Int) throws(CodecError) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            parseContiguous(buffer, maxNestingDepth: maxNestingDepth)
        }
        let result =
            contiguous
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                parseContiguous(buffer, maxNestingDepth: maxNestingDepth)
            }
        return try result.get()
    }

    private static func parseContiguous(
        _ input: UnsafeBufferPointer<UInt8>,
        maxNestingDepth: Int
    ) -> Result<JSONValue, CodecError> {
        var state = State(input: input, maxNestingDepth: maxNestingDepth)
        do throws(CodecError) {
            return .success(try state.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

extension JSONParser {
    /// The parser's position in one input buffer.
    struct State {
        let input: UnsafeBufferPointer<UInt8>
        let maxNestingDepth: Int
        var position = 0
        var depth = 0

        init(input: UnsafeBufferPointer<UInt8>, maxNestingDepth: Int) {
            self.input = input
            self.maxNestingDepth = maxNestingDepth
        }

        mutating func parseDocument() throws(CodecError) -> JSONValue {
            // RFC 8259 section 8.1 lets a parser ignore a byte order mark; Python's json refuses it,
            // and so do we, with a message that names it.
            if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
                throw failure(
                    .invalidJSON, "the text starts with a UTF-8 byte order mark, which JSON does not allow", at: 0)
            }
            skipWhitespace()
            guard position < input.count else {
                throw failure(.invalidJSON, "the text holds no JSON value", at: position)
            }
            let value = try parseValue()
            skipWhitespace()
            if position < input.count {
                throw try unexpected("after the JSON value")
            }
            return value
        }

        /// Parses the value at `position`, which is past any whitespace.
        mutating func parseValue() throws(CodecError) -> JSONValue {
            guard position < input.count else {
                throw failure(.invalidJSON, "the text ends where a value was expected", at: position)
            }
            let start = position
            switch input[position] {
            case UInt8(ascii: "{"):
                return try parseObject()
            case UInt8(ascii: "["):
                return try parseArray()
            case UInt8(ascii: "\""):
                return JSONValue(.string(try parseString()), offset: start)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return JSONValue(.bool(true), offset: start)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return JSONValue(.bool(false), offset: start)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return JSONValue(.null, offset: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONValue(.number(try parseNumber()), offset: start)
            default:
                throw try unexpected("where a value was expected")
            }
        }

        mutating func parseObject() throws(CodecError) -> JSONValue {
            let start = position
            try enterContainer()
            position += 1
            var members: [JSONMember] = []
            var keys = DuplicateKeyDetector()
            skipWhitespace()
            if position < input.count, input[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return JSONValue(.object(members), offset: start)
            }
            while true {
                skipWhitespace()
                guard position < input.count else {
                    throw failure(
                        .invalidJSON, "the text ends inside the object that starts at byte \(start)", at: position)
                }
                guard input[position] == UInt8(ascii: "\"") else {
                    if input[position] == UInt8(ascii: "}") {
                        throw failure(.invalidJSON, "a trailing comma before '}' is not allowed", at: position)
                    }
                    throw try unexpected("where a member name in double quotes was expected")
                }
                let keyOffset = position
                let key = try parseString()
                if keys.isDuplicate(key, among: members) {
                    throw failure(
                        .invalidJSON, "the object names the key \"\(JSONValue.shortened(key))\" twice", at: keyOffset)
                }
                skipWhitespace()
                guard position < input.count, input[position] == UInt8(ascii: ":") else {
                    throw try unexpected("where ':' was expected after a member name")
                }
                position += 1
                skipWhitespace()
                let value = try parseValue()
                members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
                skipWhitespace()
                guard position < input.count else {
                    throw failure(
                        .invalidJSON, "the text ends inside the object that starts at byte \(start)", at: position)
                }
                switch input[position] {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    depth -= 1
                    return JSONValue(.object(members), offset: start)
                default:
                    throw try unexpected("where ',' or '}' was expected in an object")
                }
            }
        }

        mutating func parseArray() throws(CodecError) -> JSONValue {
            let start = position
            try enterContainer()
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < input.count, input[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return JSONValue(.array(elements), offset: start)
            }
            while true {
                skipWhitespace()
                guard position < input.count else {
                    throw failure(
                        .invalidJSON, "the text ends inside the array that starts at byte \(start)", at: position)
                }
                if input[position] == UInt8(ascii: "]") {
                    throw failure(.invalidJSON, "a trailing comma before ']' is not allowed", at: position)
                }
                elements.append(try parseValue())
                skipWhitespace()
                guard position < input.count else {
                    throw failure(
                        .invalidJSON, "the text ends inside the array that starts at byte \(start)", at: position)
                }
                switch input[position] {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    depth -= 1
                    return JSONValue(.array(elements), offset: start)
                default:
                    throw try unexpected("where ',' or ']' was expected in an array")
                }
            }
        }

        /// Counts one more level of objects and arrays, refusing to go past the limit.
        mutating func enterContainer() throws(CodecError) {
            depth += 1
            if depth > maxNestingDepth {
                throw failure(
                    .nestingTooDeep,
                    "objects and arrays nest deeper than the limit of \(maxNestingDepth) levels",
                    at: position
                )
            }
        }

        mutating func skipWhitespace() {
            // RFC 8259 section 2: only these four bytes are insignificant whitespace.
            while position < input.count {
                switch input[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func skipDigits() {
            while position < input.count, isDigit(input[position]) {
                position += 1
            }
        }

        func isDigit(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "0") < 10
        }

        /// An error for the unexpected byte at `position`; invalid UTF-8 there is reported as such.
        func unexpected(_ context: String) throws(CodecError) -> CodecError {
            guard position < input.count else {
                return failure(.invalidJSON, "the text ends \(context)", at: position)
            }
            let byte = input[position]
            switch byte {
            case 0x21...0x7E:
                return failure(
                    .invalidJSON, "unexpected character '\(Character(Unicode.Scalar(byte)))' \(context)", at: position)
            case 0x00...0x20, 0x7F:
                return failure(
                    .invalidJSON, "unexpected control character \(JSONParser.scalarName(UInt32(byte))) \(context)",
                    at: position)
            default:
                var probe = self
                try probe.skipUTF8Sequence()
                let scalar = String(
                    decoding: UnsafeBufferPointer(rebasing: input[position..<probe.position]), as: UTF8.self)
                let value = scalar.unicodeScalars.first.map { $0.value } ?? 0
                return failure(
                    .invalidJSON, "unexpected character '\(scalar)' (\(JSONParser.scalarName(value))) \(context)",
                    at: position)
            }
        }

        func failure(
            _ code: CodecError.Code,
            _ message: String,
            at offset: Int,
            fileID: String = #fileID,
            line: Int = #line
        ) -> CodecError {
            CodecError(code: code, message: message, byteOffset: offset, fileID: fileID, line: line)
        }
    }
}
