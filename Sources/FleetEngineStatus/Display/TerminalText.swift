/// Text from outside the process made safe to show on a terminal or in a log line.
///
/// A server's status message, a GOAWAY's debug data or a captured header value is text someone
/// else chose. Written as it is, an ANSI escape sequence in it (`ESC [ 2 J` clears the screen,
/// others set the window title or rewrite what is on screen), a carriage return or a line feed can
/// hide or fake what a person reads, and forge lines in a log. ``escaped(_:)`` writes every control
/// character as a visible escape, so what is shown is what was sent, on one line:
///
/// - C0 controls (U+0000 to U+001F): `\n`, `\r` and `\t` as those two characters, the rest as
///   `\u{1B}` (the scalar's value in upper-case hex, at least two digits);
/// - DEL (U+007F) and the C1 controls (U+0080 to U+009F, among them U+009B, the one-character
///   CSI that starts an escape sequence as `ESC [` does) as `\u{7F}`, `\u{9B}`.
///
/// An escape sequence loses the control character it starts with, so the rest of it is plain
/// text. Every other character, a backslash included, is kept as it is: the escapes are for a
/// person to read, not to be decoded.
public enum TerminalText {
    /// `text` with its control characters escaped; the same string when it has none.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: isControlByte) else { return String(text) }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether a UTF-8 byte may belong to a control character: a C0 control or DEL, or 0xC2, the
    /// lead byte of U+0080 to U+00BF, which the slow path then tells apart from the C1 controls.
    private static func isControlByte(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2
    }
}
