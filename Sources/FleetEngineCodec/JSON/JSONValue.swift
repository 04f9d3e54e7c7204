/// One value of a parsed JSON text (RFC 8259), with the byte offset where it starts.
///
/// ``JSONParser`` builds the tree; ``JSONReadContext`` turns its leaves into field values. The
/// offsets let every error point at the exact place in the input.
struct JSONValue: Sendable, Equatable {
    /// The value itself.
    enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, kept as its exact text (RFC 8259 section 6 grammar), so that 64-bit integers and
        /// decimal fractions lose nothing before a reader knows the field's type.
        case number(String)
        /// A string, with its escapes resolved.
        case string(String)
        /// An array, its elements in order.
        case array([JSONValue])
        /// An object, its members in the order they appear; keys are unique.
        case object([JSONMember])
    }

    /// The value itself.
    var kind: Kind
    /// The byte offset in the JSON text of the value's first character (`{`, `[`, `"`, a digit...).
    var offset: Int

    init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The value described in a few words for error messages: `the string "abc"`, `an object`.
    var summary: String {
        switch kind {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let text): "the number \(JSONValue.shortened(text))"
        case .string(let text): "the string \"\(JSONValue.shortened(text))\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Cuts a long text so that an error message stays readable.
    static func shortened(_ text: String) -> String {
        let limit = 40
        guard text.unicodeScalars.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "..."
    }
}

/// One `"key": value` pair of a JSON object.
struct JSONMember: Sendable, Equatable {
    /// The key, with its escapes resolved.
    var key: String
    /// The byte offset of the key's opening quote.
    var keyOffset: Int
    /// The member's value.
    var value: JSONValue

    /// The key for matching against field names: the key itself when it is ASCII, as every field's
    /// JSON and proto name is, and otherwise "", which names no field. Swift compares strings by
    /// canonical equivalence, under which "speed\u{212A}mph" (a KELVIN SIGN) equals "speedKmph";
    /// Google's parsers compare code points and find no such field.
    var fieldName: String {
        key.utf8.allSatisfy { $0 < 0x80 } ? key : ""
    }
}
