/// The `grpc-message` trailer's text form: percent-encoded UTF-8.
///
/// gRPC's doc/PROTOCOL-HTTP2.md, section "Responses": bytes 0x20–0x7E other than `%` travel as
/// themselves, every other byte as `%` and two hex digits. A receiver must not fail on, or throw
/// away, a malformed value.
public enum StatusMessageText {
    /// Decodes a `grpc-message` value.
    ///
    /// Valid `%XX` escapes (either case of hex digit) become their byte; a `%` not followed by two hex
    /// digits stays as it was, as the protocol allows ("decode valid portions while leaving broken
    /// %-encodings as-is"). Bytes that are not valid UTF-8 after decoding become U+FFFD. Never fails.
    public static func decode(_ value: some StringProtocol) -> String {
        let input = Array(value.utf8)
        guard input.contains(UInt8(ascii: "%")) else { return String(value) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes text for the `grpc-message` trailer: UTF-8, with every byte outside 0x20–0x7E and
    /// every `%` escaped as `%XX` (upper-case hex).
    public static func encode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%") {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
