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
        var high: UInt8?
        var digitCount = 0
        for (offset, character) in text.enumerated() {
            if TextInput.isWhitespace(character) { continue }
            guard let value = value(of: character) else {
                throw FleetTripsError(
                    code: .invalidInputText,
                    message: "\(TextInput.describe(character)) at text offset \(offset) is not a hex digit")
            }
            digitCount += 1
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else {
            throw FleetTripsError(
                code: .invalidInputText,
                message: "hex text has an odd number of digits (\(digitCount)); each byte takes two")
        }
        return output
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
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
