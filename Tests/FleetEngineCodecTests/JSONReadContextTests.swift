import Testing

@testable import FleetEngineCodec

/// A small open enum for the enum reader.
private struct Status: ProtobufEnum {
    static let protoEnumName = "test.Status"
    static let allNamedValues = [Status(rawValue: 0), Status(rawValue: 1), Status(rawValue: 2)]
    var rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    init?(protoName: String) {
        switch protoName {
        case "UNKNOWN_STATUS": self.init(rawValue: 0)
        case "NEW": self.init(rawValue: 1)
        case "COMPLETE": self.init(rawValue: 2)
        default: return nil
        }
    }

    var protoName: String? {
        switch rawValue {
        case 0: "UNKNOWN_STATUS"
        case 1: "NEW"
        case 2: "COMPLETE"
        default: nil
        }
    }
}

/// Accepted and refused inputs are what Google's Python `json_format.Parse` (protobuf 7.36) accepts
/// and refuses, except where a test names a deliberate difference.
@Suite("JSONReadContext")
struct JSONReadContextTests {
    private let context = JSONReadContext(options: JSONDecodingOptions())

    private func value(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxNestingDepth: 10)
    }

    /// What a reader returns for a JSON text, or the error it throws.
    private func read<T>(_ text: String, _ reader: (JSONValue) throws(CodecError) -> T) throws -> Result<T, CodecError>
    {
        let parsed = try value(text)
        do throws(CodecError) {
            return .success(try reader(parsed))
        } catch {
            return .failure(error)
        }
    }

    @Test("the path joins components with dots, and an index or map key without one")
    func path() {
        var context = JSONReadContext(options: JSONDecodingOptions())
        #expect(context.path == "")
        context.enter("maps.fleetengine.v1.Trip")
        context.enter("route[3]")
        context.enter("latitude")
        #expect(context.path == "maps.fleetengine.v1.Trip.route[3].latitude")
        context.leave()
        context.leave()
        context.enter("attributes")
        context.enter("[\"key\"]")
        #expect(context.path == "maps.fleetengine.v1.Trip.attributes[\"key\"]")
        context.leave()
        context.leave()
        context.leave()
        context.leave()
        #expect(context.path == "")
    }

    @Test("an error carries the value's byte offset and the current path")
    func errorLocation() throws {
        var context = JSONReadContext(options: JSONDecodingOptions())
        context.enter("maps.fleetengine.v1.Trip")
        context.enter("number_of_passengers")
        let result = try read(#"  "two""#) { v throws(CodecError) in try context.int32(v) }
        guard case .failure(let error) = result else {
            Issue.record("accepted a word for an int32")
            return
        }
        #expect(error.code == .invalidJSONValue)
        #expect(error.byteOffset == 2)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip.number_of_passengers")
        #expect(error.message == "the string \"two\" is not a number, as int32 needs")
    }

    @Test("a well-known type's error is located like any other")
    func wellKnownErrorLocation() throws {
        var context = JSONReadContext(options: JSONDecodingOptions())
        context.enter("maps.fleetengine.v1.Trip")
        context.enter("pickup_time")
        let result = try read(#"[0, "2020-13-01T00:00:00Z"]"#) { v throws(CodecError) in
            try context.timestamp(try context.array(v)[1])
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted month 13")
            return
        }
        #expect(error.byteOffset == 4)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip.pickup_time")
        #expect(error.message == "Timestamp \"2020-13-01T00:00:00Z\" has month 13; months run from 01 to 12")
    }

    @Test("containers and strings must have their JSON type")
    func containerTypes() throws {
        #expect(
            try read(#"{"a":1}"#) { v throws(CodecError) in try context.object(v, typeName: "T").count } == .success(1))
        #expect(try read("[1,2]") { v throws(CodecError) in try context.array(v).count } == .success(2))
        #expect(try read("[]") { v throws(CodecError) in try context.object(v, typeName: "T") }.isFailure)
        #expect(try read("{}") { v throws(CodecError) in try context.array(v) }.isFailure)
        #expect(try read(#""x""#) { v throws(CodecError) in try context.string(v) } == .success("x"))
        #expect(try read("1") { v throws(CodecError) in try context.string(v) }.isFailure)
        #expect(context.isNull(try value("null")))
        #expect(!context.isNull(try value("0")))
    }

    @Test("bools are true and false without quotes")
    func bools() throws {
        #expect(try read("true") { v throws(CodecError) in try context.bool(v) } == .success(true))
        #expect(try read("false") { v throws(CodecError) in try context.bool(v) } == .success(false))
        #expect(try read(#""true""#) { v throws(CodecError) in try context.bool(v) }.isFailure)
        #expect(try read("1") { v throws(CodecError) in try context.bool(v) }.isFailure)
    }

    @Test(
        "int32 takes integral values as numbers or strings, in any notation",
        arguments: [
            ("1", 1), ("-1", -1), ("-0", 0), ("\"-0\"", 0), ("1e2", 100), ("\"1e2\"", 100), ("15.0", 15),
            ("\"15.0\"", 15), ("\"1.5e1\"", 15), ("-0.0", 0), ("2147483647", .max), ("-2147483648", .min),
            ("\"2147483647\"", .max), ("100e-2", 1), ("0e999999999999", 0),
        ] as [(String, Int32)]
    )
    func int32Accepted(text: String, expected: Int32) throws {
        #expect(try read(text) { v throws(CodecError) in try context.int32(v) } == .success(expected))
    }

    @Test(
        "int32 refuses fractions, out-of-range values, non-numbers and Python-only spellings",
        arguments: [
            "1.5", "\"1.5\"", "2147483648", "-2147483649", "1e400", "true", "null", "[]", "\" 1\"", "\"0x1\"",
            "\"\"", "\"abc\"",
            // Python's int() takes these inside a string; this codec reads strings as JSON numbers only.
            "\"+1\"", "\"01\"", "\"1_0\"",
            // Python reads 1e-400 as the float 0.0 and so takes it; exactly, it is no integer.
            "1e-400",
        ]
    )
    func int32Refused(text: String) throws {
        let result = try read(text) { v throws(CodecError) in try context.int32(v) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test("uint32 takes 0...4294967295, -0 included")
    func uint32() throws {
        #expect(try read("4294967295") { v throws(CodecError) in try context.uint32(v) } == .success(.max))
        #expect(try read("\"-0\"") { v throws(CodecError) in try context.uint32(v) } == .success(0))
        #expect(try read("4294967296") { v throws(CodecError) in try context.uint32(v) }.isFailure)
        #expect(try read("-1") { v throws(CodecError) in try context.uint32(v) }.isFailure)
    }

    @Test(
        "int64 and uint64 read exactly, with no double in between",
        arguments: [
            ("\"9223372036854775807\"", Int64.max), ("9223372036854775807", .max), ("\"-9223372036854775808\"", .min),
            ("\"9223372036854775807.0\"", .max), ("\"1e18\"", 1_000_000_000_000_000_000),
            ("\"1495767569794753726\"", 1_495_767_569_794_753_726), ("4027033410734315E2", 402_703_341_073_431_500),
        ] as [(String, Int64)]
    )
    func int64Accepted(text: String, expected: Int64) throws {
        #expect(try read(text) { v throws(CodecError) in try context.int64(v) } == .success(expected))
    }

    @Test("int64 and uint64 refuse values past their range and fractions that a double would round away")
    func int64Refused() throws {
        #expect(try read("\"9223372036854775808\"") { v throws(CodecError) in try context.int64(v) }.isFailure)
        #expect(try read("\"-9223372036854775809\"") { v throws(CodecError) in try context.int64(v) }.isFailure)
        #expect(try read("\"-9223372036854775807.7\"") { v throws(CodecError) in try context.int64(v) }.isFailure)
        #expect(
            try read("\"18446744073709551615\"") { v throws(CodecError) in try context.uint64(v) } == .success(.max))
        #expect(try read("\"18446744073709551616\"") { v throws(CodecError) in try context.uint64(v) }.isFailure)
        #expect(try read("\"-1\"") { v throws(CodecError) in try context.uint64(v) }.isFailure)
        #expect(try read("\"18446744073709551615e-1\"") { v throws(CodecError) in try context.uint64(v) }.isFailure)
    }

    @Test(
        "double takes numbers, numeric strings and the three special strings",
        arguments: [
            ("1.5", 1.5), ("\"1.5\"", 1.5), ("-0", -0.0), ("1e-50", 1e-50), ("1e-400", 0), ("\"Infinity\"", .infinity),
            ("\"-Infinity\"", -.infinity), ("3.4028235e38", 3.4028235e38),
            ("17976931348623157e292", .greatestFiniteMagnitude),
            ("0.1", 0.1),
        ] as [(String, Double)]
    )
    func doubleAccepted(text: String, expected: Double) throws {
        let result = try read(text) { v throws(CodecError) in try context.double(v) }
        #expect(result == .success(expected))
        if case .success(let number) = result {
            #expect(number.sign == expected.sign)
        }
    }

    @Test("double reads \"NaN\" as NaN")
    func doubleNaN() throws {
        let result = try read("\"NaN\"") { v throws(CodecError) in try context.double(v) }
        guard case .success(let number) = result else {
            Issue.record("refused NaN")
            return
        }
        #expect(number.isNaN)
    }

    @Test(
        "double refuses overflow, lowercase specials and non-numbers",
        arguments: [
            "1e400", "-1e400", "\"nan\"", "true", "\"\"", "\"abc\"", "null",
            // Python's float() takes these inside a string; this codec reads strings as JSON numbers only.
            "\"inf\"", "\" 1.5\"", "\".5\"", "\"+1\"",
            // Python reads an overflowing numeric string as an infinity; this codec refuses it like a number.
            "\"1e400\"",
        ]
    )
    func doubleRefused(text: String) throws {
        let result = try read(text) { v throws(CodecError) in try context.double(v) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test("float rounds to float precision and refuses finite values past its range")
    func floats() throws {
        #expect(try read("0.1") { v throws(CodecError) in try context.float(v) } == .success(Float(0.1)))
        #expect(try read("\"1e-50\"") { v throws(CodecError) in try context.float(v) } == .success(0))
        #expect(try read("\"-Infinity\"") { v throws(CodecError) in try context.float(v) } == .success(-.infinity))
        // Python refuses this one, although its own printer writes the largest float so.
        #expect(
            try read("3.4028235e38") { v throws(CodecError) in try context.float(v) }
                == .success(.greatestFiniteMagnitude))
        #expect(
            try read("-3.4028235e+38") { v throws(CodecError) in try context.float(v) }
                == .success(-.greatestFiniteMagnitude))
        #expect(try read("1e39") { v throws(CodecError) in try context.float(v) }.isFailure)
        #expect(try read("\"-1e39\"") { v throws(CodecError) in try context.float(v) }.isFailure)
        #expect(try read("3.4028236e38") { v throws(CodecError) in try context.float(v) }.isFailure)
    }

    @Test(
        "bytes take either base64 alphabet, padded or not",
        arguments: [
            ("QQ==", [0x41]), ("QQ", [0x41]), ("QR==", [0x41]), ("-_8=", [0xFB, 0xFF]), ("+/8=", [0xFB, 0xFF]),
            ("QUJD", [0x41, 0x42, 0x43]), ("QUJDRA", [0x41, 0x42, 0x43, 0x44]), ("", []), ("+/-_", [0xFB, 0xFF, 0xBF]),
        ] as [(String, [UInt8])]
    )
    func bytesAccepted(text: String, expected: [UInt8]) throws {
        #expect(try read("\"\(text)\"") { v throws(CodecError) in try context.bytes(v) } == .success(expected))
    }

    @Test(
        "bytes refuse a lone trailing character, misplaced padding and characters outside both alphabets",
        arguments: ["Q", "QQ=A", "QQ===", "QQ=", "Q Q=", "QQ\\n", "QUJD*", "é"]
    )
    func bytesRefused(text: String) throws {
        let result = try read("\"\(text)\"") { v throws(CodecError) in try context.bytes(v) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test("enums read by name, by number and by a string of digits; unnamed numbers are kept")
    func enums() throws {
        let read = { (text: String) throws -> Result<Int32?, CodecError> in
            try self.read(text) { v throws(CodecError) in try context.enumValue(v, as: Status.self)?.rawValue }
        }
        #expect(try read(#""NEW""#) == .success(1))
        #expect(try read("2") == .success(2))
        #expect(try read("2.0") == .success(2))
        #expect(try read(#""2""#) == .success(2))
        #expect(try read("42") == .success(42))
        #expect(try read("-7") == .success(-7))
        #expect(try read(#""UNKNOWN""#) == .failure(CodecError(.invalidJSONValue)))
        #expect(try read(#""new""#) == .failure(CodecError(.invalidJSONValue)))
        // Python's int() would cut 1.5 down to 1; an enum number must be whole, as for int32.
        #expect(try read("1.5") == .failure(CodecError(.invalidJSONValue)))
        #expect(try read("2147483648") == .failure(CodecError(.invalidJSONValue)))
        #expect(try read("true") == .failure(CodecError(.invalidJSONValue)))
    }

    @Test("an unknown enum name is nil when unknown fields are ignored; numbers are still checked")
    func enumsIgnoringUnknown() throws {
        let lenient = JSONReadContext(options: JSONDecodingOptions(ignoringUnknownFields: true))
        #expect(
            try read(#""LATER""#) { v throws(CodecError) in try lenient.enumValue(v, as: Status.self)?.rawValue }
                == .success(nil))
        #expect(
            try read(#""NEW""#) { v throws(CodecError) in try lenient.enumValue(v, as: Status.self)?.rawValue }
                == .success(1))
        #expect(try read("1.5") { v throws(CodecError) in try lenient.enumValue(v, as: Status.self) }.isFailure)
    }

    @Test(
        "a string of digits past int32 is an enum number out of range, also when unknown fields are ignored",
        arguments: ["99999999999", "2147483648", "-2147483649", "99999999999999999999999"]
    )
    func enumNumberStringOutOfRange(digits: String) throws {
        // Google's Python parser refuses these with "Value out of range"; ignoring unknown fields skips
        // only names it cannot read as numbers.
        for ignoringUnknownFields in [false, true] {
            let reader = JSONReadContext(options: JSONDecodingOptions(ignoringUnknownFields: ignoringUnknownFields))
            let result = try read("\"\(digits)\"") { v throws(CodecError) in
                try reader.enumValue(v, as: Status.self)?.rawValue
            }
            guard case .failure(let error) = result else {
                Issue.record("read \(digits) as \(result) with ignoringUnknownFields \(ignoringUnknownFields)")
                continue
            }
            #expect(error.code == .invalidJSONValue)
            #expect(
                error.message
                    == "the string \"\(digits)\" is out of range for an enum number (int32, -2147483648...2147483647)")
        }
    }

    @Test("a Trip whose enum is a string of digits past int32 is refused where it is, unknown fields ignored or not")
    func tripEnumNumberStringOutOfRange() throws {
        let text = Array(#"{"name":"t","tripStatus":"99999999999"}"#.utf8)
        for ignoringUnknownFields in [false, true] {
            let options = JSONDecodingOptions(ignoringUnknownFields: ignoringUnknownFields)
            let error = try #require(throws: CodecError.self) { _ = try Trip(jsonUTF8Bytes: text, options: options) }
            #expect(error.code == .invalidJSONValue)
            #expect(error.byteOffset == 25)
            #expect(error.fieldPath == "maps.fleetengine.v1.Trip.trip_status")
        }
    }

    @Test(
        "timestamps read RFC 3339 with Z or an offset and up to 9 fraction digits",
        arguments: [
            ("1970-01-01T00:00:00Z", 0, 0), ("1970-01-01T00:00:00.5Z", 0, 500_000_000),
            ("1970-01-01T00:00:00.123456789Z", 0, 123_456_789), ("1970-01-01T00:00:00+01:00", -3600, 0),
            ("1970-01-01T00:00:00-01:30", 5400, 0), ("0001-01-01T00:00:00Z", -62_135_596_800, 0),
            ("9999-12-31T23:59:59.999999999Z", 253_402_300_799, 999_999_999),
            ("1972-01-01T10:00:20.021-05:00", 63_126_020, 21_000_000), ("2000-02-29T00:00:00Z", 951_782_400, 0),
            ("2000-02-29T23:59:59.999999999+23:59", 951_782_459, 999_999_999),
            ("2100-02-28T12:00:00.1-00:00", 4_107_499_200, 100_000_000),
        ] as [(String, Int64, Int32)]
    )
    func timestampsAccepted(text: String, seconds: Int64, nanos: Int32) throws {
        let result = try read("\"\(text)\"") { v throws(CodecError) in try context.timestamp(v) }
        guard case .success(let time) = result else {
            Issue.record("refused \(text): \(result)")
            return
        }
        #expect(time.seconds == seconds)
        #expect(time.nanos == nanos)
    }

    @Test(
        "timestamps refuse what Google's parser refuses, and one-digit fields that Python lets through",
        arguments: [
            "1970-01-01T00:00:00.1234567890Z", "1970-01-01T00:00:00z", "1970-01-01t00:00:00Z", "1970-01-01T00:00:60Z",
            "1970-01-01T00:00:00+0100", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01",
            "0000-01-01T00:00:00Z", "2020-02-30T00:00:00Z", "1900-02-29T00:00:00Z", "1970-01-01T00:00:00",
            "1970-01-01 00:00:00Z", "1970-01-01T00:00:00ZZ",
            // Python's strptime lets these through; RFC 3339 does not.
            "1970-1-1T0:0:0Z", "1970-01-01T00:00:00.Z", "1970-01-01T00:00:00+24:00",
        ]
    )
    func timestampsRefused(text: String) throws {
        let result = try read("\"\(text)\"") { v throws(CodecError) in try context.timestamp(v) }
        #expect(result.isFailure)
        #expect(try read("0") { v throws(CodecError) in try context.timestamp(v) }.isFailure)
    }

    @Test(
        "durations read seconds with up to 9 fraction digits and an 's'",
        arguments: [
            ("1s", 1, 0), ("1.5s", 1, 500_000_000), ("-0.5s", 0, -500_000_000), ("-0s", 0, 0), ("01s", 1, 0),
            ("315576000000s", 315_576_000_000, 0), ("-315576000000.999999999s", -315_576_000_000, -999_999_999),
            ("1.000000000s", 1, 0), ("-1.5s", -1, -500_000_000), ("0.000000001s", 0, 1),
        ] as [(String, Int64, Int32)]
    )
    func durationsAccepted(text: String, seconds: Int64, nanos: Int32) throws {
        let result = try read("\"\(text)\"") { v throws(CodecError) in try context.duration(v) }
        guard case .success(let duration) = result else {
            Issue.record("refused \(text): \(result)")
            return
        }
        #expect(duration.seconds == seconds)
        #expect(duration.nanos == nanos)
    }

    @Test(
        "durations refuse a missing 's', too many seconds, and forms Python rounds or strips",
        arguments: [
            ".5s", "-.5s", "1S", "315576000001s", "1", "1e2s", "s", "", "99999999999999999999999s",
            // Python takes these: it rounds extra digits away and lets int() strip signs and spaces.
            "1.0000000001s", "1.s", "+1s", " 1s",
        ]
    )
    func durationsRefused(text: String) throws {
        let result = try read("\"\(text)\"") { v throws(CodecError) in try context.duration(v) }
        #expect(result.isFailure)
    }

    @Test("field masks read comma-separated lowerCamelCase paths into snake_case")
    func fieldMasks() throws {
        let read = { (text: String) throws -> Result<[String], CodecError> in
            try self.read(text) { v throws(CodecError) in try context.fieldMask(v) }
        }
        #expect(try read(#""fooBar,baz.quxQuux""#) == .success(["foo_bar", "baz.qux_quux"]))
        #expect(try read(#""""#) == .success([]))
        #expect(try read(#""a,,b""#) == .success(["a", "", "b"]))
        #expect(try read(#""FooBar""#) == .success(["_foo_bar"]))
        #expect(try read(#""fooBAR""#) == .success(["foo_b_a_r"]))
        #expect(try read(#""foo_bar""#) == .failure(CodecError(.invalidJSONValue)))
        #expect(try read("[]") == .failure(CodecError(.invalidJSONValue)))
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self {
            return true
        }
        return false
    }
}
