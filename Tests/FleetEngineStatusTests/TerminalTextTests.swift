import FleetEngineStatus
import Testing

@Suite("TerminalText: control characters from outside are escaped before a terminal or log sees them")
struct TerminalTextTests {
    static let cases: [(String, String)] = [
        ("Trip 'trip-1' not found", "Trip 'trip-1' not found"),
        ("\u{1B}[2Jscreen cleared", "\\u{1B}[2Jscreen cleared"),
        ("done\rFAKE STATUS", "done\\rFAKE STATUS"),
        ("bell\u{07}", "bell\\u{07}"),
        ("\u{9B}31mred", "\\u{9B}31mred"),
        ("line 1\nline 2\tend", "line 1\\nline 2\\tend"),
        ("nul\u{00} del\u{7F} c1 end\u{9F}", "nul\\u{00} del\\u{7F} c1 end\\u{9F}"),
        ("\u{1B}]0;title\u{07}", "\\u{1B}]0;title\\u{07}"),
        // U+00A0 to U+00FF share 0xC2/0xC3 lead bytes with the C1 controls and are kept.
        ("no\u{A0}break, café, ‘quotes’, 🚕, back\\slash", "no\u{A0}break, café, ‘quotes’, 🚕, back\\slash"),
    ]

    @Test("each control character becomes a visible escape; other text is kept", arguments: cases)
    func escapes(input: String, expected: String) {
        #expect(TerminalText.escaped(input) == expected)
    }

    @Test("a substring is escaped as the string it spells")
    func substring() {
        let text = "status: \u{1B}[2J"
        #expect(TerminalText.escaped(text.dropFirst(8)) == "\\u{1B}[2J")
    }

    @Test("a server's status message reaches the error's description escaped, and its message as sent")
    func errorDescription() {
        let error = FleetEngineError(code: .notFound, message: "gone\u{1B}[2J\r\u{9B}0m", origin: .status)
        #expect(error.message == "gone\u{1B}[2J\r\u{9B}0m")
        #expect(error.description == "NOT_FOUND (5): gone\\u{1B}[2J\\r\\u{9B}0m")
    }
}
