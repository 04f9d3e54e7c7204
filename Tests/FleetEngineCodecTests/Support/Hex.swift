/// Bytes from hex text (whitespace ignored), for writing wire bytes in tests as protobuf docs show them.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }.compactMap { $0.hexDigitValue }
    precondition(digits.count % 2 == 0, "odd number of hex digits in test data")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
}

/// Hex text of bytes, for readable failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    let alphabet = Array("0123456789abcdef")
    return String(bytes.flatMap { [alphabet[Int($0 >> 4)], alphabet[Int($0 & 0x0f)]] })
}
