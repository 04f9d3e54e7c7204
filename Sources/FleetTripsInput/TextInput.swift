/// Small facts about text input that the base64, hex and JSON-lines readers share.
package enum TextInput {
    /// Whether a byte is ASCII whitespace that text formats skip: space, tab, line feed,
    /// vertical tab, form feed, carriage return.
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0d).contains(byte)
    }

    /// A byte as an error message shows it: `'x'` when printable ASCII, else `byte 0xc3`.
    package static func describe(_ byte: UInt8) -> String {
        if (0x21...0x7e).contains(byte) {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
