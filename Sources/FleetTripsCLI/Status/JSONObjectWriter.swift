/// Writes one JSON object (RFC 8259) on one line, member by member, in the order given.
///
/// For output whose members are plain values; JSON that is already text (a message the codec
/// printed) goes in as ``Value/json(_:)`` unchanged.
struct JSONObjectWriter {
    /// A member's value.
    enum Value {
        /// A string, escaped as RFC 8259 section 7 requires.
        case string(String)
        /// An integer.
        case integer(Int)
        /// `true` or `false`.
        case boolean(Bool)
        /// `null`.
        case null
        /// An array of JSON texts, each already valid JSON.
        case jsonArray([String])
        /// A JSON text, already valid JSON.
        case json(String)
    }

    private var text = "{"
    private var isEmpty = true

    /// An object with no members yet.
    init() {}

    /// Adds a member.
    mutating func member(_ name: String, _ value: Value) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += Self.quoted(name) + ":"
        switch value {
        case .string(let string): text += Self.quoted(string)
        case .integer(let number): text += String(number)
        case .boolean(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        case .jsonArray(let elements): text += "[" + elements.joined(separator: ",") + "]"
        case .json(let json): text += json
        }
    }

    /// The object, closed.
    var result: String { text + "}" }

    /// `string` as a JSON string: quotes, backslashes and control characters escaped; everything
    /// else as itself, in UTF-8.
    static func quoted(_ string: String) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
