/// Base64 (RFC 4648) as the tool reads and writes it.
///
/// Reading is lenient where people paste text from logs and terminals: the standard (section 4)
/// and URL-safe (section 5) alphabets are both accepted, whitespace anywhere is skipped, and
/// padding is optional at the end. Padded pieces may follow one another (`aGk=aGk=`), so text
/// that concatenates several encodings, one per line, reads as their bytes in order.
/// Writing uses the standard alphabet with padding. ``Base64TextDecoder`` reads it.
enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes bytes as base64 with the standard alphabet and padding (RFC 4648 section 4).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for position in 0..<3 {
                group = group << 8 | UInt32(position < count ? bytes[index + position] : 0)
            }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3f)])
                } else {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += count
        }
        return output
    }
}
