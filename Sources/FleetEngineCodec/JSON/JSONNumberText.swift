/// Reads the text of a JSON number (RFC 8259 section 6) exactly, for integer and float fields.
///
/// Numbers reach the reader as their lexeme, and numeric strings (`"123"`, which proto3 JSON allows
/// for every number field) as their text; both follow the same grammar here:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Google's Python parser also lets through
/// what Python's `int()` and `float()` take inside a string (`"+1"`, `"01"`, `"1_0"`, `".5"`); this
/// codec does not.
enum JSONNumberText {
    /// A number read as an integer.
    enum IntegerReading: Equatable {
        /// An integral value (`12`, `-0`, `1e2`, `5.0`, `1.5e1`); `magnitude` is its absolute value.
        case integer(negative: Bool, magnitude: UInt64)
        /// A value with a nonzero fraction, such as `1.5` or `1e-1`.
        case fraction
        /// An integral value whose magnitude is past 2^64 - 1.
        case tooLarge
        /// Text that is not a JSON number.
        case notANumber
    }

    /// The parts of a number's text, as ranges into its UTF-8.
    private struct Parts {
        var negative = false
        var integerDigits: Range<Int> = 0..<0
        var fractionDigits: Range<Int> = 0..<0
        /// The exponent, held within ±10^9 so that no later sum overflows; past that only the sign
        /// matters for an integer reading.
        var exponent = 0
    }

    /// Whether `text` is a JSON number, all of it.
    static func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { parts(of: $0) != nil }
    }

    /// Reads a number as an integer, exactly: `9223372036854775807` stays itself, no `Double` between.
    static func integer(_ text: String) -> IntegerReading {
        var text = text
        return text.withUTF8 { utf8 in
            guard let parts = parts(of: utf8) else { return .notANumber }
            // The significant digits are the integer digits followed by the fraction digits; the value
            // is those digits times 10^(exponent - fraction digit count).
            let digitCount = parts.integerDigits.count + parts.fractionDigits.count
            func digit(_ position: Int) -> UInt64 {
                let index =
                    position < parts.integerDigits.count
                    ? parts.integerDigits.lowerBound + position
                    : parts.fractionDigits.lowerBound + position - parts.integerDigits.count
                return UInt64(utf8[index] &- UInt8(ascii: "0"))
            }
            var first = 0
            while first < digitCount, digit(first) == 0 {
                first += 1
            }
            guard first < digitCount else { return .integer(negative: parts.negative, magnitude: 0) }
            var end = digitCount
            while digit(end - 1) == 0 {
                end -= 1
            }
            let scale = parts.exponent - parts.fractionDigits.count + (digitCount - end)
            guard scale >= 0 else { return .fraction }
            guard end - first + scale <= 20 else { return .tooLarge }
            var magnitude: UInt64 = 0
            for position in first..<end {
                let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(digit(position))
                guard !overflow && !carry else { return .tooLarge }
                magnitude = sum
            }
            for _ in 0..<scale {
                let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return .tooLarge }
                magnitude = shifted
            }
            return .integer(negative: parts.negative, magnitude: magnitude)
        }
    }

    /// Reads a number as the nearest `Double` (an overflow gives an infinity), or nil for text that is
    /// not a JSON number.
    static func double(_ text: String) -> Double? {
        // Swift's own parser rounds correctly, but also takes "inf", "nan" and hex floats, which JSON
        // does not, so the grammar is checked first.
        guard isNumber(text) else { return nil }
        return Double(text)
    }

    private static func parts(of utf8: UnsafeBufferPointer<UInt8>) -> Parts? {
        var parts = Parts()
        var index = 0
        func isDigit(_ index: Int) -> Bool {
            index < utf8.count && utf8[index] &- UInt8(ascii: "0") < 10
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") {
            parts.negative = true
            index += 1
        }
        let integerStart = index
        guard isDigit(index) else { return nil }
        if utf8[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        parts.integerDigits = integerStart..<index
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
            parts.fractionDigits = fractionStart..<index
        }
        if index < utf8.count, utf8[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < utf8.count, utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-") {
                exponentNegative = utf8[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            var exponent = 0
            while isDigit(index) {
                exponent = min(exponent * 10 + Int(utf8[index] &- UInt8(ascii: "0")), 1_000_000_000)
                index += 1
            }
            parts.exponent = exponentNegative ? -exponent : exponent
        }
        return index == utf8.count ? parts : nil
    }
}
