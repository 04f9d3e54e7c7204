import FleetEngineCodec

/// Writes one JSON object (RFC 8259) on one line, member by member, in the order given.
///
/// For output whose members are plain values; JSON that is already text (a message the codec
/// printed) goes in as ``Value/json(_:)`` unchanged. The codec's `JSONWriter` does the writing, so
/// strings are escaped as in every other JSON the tool prints.
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

    private var writer = JSONWriter(appendingTo: [])

    /// An object with no members yet.
    init() {
        writer.beginObject()
    }

    /// Adds a member.
    mutating func member(_ name: String, _ value: Value) {
        writer.name(name)
        switch value {
        case .string(let string): writer.string(string)
        case .integer(let number): writer.integer(number)
        case .boolean(let flag): writer.bool(flag)
        case .null: writer.null()
        case .jsonArray(let elements):
            writer.beginArray()
            for element in elements {
                writer.arrayElement()
                writer.raw(element.utf8)
            }
            writer.endArray()
        case .json(let json): writer.raw(json.utf8)
        }
    }

    /// The object, closed.
    var result: String {
        var closed = writer
        closed.endObject()
        return String(decoding: closed.bytes, as: UTF8.self)
    }
}
