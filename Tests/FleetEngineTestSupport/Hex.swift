/// The bytes hex digits spell, white space (spaces, line breaks) ignored: wire bytes written in a
/// test as protobuf's docs and RFC 7541 Appendix C print them.
///
/// Test data only: a character that is neither a hex digit nor white space, or an odd number of
/// digits, is a mistake in the test and stops it.
public func hexBytes(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }.map { character in
        guard let digit = character.hexDigitValue else {
            preconditionFailure("not a hex digit in test data: \(character)")
        }
        return digit
    }
    precondition(digits.count % 2 == 0, "odd number of hex digits in test data")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
}

/// Lower-case hex text of bytes, two digits a byte, for readable failure messages.
public func hexString(_ bytes: [UInt8]) -> String {
    let alphabet = Array("0123456789abcdef")
    return String(bytes.flatMap { [alphabet[Int($0 >> 4)], alphabet[Int($0 & 0x0f)]] })
}
