import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// Points travel through protobuf-c as bytes and are read in Swift when canonical; every other form
/// must still decode exactly as Google's parser does. Expected bytes below come from Google's
/// Python package for the same input.
@Suite("Points (google.type.LatLng) in every wire form")
struct PointTests {
    static let cases: [(name: String, input: String, googleReencodes: String)] = [
        ("canonical", "4a12 09000000000000f83f 1100000000000002c0", "4a12 09000000000000f83f 1100000000000002c0"),
        ("longitude first", "4a12 1100000000000002c0 09000000000000f83f", "4a12 09000000000000f83f 1100000000000002c0"),
        ("latitude twice, the last wins", "4a12 09000000000000f83f 0900000000000002c0", "4a09 0900000000000002c0"),
        ("with an unknown field", "4a0b 09000000000000f83f 1801", "4a0b 09000000000000f83f 1801"),
        ("zero written explicitly", "4a09 090000000000000000", "4a00"),
        ("empty", "4a00", "4a00"),
        (
            "a singular point sent twice is merged",
            "2a0b 0a09 09000000000000f83f" + "2a0b 0a09 1100000000000002c0",
            "2a14 0a12 09000000000000f83f 1100000000000002c0"
        ),
        (
            "a vehicle location sent twice: points and wrappers inside are merged too",
            "5a0f 0a09 09000000000000f83f 12020805" + "5a11 0a09 1100000000000002c0 1200 1a020807",
            "5a1c 0a12 09000000000000f83f 1100000000000002c0 12020805 1a020807"
        ),
    ]

    @Test("each form decodes to what Google's parser reads, and encodes as Google does", arguments: cases)
    func form(_ name: String, _ input: String, _ googleReencodes: String) throws {
        let trip = try Trip(serializedBytes: hexBytes(input))
        #expect(hexString(trip.serializedBytes()) == hexString(hexBytes(googleReencodes)), "\(name)")
    }

    @Test("canonical points read their doubles exactly, including NaN payloads and -0.0")
    func exactDoubles() throws {
        var trip = Trip()
        let values: [Double] = [-0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        trip.route = values.map { value in
            var point = LatLng()
            point.latitude = value
            point.longitude = -value
            return point
        }
        let decoded = try Trip(serializedBytes: trip.serializedBytes())
        #expect(decoded.route.map(\.latitude.bitPattern) == values.map(\.bitPattern))
        #expect(decoded.route.map(\.longitude.bitPattern) == values.map { (-$0).bitPattern })
    }

    @Test("a point with unknown fields is encoded by protobuf-c, unknown fields and all")
    func unknownFieldsEncoded() throws {
        var point = LatLng()
        point.latitude = 1.5
        point.unknownFields = try UnknownFields(validating: hexBytes("1801"))
        var trip = Trip()
        trip.route = [point]
        #expect(hexString(trip.serializedBytes()) == "4a0b09000000000000f83f1801")
    }

    @Test("a malformed point inside a route is reported where it is")
    func malformedPoint() {
        do {
            _ = try Trip(serializedBytes: hexBytes("4a12 09000000000000f83f 1100000000000002c0" + "4a05 0900000000"))
            Issue.record("accepted a truncated point")
        } catch {
            #expect(error.code == .truncated)
            #expect(error.byteOffset == 23)
            #expect(error.fieldPath == "maps.fleetengine.v1.Trip.route[1]")
        }
    }
}
