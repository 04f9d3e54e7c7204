import Testing

@testable import FleetEngineCodec

@Suite("JSONParser")
struct JSONParserTests {
    private func parse(_ text: String, maxNestingDepth: Int = 100) throws(CodecError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxNestingDepth: maxNestingDepth)
    }

    private func parse(bytes: [UInt8], maxNestingDepth: Int = 100) -> Result<JSONValue, CodecError> {
        do throws(CodecError) {
            return .success(try JSONParser.parse(bytes, maxNestingDepth: maxNestingDepth))
        } catch {
            return .failure(error)
        }
    }

    @Test("an object becomes members in order, each value with the byte offset where it starts")
    func objectTree() throws {
        let value = try parse(#" {"a": [1, true, null], "b" :{"c":"d"}} "#)
        let expected = JSONValue(
            .object([
                JSONMember(
                    key: "a",
                    keyOffset: 2,
                    value: JSONValue(
                        .array([
                            JSONValue(.number("1"), offset: 8),
                            JSONValue(.bool(true), offset: 11),
                            JSONValue(.null, offset: 17),
                        ]),
                        offset: 7
                    )
                ),
                JSONMember(
                    key: "b",
                    keyOffset: 24,
                    value: JSONValue(
                        .object([JSONMember(key: "c", keyOffset: 30, value: JSONValue(.string("d"), offset: 34))]),
                        offset: 29
                    )
                ),
            ]),
            offset: 1
        )
        #expect(value == expected)
    }

    @Test(
        "numbers keep their exact text, so no digit of a 64-bit integer is lost",
        arguments: [
            "9223372036854775807", "-9223372036854775808", "18446744073709551615", "1.50", "-0", "1E+2",
            "0.000001e-7", "123456789012345678901234567890",
        ]
    )
    func numbersKeepText(text: String) throws {
        #expect(try parse(text) == JSONValue(.number(text), offset: 0))
    }

    @Test("string escapes resolve, surrogate pairs to one character")
    func escapes() throws {
        let value = try parse(#""\"\\\/\b\f\n\r\t\u00e9\u20AC\ud83d\ude00\u0000x""#)
        #expect(value.kind == .string("\"\\/\u{08}\u{0C}\n\r\té€😀\u{0}x"))
    }

    @Test("raw UTF-8 in strings is kept as it is")
    func rawUTF8() throws {
        #expect(try parse("\"é€😀\u{7F}\"").kind == .string("é€😀\u{7F}"))
    }

    @Test("keys that differ only in Unicode normalization are different keys, as in Python")
    func keysCompareByCodePoints() throws {
        let value = try parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        guard case .object(let members) = value.kind else {
            Issue.record("expected an object")
            return
        }
        #expect(members.count == 2)
    }

    @Test("input that is not contiguous in memory parses the same")
    func nonContiguousInput() throws {
        let bytes = Array(#"{"a":[1,"x"]}"#.utf8)
        let value = try JSONParser.parse(bytes.lazy.map { $0 }, maxNestingDepth: 10)
        #expect(value == (try parse(#"{"a":[1,"x"]}"#)))
    }

    @Test(
        "text that is not strict RFC 8259 JSON is refused at the offset of the fault",
        arguments: [
            ("", 0), ("   ", 3), ("{\"a\":1,}", 7), ("[1,]", 3), ("[1 2]", 3), ("01", 0), ("-01", 0), ("1.", 2),
            (".5", 0), ("1e", 2), ("-", 1), ("+1", 0), ("NaN", 0), ("Infinity", 0), ("-Infinity", 1),
            ("nul", 0), ("True", 0), ("{'a':1}", 1), ("{\"a\" 1}", 5), ("{\"a\":1 /* c */}", 7),
            ("// c\n{}", 0), ("{} {}", 3), ("[1]x", 3), ("\"abc", 4), ("{\"a\":1", 6), ("[", 1),
            ("\"a\nb\"", 2), ("\"\\x\"", 1), ("\"\\u12g4\"", 1), ("\"\\u12\"", 1), ("\u{0C}1", 0), ("\u{0B}1", 0),
            ("\u{A0}1", 0), ("{\"a\":1,\"a\":2}", 7), ("{1:2}", 1), ("[\"\\ud800\"]", 2), ("\"\\udc00\"", 1),
            ("\"\\ud83d\\u0041\"", 1), ("\"\\ud83dx\"", 1), ("\"\\", 1),
        ] as [(String, Int)]
    )
    func refusedText(text: String, offset: Int) {
        let result = parse(bytes: Array(text.utf8))
        guard case .failure(let error) = result else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.code == .invalidJSON)
        #expect(error.byteOffset == offset)
    }

    @Test(
        "invalid UTF-8 is refused as such at the first byte of the bad sequence",
        arguments: [
            ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong '/'
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-16 surrogate D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // past U+10FFFF
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
            ([0x22, 0x61, 0x80, 0x22], 2),  // continuation byte alone
            ([0x22, 0xE2, 0x82, 0x22], 1),  // truncated sequence
            ([0x22, 0xFF, 0x22], 1),
            ([0x5B, 0x31, 0x5D, 0xFF], 3),  // after the value
            ([0x22, 0x61, 0xE2, 0x82], 2),  // the text ends inside a sequence
        ] as [([UInt8], Int)]
    )
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        let result = parse(bytes: bytes)
        guard case .failure(let error) = result else {
            Issue.record("accepted \(bytes)")
            return
        }
        #expect(error.code == .invalidUTF8)
        #expect(error.byteOffset == offset)
    }

    @Test("a UTF-8 byte order mark is refused, as Python's json refuses it")
    func byteOrderMark() {
        let result = parse(bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D])
        #expect(result == .failure(CodecError(.invalidJSON)))
    }

    @Test("nesting up to the limit parses; one level more is refused at the opening bracket")
    func nestingLimit() throws {
        let limit = 5
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try parse(deepest, maxNestingDepth: limit) }
        let tooDeep = "{\"a\":" + String(repeating: "[", count: limit) + String(repeating: "]", count: limit) + "}"
        guard case .failure(let error) = parse(bytes: Array(tooDeep.utf8), maxNestingDepth: limit) else {
            Issue.record("accepted \(tooDeep)")
            return
        }
        #expect(error.code == .nestingTooDeep)
        #expect(error.byteOffset == 9)
    }

    @Test("the default limit of 100 holds a hundred levels and refuses 101")
    func defaultNestingLimit() {
        let hundred = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let hundredAndOne = "[" + hundred + "]"
        #expect((try? parse(hundred)) != nil)
        #expect(parse(bytes: Array(hundredAndOne.utf8)) == .failure(CodecError(.nestingTooDeep)))
    }

    @Test("a key named twice is found in a large object too, at the second key's offset")
    func duplicateKeyInLargeObject() {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = "{" + members + ",\"k7\":0}"
        guard case .failure(let error) = parse(bytes: Array(text.utf8)) else {
            Issue.record("accepted a duplicate key")
            return
        }
        #expect(error.code == .invalidJSON)
        #expect(error.byteOffset == text.utf8.count - 7)
        #expect(error.message == "the object names the key \"k7\" twice")
    }

    @Test("a large object with distinct keys parses")
    func largeObject() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        guard case .object(let parsed) = try parse("{" + members + "}").kind else {
            Issue.record("expected an object")
            return
        }
        #expect(parsed.count == 40)
        #expect(parsed[39].key == "k39")
    }

    @Test("errors say what was wrong")
    func messages() {
        func message(_ text: String) -> String? {
            guard case .failure(let error) = parse(bytes: Array(text.utf8)) else { return nil }
            return error.message
        }
        #expect(message("[1,]") == "a trailing comma before ']' is not allowed")
        #expect(message("01") == "a number must not start with a leading zero")
        #expect(message("{\"a\" 1}") == "unexpected character '1' where ':' was expected after a member name")
        #expect(message("\"a\tb\"") == "control character U+0009 must be escaped in a string")
        #expect(message("[1] é") == "unexpected character 'é' (U+00E9) after the JSON value")
        #expect(
            message("\"\\ud800\"")
                == "the escape \\uD800 is half of a UTF-16 surrogate pair without its other half, so it is no character"
        )
        #expect(message("\"abc") == "the text ends inside the string that starts at byte 0")
    }
}
