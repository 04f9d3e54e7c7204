import Testing

@testable import FleetEngineStatus

@Suite("Optional whitespace around header field values (RFC 9110 section 5.5), trimmed by bytes")
struct FieldWhitespaceTests {
    @Test(
        "spaces and tabs at either end go; everything between them stays",
        arguments: [
            (" 0\t", "0"), ("0", "0"), ("", ""), (" \t ", ""), ("\tgzip, deflate ", "gzip, deflate"),
            ("a \t b", "a \t b"), ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"), ("\r\n1", "\r\n1"),
        ])
    func trims(text: String, expected: String) {
        #expect(String(text[...].trimmingFieldWhitespace()) == expected)
    }

    @Test("a space is trimmed as a byte, even where a combining mark after it makes one character of both")
    func combiningMark() {
        let text = " \u{301}x "
        #expect(String(text[...].trimmingFieldWhitespace()).unicodeScalars.elementsEqual("\u{301}x".unicodeScalars))
    }

    @Test("a slice is trimmed within its own bounds")
    func slice() {
        let text = "a  b  c"
        let middle = text.dropFirst(1).dropLast(1)
        #expect(String(middle.trimmingFieldWhitespace()) == "b")
    }
}
