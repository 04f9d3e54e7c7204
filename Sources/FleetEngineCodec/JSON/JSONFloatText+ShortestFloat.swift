extension JSONFloatText {
    /// Python's `ToShortestFloat` for a subnormal float, whose precision falls below 6 digits, so that
    /// Python prints more digits than the shortest ones (`1.4013e-45` where Swift says `1e-45`).
    ///
    /// A subnormal float is m x 2^-149 with m < 2^23, so value x 10^53 = m x 5^53 / 2^96 splits exactly
    /// into a whole part of 9 to 16 digits and a binary fraction; rounding that to 6, 7, 8 or 9 digits
    /// (half to even, as Python's formatting does) is exact integer arithmetic.
    static func appendSubnormal(_ value: Float, to output: inout [UInt8]) {
        let powerOfFive: UInt128 = 11_102_230_246_251_565_404_236_316_680_908_203_125  // 5^53
        let product = UInt128(value.significandBitPattern).multipliedFullWidth(by: powerOfFive)
        let whole = UInt64(truncatingIfNeeded: product.high << 32 | product.low >> 96)
        let fraction = product.low & (UInt128(1) << 96 - 1)
        let half = UInt128(1) << 95
        let wholeDigits = decimalDigitCount(whole)
        for precision in 6...9 {
            let scale = powerOfTen(wholeDigits - precision)
            var kept = whole / scale
            let rest = whole % scale
            let roundUp: Bool
            if scale == 1 {
                roundUp = fraction > half || (fraction == half && kept & 1 == 1)
            } else if rest != scale / 2 {
                roundUp = rest > scale / 2
            } else {
                roundUp = fraction > 0 || kept & 1 == 1
            }
            if roundUp {
                kept += 1
            }
            var pointPosition = wholeDigits - 53
            if kept == powerOfTen(precision) {
                kept /= 10
                pointPosition += 1
            }
            // Python's test: the digits read as a double, narrowed to a float, give the value back.
            guard let reread = Double("\(kept)e\(pointPosition - precision)"), Float(reread) == value.magnitude else {
                continue
            }
            var digits = String(kept).utf8.map { $0 }
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
            }
            digits.withUnsafeBufferPointer { buffer in
                appendRepr(negative: value.sign == .minus, digits: buffer, pointPosition: pointPosition, to: &output)
            }
            return
        }
        // Nine digits always read back a float, so this is not reached; the shortest digits would do.
        appendShortest(value, to: &output)
    }

    /// Python's `ToShortestFloat` search for a normal float: the fewest digits, at least 6, that read
    /// back as the same float, each try rounded half to even.
    ///
    /// The digits rounded are those of the float's value as a double, its shortest 17 or fewer. The
    /// tests compare this with Python for every power of two, the only normal floats that take this path.
    static func appendSearchingDigits(_ value: Float, to output: inout [UInt8]) {
        let (digits, pointPosition) = withSwiftText(of: Double(value.magnitude)) { text in
            withDecimalDigits(of: text) { (Array($1), $2) }
        }
        let zero = UInt8(ascii: "0")
        for precision in 6...9 {
            var kept = Array(digits.prefix(precision))
            var point = pointPosition
            if digits.count > precision {
                let next = digits[precision]
                let restIsZero = digits[(precision + 1)...].allSatisfy { $0 == zero }
                let lastIsOdd = (kept[precision - 1] - zero) % 2 == 1
                if next > UInt8(ascii: "5") || (next == UInt8(ascii: "5") && (!restIsZero || lastIsOdd)) {
                    var position = precision - 1
                    while position >= 0 && kept[position] == UInt8(ascii: "9") {
                        kept[position] = zero
                        position -= 1
                    }
                    if position >= 0 {
                        kept[position] += 1
                    } else {
                        kept.insert(UInt8(ascii: "1"), at: 0)
                        kept.removeLast()
                        point += 1
                    }
                }
            }
            while kept.last == zero {
                kept.removeLast()
            }
            // Python's test: the digits read as a double, narrowed to a float, give the value back.
            let text = "0." + String(decoding: kept, as: UTF8.self) + "e\(point)"
            guard let reread = Double(text), Float(reread) == value.magnitude else { continue }
            kept.withUnsafeBufferPointer { buffer in
                appendRepr(negative: value.sign == .minus, digits: buffer, pointPosition: point, to: &output)
            }
            return
        }
        appendShortest(value, to: &output)
    }

    private static func decimalDigitCount(_ value: UInt64) -> Int {
        var count = 1
        var remaining = value / 10
        while remaining > 0 {
            count += 1
            remaining /= 10
        }
        return count
    }

    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent {
            result *= 10
        }
        return result
    }
}
