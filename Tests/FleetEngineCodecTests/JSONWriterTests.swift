import Testing

@testable import FleetEngineCodec

/// Expected texts are what Google's Python `json_format.MessageToJson` (protobuf 7.36) prints for the
/// same values, unless a test says otherwise.
@Suite("JSONWriter")
struct JSONWriterTests {
    private func written(
        _ options: JSONEncodingOptions = JSONEncodingOptions(),
        _ build: (inout JSONWriter) -> Void
    ) -> String {
        var writer = JSONWriter(options: options)
        build(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func writtenOrError(_ build: (inout JSONWriter) throws(CodecError) -> Void) -> Result<String, CodecError> {
        var writer = JSONWriter(options: JSONEncodingOptions())
        do throws(CodecError) {
            try build(&writer)
            return .success(String(decoding: writer.bytes, as: UTF8.self))
        } catch {
            return .failure(error)
        }
    }

    /// Writes the sample document used by the layout tests.
    private func writeSample(_ writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("name", "name")
        writer.string("trip")
        writer.name("route", "route")
        writer.beginArray()
        writer.arrayElement()
        writer.beginObject()
        writer.name("latitude", "latitude")
        writer.double(1.5)
        writer.endObject()
        writer.arrayElement()
        writer.beginObject()
        writer.endObject()
        writer.endArray()
        writer.name("empty", "empty")
        writer.beginArray()
        writer.endArray()
        writer.name("nested", "nested")
        writer.beginObject()
        writer.endObject()
        writer.name("ids", "ids")
        writer.beginArray()
        writer.arrayElement()
        writer.int64(1)
        writer.arrayElement()
        writer.int64(2)
        writer.endArray()
        writer.name("inner", "inner")
        writer.beginObject()
        writer.name("x", "x")
        writer.null()
        writer.name("y", "y")
        writer.bool(true)
        writer.endObject()
        writer.endObject()
    }

    @Test("compact output has no whitespace and puts commas only between members and elements")
    func compactLayout() {
        let text = written { writeSample(&$0) }
        #expect(
            text
                == #"{"name":"trip","route":[{"latitude":1.5},{}],"empty":[],"nested":{},"ids":["1","2"],"#
                + #""inner":{"x":null,"y":true}}"#
        )
    }

    @Test("pretty output is byte for byte Python's json.dumps(indent=2), empty containers staying {} and []")
    func prettyLayout() {
        let text = written(JSONEncodingOptions(prettyPrinted: true)) { writeSample(&$0) }
        let python =
            "{\n  \"name\": \"trip\",\n  \"route\": [\n    {\n      \"latitude\": 1.5\n    },\n    {}\n  ],\n"
            + "  \"empty\": [],\n  \"nested\": {},\n  \"ids\": [\n    \"1\",\n    \"2\"\n  ],\n"
            + "  \"inner\": {\n    \"x\": null,\n    \"y\": true\n  }\n}"
        #expect(text == python)
    }

    @Test("member names are the JSON names, or the schema names when preserving proto field names")
    func memberNames() {
        let build: (inout JSONWriter) -> Void = { writer in
            writer.beginObject()
            writer.name("tripStatus", "trip_status")
            writer.enumValue(name: "NEW", rawValue: 1)
            writer.name("numberOfPassengers", "number_of_passengers")
            writer.int32(2)
            writer.endObject()
        }
        #expect(written(JSONEncodingOptions(), build) == #"{"tripStatus":"NEW","numberOfPassengers":2}"#)
        #expect(
            written(JSONEncodingOptions(preservingProtoFieldNames: true), build)
                == #"{"trip_status":"NEW","number_of_passengers":2}"#
        )
    }

    @Test("strings escape quote, backslash and control characters only, as Python's json does")
    func stringEscapes() {
        let text = written { $0.string("q\"b\\n\n\t\u{01}\u{1F}\u{7F}\u{08}\u{0C}\r/é😀") }
        #expect(text == "\"q\\\"b\\\\n\\n\\t\\u0001\\u001f\u{7F}\\b\\f\\r/é😀\"")
    }

    @Test("every quote, backslash and control character is escaped wherever it falls in a long string")
    func escapesAtEveryPosition() {
        let specials: [(String, String)] = [
            ("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{01}", "\\u0001"), ("\u{1F}", "\\u001f"),
        ]
        let plain = Array("abcdefghij¢é€klmnopqrstuvwxyz")
        for (special, escaped) in specials {
            for position in 0...plain.count {
                let before = String(plain[..<position])
                let after = String(plain[position...])
                let text = written { $0.string(before + special + after) }
                #expect(text == "\"" + before + escaped + after + "\"")
            }
        }
    }

    @Test("map keys are escaped like strings")
    func mapKeys() {
        let text = written { writer in
            writer.beginObject()
            writer.name("a\"b")
            writer.string("x")
            writer.name("")
            writer.string("")
            writer.endObject()
        }
        #expect(text == #"{"a\"b":"x","":""}"#)
    }

