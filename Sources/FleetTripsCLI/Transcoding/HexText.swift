/// Hexadecimal text as the tool reads and writes it: two digits per byte, either case when
/// reading, whitespace anywhere skipped; lowercase when writing.
enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Decodes hex text.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` naming the offending character and
    ///   its offset in the text, or an odd number of digits.
    static func decode(_ text: some Collection<UInt8>) throws(FleetTripsError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 2)
        var decoder = HexTextDecoder()
        try decoder.decode(text, into: &output)
        try decoder.finish()
        return output
    }

    /// Encodes bytes as lowercase hex, two digits per byte.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0f)])
        }
        return output
    }
}
