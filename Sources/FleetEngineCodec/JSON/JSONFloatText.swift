/// Prints `double` and `float` field values the way Google's Python `json_format` prints them.
///
/// Python writes a `double` with `repr`: the shortest digits that read back the same value, in fixed
/// notation with at least one fraction digit (`100.0`, `0.0001`) when the decimal exponent is from -4
/// to 15, and in exponent notation otherwise (`1e-05`, `1.5e+16`). A `float` is first cut to the fewest
/// significant digits, at least 6, that read back the same `Float` (`ToShortestFloat`), then printed
/// the same way. Non-finite values are the JSON strings `"NaN"`, `"Infinity"` and `"-Infinity"`.
///
/// Swift's own printing already finds the shortest digits (it never prints more than 17), and for
/// the usual values (`37.7749295`, `100.0`) its text is Python's text, so it is copied as it is; only
/// the other forms are taken apart and laid out again. Nothing goes through a `String`.
enum JSONFloatText {
    /// Appends a `double` field value: a JSON number, or a JSON string for NaN and the infinities.
    static func append(_ value: Double, to output: inout [UInt8]) {
        guard value.isFinite else {
            appendNonFinite(isNaN: value.isNaN, negative: value < 0, to: &output)
            return
        }
        if appendFewDigits(value, to: &output) { return }
        appendBySwiftText(value, to: &output)
    }

    /// The general path: Swift's shortest digits, laid out as Python lays them out.
    static func appendBySwiftText(_ value: Double, to output: inout [UInt8]) {
        withSwiftText(of: value) { appendPythonForm(ofSwiftText: $0, to: &output) }
    }

    /// Appends a `float` field value at float precision, as Python's `ToShortestFloat` cuts it.
    static func append(_ value: Float, to output: inout [UInt8]) {
        guard value.isFinite else {
            appendNonFinite(isNaN: value.isNaN, negative: value < 0, to: &output)
            return
        }
        if value.isSubnormal {
            appendSubnormal(value, to: &output)
        } else if value.significandBitPattern == 0 && value != 0 {
            appendSearchingDigits(value, to: &output)
        } else {
            // Six significant digits are coarser than a normal float's spacing, so Python's search
            // starting at six digits ends on the shortest digits, which Swift finds. A power of two is the
            // exception: the floats below it are half as far away as the ones above.
            appendShortest(value, to: &output)
        }
    }

    static func appendShortest(_ value: Float, to output: inout [UInt8]) {
        withSwiftText(of: value) { appendPythonForm(ofSwiftText: $0, to: &output) }
    }