    @Test("32-bit integers are JSON numbers, 64-bit integers JSON strings")
    func integers() {
        let text = written { writer in
            writer.beginArray()
            writer.arrayElement()
            writer.int32(.min)
            writer.arrayElement()
            writer.int32(.max)
            writer.arrayElement()
            writer.int32(0)
            writer.arrayElement()
            writer.uint32(.max)
            writer.arrayElement()
            writer.int64(.min)
            writer.arrayElement()
            writer.int64(.max)
            writer.arrayElement()
            writer.uint64(.max)
            writer.arrayElement()
            writer.int64(-7)
            writer.endArray()
        }
        #expect(
            text
                == #"[-2147483648,2147483647,0,4294967295,"-9223372036854775808","9223372036854775807","#
                + #""18446744073709551615","-7"]"#
        )
    }

    @Test(
        "doubles print as Python's repr: shortest digits, '.0' on whole numbers, exponent below 1e-4 and from 1e16",
        arguments: [
            (0.1, "0.1"), (100, "100.0"), (0, "0.0"), (-0.0, "-0.0"), (1e16, "1e+16"),
            (1e15, "1000000000000000.0"), (9_007_199_254_740_994, "9007199254740994.0"),
            (123_456_789_012_345_680, "1.2345678901234568e+17"), (1e-5, "1e-05"), (0.0001, "0.0001"),
            (9.99e-5, "9.99e-05"), (.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-122.41941550000001, "-122.41941550000001"), (37.7749, "37.7749"), (1e22, "1e+22"),
            (2.5e-7, "2.5e-07"), (-1.5e300, "-1.5e+300"),
        ] as [(Double, String)]
    )
    func doubles(value: Double, expected: String) {
        #expect(written { $0.double(value) } == expected)
    }

    @Test("non-finite doubles and floats are the strings NaN, Infinity and -Infinity")
    func nonFinite() {
        #expect(written { $0.double(.nan) } == #""NaN""#)
        #expect(written { $0.double(.infinity) } == #""Infinity""#)
        #expect(written { $0.double(-.infinity) } == #""-Infinity""#)
        #expect(written { $0.float(.nan) } == #""NaN""#)
        #expect(written { $0.float(-.infinity) } == #""-Infinity""#)
    }

    @Test(
        "floats print at float precision with Python's ToShortestFloat, which keeps at least 6 digits",
        arguments: [
            (0.1, "0.1"), (0.9, "0.9"), (1e10, "10000000000.0"), (16_777_216, "16777216.0"),
            (123_456.7, "123456.7"), (1e-5, "1e-05"), (Float.greatestFiniteMagnitude, "3.4028235e+38"),
            (Float.leastNormalMagnitude, "1.1754944e-38"),
            // Subnormals: Python prints 6 digits where the shortest would be fewer.
            (Float.leastNonzeroMagnitude, "1.4013e-45"), (-Float.leastNonzeroMagnitude, "-1.4013e-45"),
            (Float(bitPattern: 4), "5.60519e-45"), (Float(bitPattern: 0x7FFFFF), "1.1754942e-38"),
            // Powers of two where Python's search ends one digit past the shortest (2^-96, 2^87, 2^90).
            (Float(bitPattern: 0x0F80_0000), "1.26217745e-29"), (Float(bitPattern: 0x6B00_0000), "1.54742505e+26"),
            (Float(bitPattern: 0xEC80_0000), "-1.23794004e+27"), (0.0009765625, "0.0009765625"),
        ] as [(Float, String)]
    )
    func floats(value: Float, expected: String) {
        #expect(written { $0.float(value) } == expected)
    }

    @Test(
        "bytes are standard base64 with padding",
        arguments: [
            ([], ""), ([0x41], "QQ=="), ([0x41, 0x42], "QUI="), ([0x41, 0x42, 0x43], "QUJD"),
            ([0xFB, 0xFF], "+/8="), ([0, 0, 0, 0], "AAAAAA=="),
        ] as [([UInt8], String)]
    )
    func bytes(value: [UInt8], expected: String) {
        #expect(written { $0.bytes(value) } == "\"\(expected)\"")
    }

    @Test("an enum value prints by name, or by number when the schema does not name it")
    func enums() {
        #expect(written { $0.enumValue(name: "ENROUTE_TO_PICKUP", rawValue: 2) } == #""ENROUTE_TO_PICKUP""#)
        #expect(written { $0.enumValue(name: nil, rawValue: 42) } == "42")
        #expect(written { $0.enumValue(name: nil, rawValue: -3) } == "-3")
    }

    @Test(
        "timestamps print in UTC with Z and 0, 3, 6 or 9 fraction digits",
        arguments: [
            (0, 0, "1970-01-01T00:00:00Z"), (0, 1_000_000, "1970-01-01T00:00:00.001Z"),
            (0, 1000, "1970-01-01T00:00:00.000001Z"), (0, 1, "1970-01-01T00:00:00.000000001Z"),
            (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
            (253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
            (-1, 500_000_000, "1969-12-31T23:59:59.500Z"), (1, 10_000_000, "1970-01-01T00:00:01.010Z"),
            (951_782_400, 0, "2000-02-29T00:00:00Z"), (951_868_799, 123_000_000, "2000-02-29T23:59:59.123Z"),
            (1_700_000_000, 123_456_000, "2023-11-14T22:13:20.123456Z"),
            (4_102_444_800, 5, "2100-01-01T00:00:00.000000005Z"), (-2_208_988_800, 0, "1900-01-01T00:00:00Z"),
            (1_234_567_890, 100, "2009-02-13T23:31:30.000000100Z"),
        ] as [(Int64, Int32, String)]
    )
    func timestamps(seconds: Int64, nanos: Int32, expected: String) {
        #expect(
            writtenOrError { w throws(CodecError) in try w.timestamp(seconds: seconds, nanos: nanos) }
                == .success("\"\(expected)\""))
    }

    @Test(
        "a timestamp outside years 1 to 9999, or with nanos outside 0...999999999, is refused",
        arguments: [(-62_135_596_801, 0), (253_402_300_800, 0), (0, -1), (0, 1_000_000_000), (.min, 0)]
            as [(Int64, Int32)]
    )
    func invalidTimestamps(seconds: Int64, nanos: Int32) {
        let result = writtenOrError { w throws(CodecError) in try w.timestamp(seconds: seconds, nanos: nanos) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test(
        "durations print as seconds with an 's' and 0, 3, 6 or 9 fraction digits, the sign in front",
        arguments: [
            (0, 0, "0s"), (1, 500_000_000, "1.500s"), (0, -1000, "-0.000001s"), (-3, -100_000_000, "-3.100s"),
            (315_576_000_000, 999_999_999, "315576000000.999999999s"), (0, 1, "0.000000001s"),
            (-315_576_000_000, -999_999_999, "-315576000000.999999999s"), (-1, 0, "-1s"),
            (-1, -500_000_000, "-1.500s"), (123, 456_789_000, "123.456789s"), (0, 10, "0.000000010s"),
        ] as [(Int64, Int32, String)]
    )
    func durations(seconds: Int64, nanos: Int32, expected: String) {
        #expect(
            writtenOrError { w throws(CodecError) in try w.duration(seconds: seconds, nanos: nanos) }
                == .success("\"\(expected)\""))
    }

    @Test(
        "a duration past 315576000000 s, with nanos past 999999999, or with mixed signs is refused",
        arguments: [(315_576_000_001, 0), (-315_576_000_001, 0), (1, -1), (-1, 1), (0, 1_000_000_000), (.min, 0)]
            as [(Int64, Int32)]
    )
    func invalidDurations(seconds: Int64, nanos: Int32) {
        let result = writtenOrError { w throws(CodecError) in try w.duration(seconds: seconds, nanos: nanos) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test(
        "field masks print their paths in lowerCamelCase joined by commas",
        arguments: [
            (["foo_bar", "baz.qux_quux"], "fooBar,baz.quxQuux"), (["_foo"], "Foo"), (["a.b_c"], "a.bC"),
            ([""], ""), ([], ""), (["foo_bar_baz"], "fooBarBaz"), (["123"], "123"), (["a1_b"], "a1B"),
            (["", "a"], ",a"), (["trip_status", "vehicle_id"], "tripStatus,vehicleId"),
        ] as [([String], String)]
    )
    func fieldMasks(paths: [String], expected: String) {
        #expect(writtenOrError { w throws(CodecError) in try w.fieldMask(paths: paths) } == .success("\"\(expected)\""))
    }

    @Test(
        "a field mask path that would not read back the same is refused",
        arguments: [["FooBar"], ["foo__bar"], ["foo_1"], ["foo_"], ["ok", "fooBar"], ["a_É"]]
    )
    func invalidFieldMasks(paths: [String]) {
        let result = writtenOrError { w throws(CodecError) in try w.fieldMask(paths: paths) }
        #expect(result == .failure(CodecError(.invalidJSONValue)))
    }

    @Test("a refused well-known value says what was wrong")
    func wellKnownErrorMessages() {
        guard
            case .failure(let error) = writtenOrError({ w throws(CodecError) in try w.duration(seconds: 1, nanos: -1) })
        else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message == "Duration seconds 1 and nanos -1 have opposite signs")
        guard case .failure(let mask) = writtenOrError({ w throws(CodecError) in try w.fieldMask(paths: ["foo_1"]) })
        else {
            Issue.record("expected an error")
            return
        }
        #expect(
            mask.message
                == "FieldMask path \"foo_1\" has '1' after a '_', where only a lowercase letter can be, "
                + "so it has no JSON form"
        )
    }
}
