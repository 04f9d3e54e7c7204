extension WellKnownTypeText {
    /// Reads an RFC 3339 date-time (section 5.6) into a Timestamp.
    ///
    /// Accepted: `YYYY-MM-DDThh:mm:ss`, then 1 to 9 fraction digits after a `.`, then `Z` or an offset
    /// `+hh:mm` / `-hh:mm`. Refused, as Google's Python parser refuses them: a lowercase `t` or `z`,
    /// a leap second (`:60`), more than 9 fraction digits, a missing offset, and a result outside
    /// 0001-01-01T00:00:00Z...9999-12-31T23:59:59.999999999Z. Refused although Python lets them
    /// through: one-digit fields (`1970-1-1T0:0:0Z`), a `.` with no digits, and offsets past 23:59.
    ///
    /// - Throws: ``CodecError/Code/invalidJSONValue`` saying which part is wrong; the caller adds where.
    static func parseTimestamp(_ text: String) throws(CodecError) -> (seconds: Int64, nanos: Int32) {
        var scanner = Scanner(text: text, typeName: "Timestamp")
        let year = try scanner.digits(4, "year")
        try scanner.expect("-", "after the year")
        let month = try scanner.digits(2, "month")
        try scanner.expect("-", "after the month")
        let day = try scanner.digits(2, "day")
        if scanner.peek == UInt8(ascii: "t") {
            throw scanner.failure("has a lowercase 't' between date and time, which Google's parsers refuse")
        }
        try scanner.expect("T", "between the date and the time")
        let hour = try scanner.digits(2, "hour")
        try scanner.expect(":", "after the hour")
        let minute = try scanner.digits(2, "minute")
        try scanner.expect(":", "after the minute")
        let second = try scanner.digits(2, "second")
        guard year >= 1 else { throw scanner.failure("has year 0000; years run from 0001 to 9999") }
        guard (1...12).contains(month) else { throw scanner.failure("has month \(month); months run from 01 to 12") }
        guard (1...daysIn(month: month, year: year)).contains(day) else {
            throw scanner.failure("has day \(day), which month \(month) of year \(year) does not have")
        }
        guard hour <= 23 else { throw scanner.failure("has hour \(hour); hours run from 00 to 23") }
        guard minute <= 59 else { throw scanner.failure("has minute \(minute); minutes run from 00 to 59") }
        guard second <= 59 else { throw scanner.failure("has second \(second); seconds run from 00 to 59") }
        var nanos = 0
        if scanner.peek == UInt8(ascii: ".") {
            nanos = try scanner.fraction()
        }
        var offsetSeconds = 0
        switch scanner.peek {
        case UInt8(ascii: "Z"):
            scanner.index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = scanner.peek == UInt8(ascii: "-") ? -1 : 1
            scanner.index += 1
            let offsetHours = try scanner.digits(2, "offset hour")
            try scanner.expect(":", "in the offset")
            let offsetMinutes = try scanner.digits(2, "offset minute")
            guard offsetHours <= 23 && offsetMinutes <= 59 else {
                throw scanner.failure("has an offset past 23:59")
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        case UInt8(ascii: "z"):
            throw scanner.failure("ends in a lowercase 'z', which Google's parsers refuse")
        case nil:
            throw scanner.failure("has no time zone offset ('Z' or +hh:mm)")
        default:
            throw scanner.failure("has \(scanner.shownCharacter) where 'Z' or an offset was expected")
        }
        guard scanner.peek == nil else {
            throw scanner.failure("has text after the time zone offset")
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        guard seconds >= minimumTimestampSeconds && seconds <= maximumTimestampSeconds else {
            throw scanner.failure("is outside 0001-01-01T00:00:00Z...9999-12-31T23:59:59.999999999Z once in UTC")
        }
        return (seconds, Int32(nanos))
    }

    /// Reads `<seconds>[.<fraction>]s` into a Duration, e.g. `1.5s`, `-0.000001s`, `3s`.
    ///
    /// The seconds are decimal digits after an optional `-`; the fraction has 1 to 9 digits. Refused
    /// although Python lets them through: a `+` sign, spaces, a `.` with no digits, and more than 9
    /// fraction digits (Python rounds them away).
    ///
    /// - Throws: ``CodecError/Code/invalidJSONValue`` saying which part is wrong; the caller adds where.
    static func parseDuration(_ text: String) throws(CodecError) -> (seconds: Int64, nanos: Int32) {
        var scanner = Scanner(text: text, typeName: "Duration")
        guard scanner.characters.last == UInt8(ascii: "s") else {
            throw scanner.failure("does not end with the letter 's'")
        }
        let negative = scanner.peek == UInt8(ascii: "-")
        if negative {
            scanner.index += 1
        }
        let digitsStart = scanner.index
        var magnitude: Int64 = 0
        while let digit = scanner.peekDigit {
            // Past the limit the exact value no longer matters, only that it is too large.
            magnitude = min(magnitude * 10 + Int64(digit), maximumDurationSeconds + 1)
            scanner.index += 1
        }
        guard scanner.index > digitsStart else {
            throw scanner.failure("needs decimal digits for its seconds")
        }
        var nanos = 0
        if scanner.peek == UInt8(ascii: ".") {
            nanos = try scanner.fraction()
        }
        guard scanner.index == scanner.characters.count - 1 else {
            throw scanner.failure("has \(scanner.shownCharacter) where 's' was expected")
        }
        guard magnitude <= maximumDurationSeconds else {
            throw scanner.failure("is longer than \(maximumDurationSeconds) seconds (about 10,000 years)")
        }
        return negative ? (-magnitude, Int32(-nanos)) : (magnitude, Int32(nanos))
    }

    /// Walks the UTF-8 of a Timestamp or Duration text.
    struct Scanner {
        let text: String
        let typeName: String
        let characters: [UInt8]
        var index = 0

        init(text: String, typeName: String) {
            self.text = text
            self.typeName = typeName
            self.characters = Array(text.utf8)
        }

        var peek: UInt8? { index < characters.count ? characters[index] : nil }

        var peekDigit: Int? {
            guard let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            return Int(byte - UInt8(ascii: "0"))
        }

        var shownCharacter: String {
            guard let byte = peek else { return "the end" }
            return byte >= 0x21 && byte <= 0x7E ? "'\(Character(Unicode.Scalar(byte)))'" : "a non-printing character"
        }

        /// Exactly `count` decimal digits.
        mutating func digits(_ count: Int, _ part: String) throws(CodecError) -> Int {
            var value = 0
            for _ in 0..<count {
                guard let digit = peekDigit else {
                    throw failure("has \(shownCharacter) where the \(count)-digit \(part) was expected")
                }
                value = value * 10 + digit
                index += 1
            }
            return value
        }

        mutating func expect(_ character: Unicode.Scalar, _ place: String) throws(CodecError) {
            guard peek == UInt8(ascii: character) else {
                throw failure("has \(shownCharacter) where '\(character)' was expected \(place)")
            }
            index += 1
        }

        /// The fraction after the `.` at `index`, 1 to 9 digits, as nanoseconds.
        mutating func fraction() throws(CodecError) -> Int {
            index += 1
            var nanos = 0
            var count = 0
            while let digit = peekDigit {
                count += 1
                guard count <= 9 else { throw failure("has more than 9 fraction digits") }
                nanos = nanos * 10 + digit
                index += 1
            }
            guard count > 0 else { throw failure("has a '.' with no fraction digits after it") }
            for _ in count..<9 {
                nanos *= 10
            }
            return nanos
        }

        func failure(_ problem: String) -> CodecError {
            CodecError(
                code: .invalidJSONValue,
                message: "\(typeName) \"\(JSONValue.shortened(text))\" \(problem)"
            )
        }
    }
}
