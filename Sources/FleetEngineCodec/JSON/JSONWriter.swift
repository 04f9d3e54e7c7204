/// Prints proto3 JSON into a UTF-8 byte buffer.
///
/// The generated `jsonUTF8Bytes(options:)` of each message drives one writer: `beginObject()`, then
/// `name(_:_:)` and a value per field, then `endObject()`. The writer places the commas, and with
/// ``JSONEncodingOptions/prettyPrinted`` the newlines and two-space indentation, itself.
///
/// Output follows Google's Python `json_format.MessageToJson`: 64-bit integers as strings, floats
/// in Python's `repr` form (`1.0`, `1e-05`, `1e+16`), non-finite floats as `"NaN"`, `"Infinity"` and
/// `"-Infinity"`, bytes as padded standard base64, and strings as UTF-8 with only `"`, `\` and
/// control characters escaped. The pretty form lays members out as `MessageToJson(indent=2,
/// ensure_ascii=False)` does, byte for byte; the compact form has no whitespace at all, as Google's
/// C++, Java and Go print it. Members come in the order the caller writes them.
///
/// Package-visible so that every JSON the package prints (the capture decoder's JSON lines, the
/// command-line tool's objects) escapes strings by these rules: one writer, one escaping.
package struct JSONWriter {
    /// How the output is laid out and how fields are named.
    package let options: JSONEncodingOptions
    /// The UTF-8 output so far.
    package private(set) var bytes: [UInt8]
    /// Whether the next member or element needs a comma in front of it.
    private var needsComma = false
    /// How many objects and arrays are open, for indentation.
    private var depth = 0
    /// How many `google.protobuf.Any` values are being printed inside one another: each unpacks
    /// bytes that were never parsed with the message around them, so only this count bounds the
    /// recursion (see ``maxPackedDepth``).
    var packedDepth = 0
    /// The most `Any` values printed inside one another: a chain of them is a few bytes a level, and
    /// printing one thousands deep would run out of stack.
    static let maxPackedDepth = 100

    /// A writer with an empty buffer that has room for a typical trip.
    package init(options: JSONEncodingOptions = JSONEncodingOptions()) {
        self.options = options
        self.bytes = []
        self.bytes.reserveCapacity(1024)
    }

    /// A writer that appends to `bytes`, for a value written into a larger text.
    package init(options: JSONEncodingOptions = JSONEncodingOptions(), appendingTo bytes: [UInt8]) {
        self.options = options
        self.bytes = bytes
    }

    /// Hands the buffer back, leaving the writer empty.
    package mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    /// Opens an object; each member follows as ``name(_:_:)`` (or ``name(_:)``) and a value.
    package mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        needsComma = false
    }

    package mutating func endObject() {
        closeContainer(UInt8(ascii: "}"))
    }

    /// Opens an array; each element follows as ``arrayElement()`` and a value.
    package mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        depth += 1
        needsComma = false
    }

    package mutating func endArray() {
        closeContainer(UInt8(ascii: "]"))
    }

    private mutating func closeContainer(_ bracket: UInt8) {
        depth -= 1
        // An empty container prints as `{}` or `[]` even when pretty-printed, as Python's json does.
        if options.prettyPrinted && needsComma {
            newlineAndIndent()
        }
        bytes.append(bracket)
        needsComma = true
    }

    /// Starts an object member with a field's name: its JSON name, or with
    /// ``JSONEncodingOptions/preservingProtoFieldNames`` its schema name. Names need no escaping.
    mutating func name(_ jsonName: StaticString, _ protoName: StaticString) {
        startMember()
        bytes.append(UInt8(ascii: "\""))
        let chosen = options.preservingProtoFieldNames ? protoName : jsonName
        chosen.withUTF8Buffer { bytes.append(contentsOf: $0) }
        finishName()
    }

    /// Starts an object member with a field's name, given as the exact text `,"name":` (comma, quoted
    /// name, colon) for its JSON name and its schema name, so that compact output takes one append.
    /// Generated code calls this; ``name(_:_:)`` is the same for names given bare.
    mutating func member(_ jsonKey: StaticString, _ protoKey: StaticString) {
        let chosen = options.preservingProtoFieldNames ? protoKey : jsonKey
        chosen.withUTF8Buffer { key in
            if options.prettyPrinted {
                startMember()
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: key.dropFirst()))
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(contentsOf: needsComma ? key : UnsafeBufferPointer(rebasing: key.dropFirst()))
            }
        }
        needsComma = false
    }

    /// Starts an object member with a map key, which is escaped like any string.
    package mutating func name(_ key: String) {
        startMember()
        appendQuoted(key)
        finishName()
    }

    private mutating func startMember() {
        if needsComma {
            bytes.append(UInt8(ascii: ","))
        }
        if options.prettyPrinted {
            newlineAndIndent()
        }
    }

    private mutating func finishName() {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if options.prettyPrinted {
            bytes.append(UInt8(ascii: " "))
        }
        needsComma = false
    }

    /// Places the comma and, when pretty-printing, the line break before an array element.
    package mutating func arrayElement() {
        startMember()
        needsComma = false
    }

    /// Starts an object member whose name the caller knows needs no escaping (a fixed key of a
    /// record, not a field of a message).
    package mutating func key(_ name: StaticString) {
        startMember()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        finishName()
    }

    /// An integer as a JSON number, whatever its width: for counts and offsets outside messages,
    /// which proto3 JSON's quoting of 64-bit fields does not apply to.
    package mutating func integer(_ value: some BinaryInteger) {
        appendInteger(negative: value < 0, magnitude: UInt64(value.magnitude))
        needsComma = true
    }

    /// A value that is already JSON text, copied as it is.
    package mutating func raw(_ json: some Sequence<UInt8>) {
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// A message's proto3 JSON, written in place with this writer's options.
    ///
    /// - Throws: ``CodecError`` when the message has no JSON form (a `google.protobuf.Any` of a type
    ///   the codec does not know); nothing is written then.
    package mutating func message(_ message: any ProtobufMessage) throws(CodecError) {
        try message.appendJSONUTF8Bytes(to: &bytes, options: options)
        needsComma = true
    }

    /// Ends a line of JSON lines output, after its outermost value.
    package mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// `text` as a quoted JSON string, escaped as ``string(_:)`` escapes it.
    package static func quoted(_ text: String) -> String {
        var writer = JSONWriter(options: JSONEncodingOptions(), appendingTo: [])
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private mutating func newlineAndIndent() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A string, escaped as RFC 8259 requires.
    package mutating func string(_ value: String) {
        appendQuoted(value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        appendLiteral(value ? "true" : "false")
    }

    package mutating func null() {
        appendLiteral("null")
    }

    mutating func int32(_ value: Int32) {
        appendInteger(negative: value < 0, magnitude: UInt64(value.magnitude))
        needsComma = true
    }

    mutating func uint32(_ value: UInt32) {
        appendInteger(negative: false, magnitude: UInt64(value))
        needsComma = true
    }

    /// A 64-bit integer as a JSON string: a JSON number would lose precision past 2^53 in many parsers.
    mutating func int64(_ value: Int64) {
        bytes.append(UInt8(ascii: "\""))
        appendInteger(negative: value < 0, magnitude: value.magnitude)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func uint64(_ value: UInt64) {
        bytes.append(UInt8(ascii: "\""))
        appendInteger(negative: false, magnitude: value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An enum value by its name, or by its number when the schema does not name it.
    mutating func enumValue(name: String?, rawValue: Int32) {
        if let name {
            string(name)
        } else {
            int32(rawValue)
        }
    }

    /// A `double` in Python's `repr` form, the shortest text that reads back the same value.
    package mutating func double(_ value: Double) {
        JSONFloatText.append(value, to: &bytes)
        needsComma = true
    }

    /// A `float` at float precision, as Python prints it (`0.1`, not `0.10000000149011612`).
    mutating func float(_ value: Float) {
        JSONFloatText.append(value, to: &bytes)
        needsComma = true
    }

    /// Bytes as standard base64 with padding (RFC 4648 section 4), as the proto3 JSON mapping asks.
    package mutating func bytes(_ value: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        Base64.encode(value, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A `google.protobuf.Timestamp`; fails for a time outside years 1 to 9999 or nanos outside 0...999,999,999.
    mutating func timestamp(seconds: Int64, nanos: Int32) throws(CodecError) {
        try WellKnownTypeText.appendTimestamp(seconds: seconds, nanos: nanos, quotedTo: &bytes)
        needsComma = true
    }

    /// A `google.protobuf.Duration`; fails for more than 10,000 years or seconds and nanos of opposite signs.
    mutating func duration(seconds: Int64, nanos: Int32) throws(CodecError) {
        try WellKnownTypeText.appendDuration(seconds: seconds, nanos: nanos, quotedTo: &bytes)
        needsComma = true
    }

    /// A `google.protobuf.FieldMask`: its paths in lowerCamelCase, joined by commas; fails for a path
    /// that would not read back the same.
    mutating func fieldMask(paths: [String]) throws(CodecError) {
        let text = try WellKnownTypeText.fieldMask(paths: paths)
        appendQuoted(text)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    /// Appends an opening quote and the escaped text, without the closing quote.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { appendEscaped($0) }
    }

    /// Copies UTF-8 text, escaping what RFC 8259 section 7 requires and nothing more, with the
    /// short escapes where JSON has them and `\u00XX` (lowercase hex, as Python writes) otherwise.
    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        var index = 0
        var runStart = 0
        while index < text.count {
            // Most text needs no escape at all: skip it eight bytes at a time.
            if index + 8 <= text.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !Self.mayNeedEscape(word) {
                    index += 8
                    continue
                }
            }
            let byte = text[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index - 1]))
            runStart = index
            appendEscape(for: byte)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    }

    /// Whether any of the eight bytes may be below 0x20, a quote or a backslash. It may answer yes
    /// wrongly (the bytes are then checked one by one) but never no wrongly.
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // A byte b < n sets its high bit in (b - n) while it was clear in b: the usual word-at-a-time test.
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highBits
        let hasBackslash = (backslash &- ones) & ~backslash & highBits
        return control | hasQuote | hasBackslash != 0
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            hexDigits.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
    }

    /// Appends a decimal integer without building a `String`.
    private mutating func appendInteger(negative: Bool, magnitude: UInt64) {
        if negative {
            bytes.append(UInt8(ascii: "-"))
        }
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = magnitude
            var start = digits.count
            while remaining > 0 {
                start -= 1
                let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
                digits[start] = UInt8(ascii: "0") + UInt8(digit)
                remaining = quotient
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
