extension JSONReadContext {
    /// An `int32` from a JSON number or a numeric string. Integral values in any notation are taken
    /// (`100`, `1e2`, `100.0`, `"1e2"`), as Google's parser takes them; a fraction or a value out of
    /// range is an error.
    func int32(_ value: JSONValue) throws(CodecError) -> Int32 {
        let (negative, magnitude) = try integer(value, typeName: "int32")
        guard let result = Self.int32(negative: negative, magnitude: magnitude) else {
            throw outOfRange(value, typeName: "int32")
        }
        return result
    }

    /// A `uint32`, read as ``int32(_:)`` reads; `-0` is zero, anything below is out of range.
    func uint32(_ value: JSONValue) throws(CodecError) -> UInt32 {
        let (negative, magnitude) = try integer(value, typeName: "uint32")
        guard !negative || magnitude == 0, let result = UInt32(exactly: magnitude) else {
            throw outOfRange(value, typeName: "uint32")
        }
        return result
    }

    /// An `int64`, usually a JSON string; read exactly, never through a `Double`.
    func int64(_ value: JSONValue) throws(CodecError) -> Int64 {
        let (negative, magnitude) = try integer(value, typeName: "int64")
        if negative {
            guard magnitude <= 1 << 63 else {
                throw outOfRange(value, typeName: "int64")
            }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard let result = Int64(exactly: magnitude) else {
            throw outOfRange(value, typeName: "int64")
        }
        return result
    }

    /// A `uint64`, usually a JSON string; read exactly.
    func uint64(_ value: JSONValue) throws(CodecError) -> UInt64 {
        let (negative, magnitude) = try integer(value, typeName: "uint64")
        guard !negative || magnitude == 0 else {
            throw outOfRange(value, typeName: "uint64")
        }
        return magnitude
    }

    /// A `double` from a JSON number, a numeric string, or one of the strings `"NaN"`, `"Infinity"`
    /// and `"-Infinity"`. A number too large for a double is an error (write `"Infinity"`), as in
    /// Google's parser; unlike Python, a numeric string too large is an error too, not an infinity.
    func double(_ value: JSONValue) throws(CodecError) -> Double {
        try floatingPoint(value, typeName: "double")
    }

    /// A `float`, read as ``double(_:)`` reads and then rounded to float precision.
    ///
    /// A finite value that rounds past the largest float (3.4028235e+38) is an error. Python's parser
    /// also refuses 3.4028235e38 itself, which its own printer writes for the largest float, because
    /// that text reads as a double slightly above it; this reader takes it, so printed floats read back.
    func float(_ value: JSONValue) throws(CodecError) -> Float {
        let wide = try floatingPoint(value, typeName: "float")
        // Through a double first, as Google's parsers do: the JSON text is read as a double, then narrowed.
        let narrow = Float(wide)
        if wide.isFinite && !narrow.isFinite {
            throw error(
                .invalidJSONValue,
                "\(value.summary) is out of range for float, whose largest value is 3.4028235e+38",
                at: value
            )
        }
        return narrow
    }

    /// A signed 32-bit value from a sign and a magnitude, or nil when it does not fit.
    static func int32(negative: Bool, magnitude: UInt64) -> Int32? {
        if negative {
            guard magnitude <= 1 << 31 else { return nil }
            return Int32(truncatingIfNeeded: 0 &- magnitude)
        }
        return Int32(exactly: magnitude)
    }

    private func integer(_ value: JSONValue, typeName: String) throws(CodecError) -> (negative: Bool, magnitude: UInt64)
    {
        let text: String
        switch value.kind {
        case .number(let lexeme):
            text = lexeme
        case .string(let quoted):
            text = quoted
        default:
            throw error(
                .invalidJSONValue,
                "expected \(typeName) as a JSON number or a numeric string, found \(value.summary)",
                at: value
            )
        }
        switch JSONNumberText.integer(text) {
        case .integer(let negative, let magnitude):
            return (negative, magnitude)
        case .fraction:
            throw error(.invalidJSONValue, "\(value.summary) is not a whole number, as \(typeName) needs", at: value)
        case .tooLarge:
            throw outOfRange(value, typeName: typeName)
        case .notANumber:
            throw error(.invalidJSONValue, "\(value.summary) is not a number, as \(typeName) needs", at: value)
        }
    }

    private func outOfRange(_ value: JSONValue, typeName: String) -> CodecError {
        let limits =
            switch typeName {
            case "int32": "-2147483648...2147483647"
            case "uint32": "0...4294967295"
            case "int64": "-9223372036854775808...9223372036854775807"
            default: "0...18446744073709551615"
            }
        return error(.invalidJSONValue, "\(value.summary) is out of range for \(typeName) (\(limits))", at: value)
    }

    private func floatingPoint(_ value: JSONValue, typeName: String) throws(CodecError) -> Double {
        let number: Double?
        switch value.kind {
        case .number(let lexeme):
            number = Double(lexeme)
        case .string("NaN"):
            return .nan
        case .string("Infinity"):
            return .infinity
        case .string("-Infinity"):
            return -.infinity
        case .string(let text):
            number = JSONNumberText.double(text)
            guard number != nil else {
                throw error(
                    .invalidJSONValue,
                    "\(value.summary) is not a number, nor \"NaN\", \"Infinity\" or \"-Infinity\", "
                        + "as \(typeName) needs",
                    at: value
                )
            }
        default:
            throw error(
                .invalidJSONValue,
                "expected \(typeName) as a JSON number or a numeric string, found \(value.summary)",
                at: value
            )
        }
        guard let number, number.isFinite else {
            throw error(
                .invalidJSONValue,
                "\(value.summary) is out of range for \(typeName); an infinite value is written \"Infinity\" "
                    + "or \"-Infinity\"",
                at: value
            )
        }
        return number
    }
}