    private static func appendNonFinite(isNaN: Bool, negative: Bool, to output: inout [UInt8]) {
        let text: StaticString = isNaN ? "\"NaN\"" : negative ? "\"-Infinity\"" : "\"Infinity\""
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// Hands `body` the text Swift prints for a finite value, from a buffer on the stack.
    static func withSwiftText<Value: TextOutputStreamable, Result>(
        of value: Value,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        // The longest finite text is 24 bytes ("-1.7976931348623157e+308"); the rest is headroom.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var capture = TextCapture(buffer: buffer)
            value.write(to: &capture)
            guard !capture.overflowed else {
                var text = "\(value)"
                return text.withUTF8 { body($0) }
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<capture.count]))
        }
    }

    /// Copies Swift's text when it already is Python's (plain fixed notation), and lays it out again
    /// otherwise: Swift switches to exponent notation at 2^53 for a double (2^24 for a float), Python
    /// only at 1e16.
    private static func appendPythonForm(ofSwiftText text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var hasPoint = false
        var plain = true
        for byte in text {
            if byte == UInt8(ascii: ".") {
                hasPoint = true
            } else if byte &- UInt8(ascii: "0") >= 10 && byte != UInt8(ascii: "-") {
                plain = false
            }
        }
        if plain && hasPoint {
            output.append(contentsOf: text)
            return
        }
        withDecimalDigits(of: text) { negative, digits, pointPosition in
            appendRepr(negative: negative, digits: digits, pointPosition: pointPosition, to: &output)
        }
    }

    /// Splits Swift's text for a finite value (`1.5`, `1e-05`, `9.007199254740994e+15`) into its sign,
    /// its significant digits without leading or trailing zeros (none for zero), and the point
    /// position p such that the value is 0.d1d2d3... x 10^p.
    static func withDecimalDigits<Result>(
        of text: UnsafeBufferPointer<UInt8>,
        _ body: (_ negative: Bool, _ digits: UnsafeBufferPointer<UInt8>, _ pointPosition: Int) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { digits in
            var count = 0
            var integerDigits = 0
            var seenPoint = false
            var index = 0
            let negative = text.first == UInt8(ascii: "-")
            if negative {
                index += 1
            }
            while index < text.count {
                let byte = text[index]
                index += 1
                if byte == UInt8(ascii: ".") {
                    seenPoint = true
                } else if byte == UInt8(ascii: "e") {
                    break
                } else {
                    digits[count] = byte
                    count += 1
                    if !seenPoint {
                        integerDigits += 1
                    }
                }
            }
            var exponentSign = 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentSign = text[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            var exponent = 0
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            var pointPosition = integerDigits + exponentSign * exponent
            var first = 0
            while first < count, digits[first] == UInt8(ascii: "0") {
                first += 1
                pointPosition -= 1
            }
            while count > first, digits[count - 1] == UInt8(ascii: "0") {
                count -= 1
            }
            return body(negative, UnsafeBufferPointer(rebasing: digits[first..<count]), pointPosition)
        }
    }

    /// Lays out significant digits as Python's `float_repr_style = 'short'` does: fixed notation when
    /// -4 < pointPosition <= 16, else `d.ddde±XX` with at least two exponent digits.
    static func appendRepr(
        negative: Bool,
        digits: UnsafeBufferPointer<UInt8>,
        pointPosition: Int,
        to output: inout [UInt8]
    ) {
        if negative {
            output.append(UInt8(ascii: "-"))
        }
        let zero = UInt8(ascii: "0")
        guard !digits.isEmpty else {
            output.append(contentsOf: [zero, UInt8(ascii: "."), zero])
            return
        }
        if pointPosition > -4 && pointPosition <= 16 {
            if pointPosition <= 0 {
                output.append(zero)
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: repeatElement(zero, count: -pointPosition))
                output.append(contentsOf: digits)
            } else if pointPosition < digits.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<pointPosition]))
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[pointPosition...]))
            } else {
                output.append(contentsOf: digits)
                output.append(contentsOf: repeatElement(zero, count: pointPosition - digits.count))
                output.append(UInt8(ascii: "."))
                output.append(zero)
            }
            return
        }
        output.append(digits[0])
        if digits.count > 1 {
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[1...]))
        }
        output.append(UInt8(ascii: "e"))
        let exponent = pointPosition - 1
        output.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        if exponent.magnitude < 10 {
            output.append(zero)
        }
        var exponentText = String(exponent.magnitude)
        exponentText.withUTF8 { output.append(contentsOf: $0) }
    }
}

/// A `TextOutputStream` that keeps the ASCII text Swift prints for a number in a stack buffer.
private struct TextCapture: TextOutputStream {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0
    var overflowed = false

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func write(_ string: String) {
        for byte in string.utf8 {
            guard count < buffer.count else {
                overflowed = true
                return
            }
            buffer[count] = byte
            count += 1
        }
    }

    /// The standard library's floating-point types print through this requirement of
    /// `TextOutputStream` with their stack buffer, which spares building a `String`. Should it ever
    /// stop calling it, `write(_:)` receives the same text.
    mutating func _writeASCII(_ text: UnsafeBufferPointer<UInt8>) {
        guard count + text.count <= buffer.count else {
            overflowed = true
            return
        }
        for byte in text {
            buffer[count] = byte
            count += 1
        }
    }
}
