import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

@Suite("Fields the schema does not know survive decode and encode")
struct UnknownFieldTests {
    @Test(
        "unknown fields of every wire type are kept in order and written back after the known fields",
        arguments: [
            ("f807 01", "varint"),
            ("fd07 01020304", "fixed32"),
            ("f907 0102030405060708", "fixed64"),
            ("fa07 02 6869", "length-delimited"),
            ("fb07 0801 fc07", "group"),
        ])
    func everyWireType(hex: String, kind: String) throws {
        let bytes = hexBytes("0a0161" + hex)
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.name == "a")
        #expect(trip.unknownFields.bytes == hexBytes(hex), "\(kind)")
        #expect(trip.serializedBytes() == bytes, "\(kind)")
    }

    @Test("unknown fields are kept inside nested messages too")
    func nested() throws {
        // pickup_point { point { latitude: 1.0, field 9: 150 } }
        let bytes = hexBytes("2a0e 0a0c 09000000000000f03f 489601")
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.pickupPoint?.point?.latitude == 1)
        #expect(trip.pickupPoint?.point?.unknownFields.bytes == hexBytes("489601"))
        #expect(trip.serializedBytes() == bytes)
    }

    @Test("a known field with another wire type is kept as an unknown field, as Google's parsers keep it")
    func wrongWireType() throws {
        // name (field 1) sent as a varint, then trip_status as it should be.
        let trip = try Trip(serializedBytes: hexBytes("0805 1802"))
        #expect(trip.name == "")
        #expect(trip.tripStatus == .enrouteToPickup)
        #expect(trip.unknownFields.bytes == hexBytes("0805"))
        #expect(trip.serializedBytes() == hexBytes("1802 0805"))
    }

    @Test(
        "a bool field with another wire type is kept as unknown (protobuf-c alone would take it as a bool)",
        arguments: ["2a0101", "2d01000000", "290100000000000000"])
    func boolWithWrongWireType(hex: String) throws {
        // SearchTripsRequest.active_trips_only is field 5.
        let request = try SearchTripsRequest(serializedBytes: hexBytes("1a0170" + hex))
        #expect(request.activeTripsOnly == false)
        #expect(request.parent == "p")
        #expect(request.unknownFields.bytes == hexBytes(hex))
        #expect(request.serializedBytes() == hexBytes("1a0170" + hex))
    }

    @Test("a bool sent as a varint beyond 32 bits is true, as Google reads it")
    func wideBoolVarint() throws {
        let request = try SearchTripsRequest(serializedBytes: hexBytes("28 8080808010"))
        #expect(request.activeTripsOnly == true)
        #expect(request.serializedBytes() == hexBytes("2801"))
    }

    @Test("a singular message sent twice is merged: fields of both, unknown fields of both in order")
    func singularMessageMerged() throws {
        // header { language_code: "en", field 31: 5 } then header { region_code: "US", field 31: 6 }
        let input = hexBytes("0a07 0a02656e f80105" + "0a07 12025553 f80106" + "1a0170")
        let request = try SearchTripsRequest(serializedBytes: input)
        #expect(request.header?.languageCode == "en")
        #expect(request.header?.regionCode == "US")
        #expect(request.header?.unknownFields.bytes == hexBytes("f80105 f80106"))
        #expect(request.serializedBytes() == hexBytes("0a0e 0a02656e 12025553 f80105 f80106" + "1a0170"))
    }

    @Test("a wrong wire type deep inside a nested message is kept where it was")
    func wrongWireTypeNested() throws {
        // pickup_point { point { latitude sent as varint } }
        let trip = try Trip(serializedBytes: hexBytes("2a04 0a02 0801"))
        #expect(trip.pickupPoint?.point?.latitude == 0)
        #expect(trip.pickupPoint?.point?.unknownFields.bytes == hexBytes("0801"))
        #expect(trip.serializedBytes() == hexBytes("2a04 0a02 0801"))
    }

    @Test("a field numbered 2^29 - 1, the number the decoder uses internally, is an ordinary unknown field")
    func highestFieldNumber() throws {
        for hex in ["f8ffffff0f 01", "faffffff0f 02 6869"] {
            let trip = try Trip(serializedBytes: hexBytes("1802" + hex))
            #expect(trip.unknownFields.bytes == hexBytes(hex))
        }
        // Alongside a group, which makes the decoder wrap fields under that number.
        let mixed = hexBytes("faffffff0f 02 6869 1b 1c")
        let trip = try Trip(serializedBytes: mixed)
        #expect(trip.unknownFields.bytes == mixed)
        #expect(trip.serializedBytes() == mixed)
    }

    @Test("unknown fields built by a caller are checked to be whole fields")
    func validatingInit() throws {
        #expect(try UnknownFields(validating: hexBytes("f807 01")).bytes == hexBytes("f807 01"))
        #expect(throws: CodecError(.truncated)) { try UnknownFields(validating: hexBytes("f807")) }
        #expect(throws: CodecError(.unmatchedEndGroup)) { try UnknownFields(validating: hexBytes("0c")) }
        var trip = Trip()
        trip.unknownFields = try UnknownFields(validating: hexBytes("f807 01"))
        #expect(trip.serializedBytes() == hexBytes("f807 01"))
    }
}

@Suite("Fuzzer findings, kept as regression tests")
struct FuzzerFindingTests {
    @Test("a sub-message sent several times, with wrong-wire-type fields inside, encodes stably")
    func repeatedSubMessageWithWrappedFields() throws {
        // FuzzTesting found this SearchTripsRequest: `header` (field 1) arrives five times, some
        // occurrences carrying `platform` (an enum) as a length-delimited field, and
        // `active_trips_only` (a bool) arrives length-delimited too.
        let input = hexBytes(
            "0a083a004a002a000a00 0a083a000a003a004a00 2a00 0a00 0a083a000a000a000a00 0a00")
        let first = try SearchTripsRequest(serializedBytes: input)
        let encoded = first.serializedBytes()
        let second = try SearchTripsRequest(serializedBytes: encoded)
        #expect(hexString(second.serializedBytes()) == hexString(encoded))
        #expect(second == first)
    }

    @Test(
        "a map entry holding more than its key and value is kept whole, as Google writes it back",
        arguments: [
            ("0a0172 1a080a016b1201761801", "0a0172 1a080a016b1201761801"),
            ("1a0b18011201760a016b0a016a", "1a080a016a1201761801"),
            ("1a080a016b120176 1a00", "1a080a016b120176 1a00"),
        ])
    func mapEntryWithUnknownFields(input: String, google: String) throws {
        let info = try ErrorInfo(serializedBytes: hexBytes(input))
        #expect(hexString(info.serializedBytes()) == hexString(hexBytes(google)))
    }

    @Test("a tag written in more than 5 bytes is refused, as Google refuses it")
    func overlongTag() {
        #expect(throws: CodecError(.malformedVarint)) {
            try ErrorInfo(serializedBytes: hexBytes("8a808080800001 61"))
        }
    }
}
