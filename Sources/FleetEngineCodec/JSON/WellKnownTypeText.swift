/// The JSON text forms of `google.protobuf.Timestamp`, `Duration` and `FieldMask`, shared by
/// ``JSONWriter`` and ``JSONReadContext``.
///
/// Printing follows Google's `json_format` exactly: RFC 3339 in UTC with a `Z`, `<seconds>s` for a
/// duration, and 0, 3, 6 or 9 fraction digits, the fewest of those that show the nanoseconds exactly.
/// Reading is strict RFC 3339 (section 5.6), where Python's `strptime` also lets through one-digit
/// fields; the differences are listed on each reader.
enum WellKnownTypeText {
    /// The earliest valid Timestamp, 0001-01-01T00:00:00Z, in seconds since the Unix epoch.
    static let minimumTimestampSeconds: Int64 = -62_135_596_800
    /// The latest valid Timestamp second, 9999-12-31T23:59:59Z.
    static let maximumTimestampSeconds: Int64 = 253_402_300_799
    /// The longest valid Duration either way, about 10,000 years (duration.proto).
    static let maximumDurationSeconds: Int64 = 315_576_000_000
    /// Days from 0001-01-01 to 1970-01-01 in the proleptic Gregorian calendar.
    private static let epochDayNumber: Int64 = 719_162

    // MARK: Timestamp

    /// Appends `"1972-01-01T10:00:20.021Z"`, quotes included, for a valid Timestamp.
    static func appendTimestamp(seconds: Int64, nanos: Int32, quotedTo output: inout [UInt8]) throws(CodecError) {
        guard seconds >= minimumTimestampSeconds && seconds <= maximumTimestampSeconds else {
            throw CodecError(
                code: .invalidJSONValue,
                message: "Timestamp seconds \(seconds) lie outside 0001-01-01T00:00:00Z...9999-12-31T23:59:59Z "
                    + "(\(minimumTimestampSeconds)...\(maximumTimestampSeconds))"
            )
        }
        guard nanos >= 0 && nanos <= 999_999_999 else {
            throw CodecError(code: .invalidJSONValue, message: "Timestamp nanos \(nanos) lie outside 0...999999999")
        }
        let secondOfDay = Int((seconds % 86_400 + 86_400) % 86_400)
        let date = civilDate(daysSinceEpoch: (seconds - Int64(secondOfDay)) / 86_400)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var text = ASCIIText(buffer: buffer)
            text.append("\"")
            text.append(date.year, width: 4)
            text.append("-")
            text.append(date.month, width: 2)
            text.append("-")
            text.append(date.day, width: 2)
            text.append("T")
            text.append(secondOfDay / 3600, width: 2)
            text.append(":")
            text.append(secondOfDay / 60 % 60, width: 2)
            text.append(":")
            text.append(secondOfDay % 60, width: 2)
            text.appendFraction(nanos: Int(nanos))
            text.append("Z")
            text.append("\"")
            output.append(contentsOf: text.written)
        }
    }

    /// A line of ASCII built in a stack buffer, so that a Timestamp or Duration costs one append.
    struct ASCIIText {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

        mutating func append(_ character: Unicode.Scalar) {
            buffer[count] = UInt8(ascii: character)
            count += 1
        }

        /// A non-negative number in decimal, with leading zeros up to `width` digits.
        mutating func append(_ value: Int, width: Int) {
            var digits = 1
            var rest = value / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let length = max(digits, width)
            var remaining = value
            for position in stride(from: count + length - 1, through: count, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            count += length
        }

        /// The fraction of a second as `.ddd`, `.dddddd` or `.ddddddddd`, or nothing for a whole second.
        mutating func appendFraction(nanos: Int) {
            guard nanos != 0 else { return }
            append(".")
            if nanos % 1_000_000 == 0 {
                append(nanos / 1_000_000, width: 3)
            } else if nanos % 1000 == 0 {
                append(nanos / 1000, width: 6)
            } else {
                append(nanos, width: 9)
            }
        }
    }

    /// The year, month and day of a day counted from 1970-01-01 (proleptic Gregorian calendar),
    /// counting whole 400-, 100- and 4-year cycles from 0001-01-01.
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int, month: Int, day: Int) {
        var remaining = Int(daysSinceEpoch + epochDayNumber)
        let cycles400 = remaining / 146_097
        remaining %= 146_097
        let cycles100 = min(remaining / 36_524, 3)
        remaining -= cycles100 * 36_524
        let cycles4 = remaining / 1461
        remaining %= 1461
        let years = min(remaining / 365, 3)
        remaining -= years * 365
        let year = 1 + 400 * cycles400 + 100 * cycles100 + 4 * cycles4 + years
        var month = 1
        while remaining >= daysIn(month: month, year: year) {
            remaining -= daysIn(month: month, year: year)
            month += 1
        }
        return (year, month, remaining + 1)
    }

    /// Days from 1970-01-01 to a date, the inverse of ``civilDate(daysSinceEpoch:)``.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let before = year - 1
        var days = before * 365 + before / 4 - before / 100 + before / 400
        for earlier in 1..<month {
            days += daysIn(month: earlier, year: year)
        }
        return Int64(days + day - 1) - epochDayNumber
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    // MARK: Duration

    /// Appends `"1.500s"`, `"-0.000001s"`, `"3s"`, quotes included, for a valid Duration.
    static func appendDuration(seconds: Int64, nanos: Int32, quotedTo output: inout [UInt8]) throws(CodecError) {
        try checkDuration(seconds: seconds, nanos: nanos)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var text = ASCIIText(buffer: buffer)
            text.append("\"")
            if seconds < 0 || nanos < 0 {
                text.append("-")
            }
            // At most 315,576,000,000 after the check, so the magnitude fits an Int.
            text.append(Int(seconds.magnitude), width: 1)
            text.appendFraction(nanos: Int(nanos.magnitude))
            text.append("s")
            text.append("\"")
            output.append(contentsOf: text.written)
        }
    }

    /// Applies duration.proto's rules: at most 315,576,000,000 seconds either way, nanos within
    /// -999,999,999...999,999,999, and seconds and nanos never of opposite signs.
    static func checkDuration(seconds: Int64, nanos: Int32) throws(CodecError) {
        guard seconds.magnitude <= maximumDurationSeconds.magnitude else {
            throw CodecError(
                code: .invalidJSONValue,
                message:
                    "Duration seconds \(seconds) lie outside -\(maximumDurationSeconds)...\(maximumDurationSeconds)"
            )
        }
        guard nanos.magnitude <= 999_999_999 else {
            throw CodecError(
                code: .invalidJSONValue,
                message: "Duration nanos \(nanos) lie outside -999999999...999999999"
            )
        }
        guard !(seconds > 0 && nanos < 0) && !(seconds < 0 && nanos > 0) else {
            throw CodecError(
                code: .invalidJSONValue,
                message: "Duration seconds \(seconds) and nanos \(nanos) have opposite signs"
            )
        }
    }
}
