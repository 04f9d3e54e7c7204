/// Turns parsed JSON values into field values by the proto3 JSON mapping, and keeps track of where
/// in the message the reader is, so that each error names the field and the byte offset.
///
/// The generated `init(jsonUTF8Bytes:options:)` of each message walks the ``JSONValue`` tree with one
/// context: ``enter(_:)`` and ``leave()`` around each field, the typed readers for leaves. What is
/// accepted follows Google's Python `json_format.Parse`; where this codec is stricter, the reader's
/// documentation says so.
struct JSONReadContext {
    /// The options the caller parses with.
    let options: JSONDecodingOptions
    /// The path from the top-level message down to the value being read.
    private var components: [String] = []

    init(options: JSONDecodingOptions) {
        self.options = options
    }

    /// Steps into a field, an element (`route[3]`) or a map entry, for error messages.
    mutating func enter(_ component: String) {
        components.append(component)
    }

    /// Steps back out of what the last ``enter(_:)`` entered.
    mutating func leave() {
        _ = components.popLast()
    }

    /// The components entered so far, joined with dots; one that starts with `[` (an index or a map
    /// key) joins without a dot: `maps.fleetengine.v1.Trip.route[3].latitude`.
    var path: String {
        var result = ""
        for component in components {
            if !result.isEmpty && component.utf8.first != UInt8(ascii: "[") {
                result += "."
            }
            result += component
        }
        return result
    }

    /// An error about `value`, located at its byte offset and the current ``path``.
    func error(
        _ code: CodecError.Code,
        _ message: String,
        at value: JSONValue,
        fileID: String = #fileID,
        line: Int = #line
    ) -> CodecError {
        CodecError(
            code: code,
            message: message,
            byteOffset: value.offset,
            fieldPath: components.isEmpty ? nil : path,
            fileID: fileID,
            line: line
        )
    }

    /// An error raised without a location (by ``WellKnownTypeText`` or ``Base64``), given `value`'s.
    func located(_ error: CodecError, at value: JSONValue) -> CodecError {
        var error = error
        error.byteOffset = value.offset
        error.fieldPath = components.isEmpty ? nil : path
        return error
    }

    /// The members of an object that holds a message of type `typeName`.
    func object(_ value: JSONValue, typeName: String) throws(CodecError) -> [JSONMember] {
        guard case .object(let members) = value.kind else {
            throw error(.invalidJSONValue, "expected a JSON object for \(typeName), found \(value.summary)", at: value)
        }
        return members
    }

    /// Stores a `map<string, …>` entry, refusing a key canonically equivalent to, but not the same code
    /// points as, one already in the map (see ``StringMapKeys``), located at that key. Google's Python
    /// parser keeps both; the map's Swift dictionary cannot. Keys with the same code points never get
    /// here twice: ``JSONParser`` refuses an object that names a key twice.
    func insert<Value>(
        _ value: Value,
        forKey entry: JSONMember,
        into map: inout [String: Value],
        field: String
    ) throws(CodecError) {
        if let existing = StringMapKeys.equivalentKey(to: entry.key, in: map) {
            throw CodecError(
                code: .canonicallyEquivalentMapKeys,
                message: StringMapKeys.conflict(field: field, existing: existing, key: entry.key),
                byteOffset: entry.keyOffset,
                fieldPath: path
            )
        }
        map[entry.key] = value
    }

    /// The elements of an array that holds a repeated field.
    func array(_ value: JSONValue) throws(CodecError) -> [JSONValue] {
        guard case .array(let elements) = value.kind else {
            throw error(
                .invalidJSONValue, "expected a JSON array for a repeated field, found \(value.summary)", at: value)
        }
        return elements
    }

    /// Whether the value is `null`, which for most fields means "not set".
    func isNull(_ value: JSONValue) -> Bool {
        if case .null = value.kind {
            return true
        }
        return false
    }

    func string(_ value: JSONValue) throws(CodecError) -> String {
        guard case .string(let text) = value.kind else {
            throw error(.invalidJSONValue, "expected a JSON string, found \(value.summary)", at: value)
        }
        return text
    }

    /// `true` or `false`; the strings `"true"` and `"false"` are refused, as Google's parser refuses them.
    func bool(_ value: JSONValue) throws(CodecError) -> Bool {
        guard case .bool(let flag) = value.kind else {
            throw error(.invalidJSONValue, "expected true or false without quotes, found \(value.summary)", at: value)
        }
        return flag
    }

