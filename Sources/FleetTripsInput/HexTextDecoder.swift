/// Reads hex text a piece at a time, as ``HexText`` describes it, so that a long text can stream
/// through in bounded memory: a byte whose two digits fall in two pieces is carried over, and
/// error offsets count from the start of the whole text.
package struct HexTextDecoder {
    private var high: UInt8?
    private var digitCount = 0
    /// Characters read so far, whitespace included.
    private var offset = 0

    /// Appends the bytes of the digit pairs completed by `text` to `output`.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` naming the offending character and
    ///   its offset in the whole text.
    package mutating func decode(_ text: some Sequence<UInt8>, into output: inout [UInt8]) throws(FleetTripsError) {
        for character in text {
            defer { offset += 1 }
            if TextInput.isWhitespace(character) { continue }
            guard let value = Self.value(of: character) else {
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
    }

    /// Ends the text.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` when a digit is left without its pair.
    package func finish() throws(FleetTripsError) {
        guard high == nil else {
            throw FleetTripsError(
                code: .invalidInputText,
                message: "hex text has an odd number of digits (\(digitCount)); each byte takes two")
        }
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
