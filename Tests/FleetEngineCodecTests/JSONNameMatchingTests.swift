import Testing

@testable import FleetEngineCodec

/// Field and enum names are matched by their code points, as Google's parsers match them. Swift's
/// `String` equality is canonical equivalence, under which U+212A KELVIN SIGN equals the letter K,
/// so `speed\u{212A}mph` would otherwise be taken for `speedKmph`. Google's Python
/// `json_format.Parse` (protobuf 7.36) refuses both inputs below: "has no field named" and
/// "Invalid enum value".
@Suite("proto3 JSON: names match by code points")
struct JSONNameMatchingTests {
    private static let kelvinSign = "\u{212A}"

    @Test("a member whose name equals a field's only canonically is an unknown field")
    func fieldNameWithKelvinSign() throws {
        let text = Array(#"{"speed\#(Self.kelvinSign)mph":5,"heading":7}"#.utf8)
        let error = try #require(throws: CodecError.self) {
            _ = try VehicleLocation(jsonUTF8Bytes: text, options: JSONDecodingOptions())
        }
        #expect(error.code == .unknownJSONField)
        #expect(error.byteOffset == 15)
        #expect(
            error.message == "maps.fleetengine.v1.VehicleLocation has no field named \"speed\(Self.kelvinSign)mph\"")

        let lenient = try VehicleLocation(
            jsonUTF8Bytes: text, options: JSONDecodingOptions(ignoringUnknownFields: true))
        #expect(lenient.speedKmph == nil)
        #expect(lenient.heading == 7)
    }

    @Test("an enum name that equals a value's name only canonically is no value of the enum")
    func enumNameWithKelvinSign() throws {
        let text = Array(#"{"name":"t","tripStatus":"ARRIVED_AT_PIC\#(Self.kelvinSign)UP"}"#.utf8)
        let error = try #require(throws: CodecError.self) {
            _ = try Trip(jsonUTF8Bytes: text, options: JSONDecodingOptions())
        }
        #expect(error.code == .invalidJSONValue)
        #expect(error.byteOffset == 25)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip.trip_status")
        #expect(
            error.message
                == "\"ARRIVED_AT_PIC\(Self.kelvinSign)UP\" is not a value of enum maps.fleetengine.v1.TripStatus")

        let lenient = try Trip(jsonUTF8Bytes: text, options: JSONDecodingOptions(ignoringUnknownFields: true))
        #expect(lenient.name == "t")
        #expect(lenient.tripStatus == .unknownTripStatus)
    }
}
