import Testing

@testable import FleetEngineCodec

/// The writer as the capture decoder's JSON lines, the command-line tool's objects and the
/// emulator's JWTs use it: fixed keys, plain integers, JSON already written, messages, lines.
@Suite("JSONWriter for records")
struct JSONWriterRecordTests {
    private func written(_ build: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        build(&writer)
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }

    /// Every control character and the escape it gets: the short form where JSON has one
    /// (RFC 8259 section 7), `\u00XX` in lowercase hex otherwise, as Python's `json` writes.
    static let controlCharacters: [(UInt8, String)] = (0..<0x20).map { byte in
        let short: [UInt8: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        let hex = String(byte, radix: 16)
        return (UInt8(byte), short[UInt8(byte)] ?? "\\u00" + String(repeating: "0", count: 2 - hex.count) + hex)
    }

    @Test(
        "each control character is escaped, with the short escapes for backspace and form feed too",
        arguments: controlCharacters)
    func controlCharacterEscapes(byte: UInt8, escape: String) {
        let text = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
        #expect(written { $0.string(text) } == "\"a\(escape)b\"")
        #expect(JSONWriter.quoted(text) == "\"a\(escape)b\"")
    }

    @Test("U+2028, U+2029 and DEL stay as they are: RFC 8259 does not ask to escape them")
    func lineSeparatorsUnescaped() {
        #expect(written { $0.string("a\u{2028}b\u{2029}c\u{7F}") } == "\"a\u{2028}b\u{2029}c\u{7F}\"")
        #expect(JSONWriter.quoted("\u{2028}/\u{2029}") == "\"\u{2028}/\u{2029}\"")
    }

    @Test("a record of fixed keys, integers, literals, arrays and JSON text, one line each")
    func recordLines() {
        let text = written { writer in
            for line in 0..<2 {
                writer.beginObject()
                writer.key("line")
                writer.integer(line)
                writer.key("counts")
                writer.beginArray()
                for count in [Int64.min, 0, 7] {
                    writer.arrayElement()
                    writer.integer(count)
                }
                writer.arrayElement()
                writer.integer(UInt64.max)
                writer.endArray()
                writer.key("ok")
                writer.bool(line == 0)
                writer.key("none")
                writer.null()
                writer.name("quoted \"name\"")
                writer.raw(#"{"already":"json"}"#.utf8)
                writer.endObject()
                writer.endLine()
            }
        }
        let counts = #""counts":[-9223372036854775808,0,7,18446744073709551615]"#
        let rest = #""none":null,"quoted \"name\"":{"already":"json"}}"#
        #expect(
            text
                == #"{"line":0,"# + counts + #","ok":true,"# + rest + "\n"
                + #"{"line":1,"# + counts + #","ok":false,"# + rest + "\n"
        )
    }

    @Test("a message is written as its own proto3 JSON; one without a JSON form leaves nothing behind")
    func messages() throws {
        var status = RPCStatus()
        status.code = 5
        status.message = "no \"trip\""
        var writer = JSONWriter()
        writer.beginArray()
        writer.arrayElement()
        try writer.message(status)
        var unknown = AnyMessage()
        unknown.typeURL = "type.googleapis.com/example.Unknown"
        writer.arrayElement()
        #expect(throws: CodecError.self) { try writer.message(unknown) }
        writer.null()
        writer.endArray()
        let expected = try status.jsonUTF8Bytes(options: JSONEncodingOptions())
        #expect(writer.takeBytes() == Array("[".utf8) + expected + Array(",null]".utf8))
    }
}
