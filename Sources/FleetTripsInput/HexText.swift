/// Hexadecimal text as the tool reads and writes it: two digits per byte, either case when
/// reading, whitespace anywhere skipped; lowercase when writing. ``HexTextDecoder`` reads it.
package enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hex, two digits per byte.
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0f)])
        }
        return output
    }
}