    /// Bytes in base64: the standard or the URL-safe alphabet, padded or not.
    func bytes(_ value: JSONValue) throws(CodecError) -> [UInt8] {
        let text = try string(expecting: "base64 text", value)
        do throws(CodecError) {
            return try Base64.decode(text)
        } catch {
            // In JSON, bad base64 is a bad value for a bytes field.
            var valueError = error
            valueError.code = .invalidJSONValue
            throw located(valueError, at: value)
        }
    }

    /// An enum value by name, or by number (a JSON integer, or a string of decimal digits, which
    /// Google's Python parser also takes). A number the schema does not name is kept: proto3 enums
    /// are open.
    ///
    /// - Returns: nil for a name the enum does not have when ``JSONDecodingOptions/ignoringUnknownFields``
    ///   is set; the caller then leaves the field unset. A number outside int32, quoted or not, is
    ///   an error either way.
    func enumValue<E: ProtobufEnum>(_ value: JSONValue, as type: E.Type) throws(CodecError) -> E? {
        switch value.kind {
        case .string(let name):
            // Enum names are ASCII; the check keeps Swift's canonical equivalence from taking
            // "UN\u{212A}NOWN_TRIP_STATUS" (a KELVIN SIGN) for UNKNOWN_TRIP_STATUS, which Google's parsers refuse.
            if name.utf8.allSatisfy({ $0 < 0x80 }), let named = E(protoName: name) {
                return named
            }
            if isDecimalInteger(name) {
                switch JSONNumberText.integer(name) {
                case .integer(let negative, let magnitude):
                    if let number = Self.int32(negative: negative, magnitude: magnitude) {
                        return E(rawValue: number) as E
                    }
                    throw enumNumberOutOfRange(value)
                case .tooLarge:
                    throw enumNumberOutOfRange(value)
                case .fraction, .notANumber:
                    // Leading zeros ("01"): not a JSON number, so it is read as a name.
                    break
                }
            }
            if options.ignoringUnknownFields {
                return nil
            }
            throw error(
                .invalidJSONValue,
                "\"\(JSONValue.shortened(name))\" is not a value of enum \(E.protoEnumName)",
                at: value
            )
        case .number:
            return E(rawValue: try int32(value)) as E
        default:
            throw error(
                .invalidJSONValue,
                "expected a name or number of enum \(E.protoEnumName), found \(value.summary)",
                at: value
            )
        }
    }

    /// A string of digits is an enum number, and past int32 it is out of range, not an unknown name:
    /// Google's Python parser refuses it even when ignoring unknown fields, which skips only names.
    private func enumNumberOutOfRange(_ value: JSONValue) -> CodecError {
        error(
            .invalidJSONValue,
            "\(value.summary) is out of range for an enum number (int32, -2147483648...2147483647)",
            at: value
        )
    }

    /// A `google.protobuf.Timestamp` from RFC 3339 text; see ``WellKnownTypeText/parseTimestamp(_:)``.
    func timestamp(_ value: JSONValue) throws(CodecError) -> (seconds: Int64, nanos: Int32) {
        let text = try string(expecting: "a Timestamp as RFC 3339 text", value)
        do throws(CodecError) {
            return try WellKnownTypeText.parseTimestamp(text)
        } catch {
            throw located(error, at: value)
        }
    }

    /// A `google.protobuf.Duration` from text like `"1.5s"`; see ``WellKnownTypeText/parseDuration(_:)``.
    func duration(_ value: JSONValue) throws(CodecError) -> (seconds: Int64, nanos: Int32) {
        let text = try string(expecting: "a Duration such as \"1.5s\"", value)
        do throws(CodecError) {
            return try WellKnownTypeText.parseDuration(text)
        } catch {
            throw located(error, at: value)
        }
    }

    /// A `google.protobuf.FieldMask` from comma-separated lowerCamelCase paths, in snake_case.
    func fieldMask(_ value: JSONValue) throws(CodecError) -> [String] {
        let text = try string(expecting: "a FieldMask as comma-separated paths", value)
        do throws(CodecError) {
            return try WellKnownTypeText.parseFieldMask(text)
        } catch {
            throw located(error, at: value)
        }
    }

    /// The text of a string value, or an error that says what the string should have held.
    private func string(expecting expected: String, _ value: JSONValue) throws(CodecError) -> String {
        guard case .string(let text) = value.kind else {
            throw error(.invalidJSONValue, "expected \(expected) in a JSON string, found \(value.summary)", at: value)
        }
        return text
    }

    /// Whether `text` is an optional `-` and decimal digits, the form Python's `int()` takes for an enum.
    private func isDecimalInteger(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }
}
