import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

@Suite("Where the binary form holds fields the schema does not define: what proto3 JSON leaves out")
struct UnknownFieldLocationTests {
    @Test("fields of every depth, in input order, each at its tag's offset; decoding kept each of them")
    func nestedLocations() throws {
        // name "a", field 127 (varint), then pickup_point { point { latitude 1.0, field 9: 150 } }.
        let bytes = hexBytes("0a0161 f80701 2a0e 0a0c 09000000000000f03f 489601")
        let locations = try Trip.unknownFieldLocations(in: bytes)
        #expect(
            locations == [
                UnknownFieldLocation(path: "maps.fleetengine.v1.Trip", fieldNumber: 127, byteOffset: 3),
                UnknownFieldLocation(
                    path: "maps.fleetengine.v1.Trip.pickup_point.point", fieldNumber: 9, byteOffset: 19),
            ])
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.unknownFields.bytes == hexBytes("f80701"))
        #expect(trip.pickupPoint?.point?.unknownFields.bytes == hexBytes("489601"))
        #expect(locations.last?.description == "field 9 of maps.fleetengine.v1.Trip.pickup_point.point at byte 19")
        #expect(
            locations.last?.description(withOffset: false) == "field 9 of maps.fleetengine.v1.Trip.pickup_point.point")
    }

    @Test("a repeated field's element is named by its index")
    func repeatedElement() throws {
        var extra = LatLng()
        extra.latitude = 2
        extra.unknownFields = try UnknownFields(validating: hexBytes("5005"))
        var trip = Trip()
        trip.route = [LatLng(), LatLng(), extra]
        let bytes = trip.serializedBytes()
        let locations = try Trip.unknownFieldLocations(in: bytes)
        #expect(locations.map(\.path) == ["maps.fleetengine.v1.Trip.route[2]"])
        #expect(locations.map(\.fieldNumber) == [10])
        let offset = try #require(locations.first?.byteOffset)
        #expect(Array(bytes[offset..<offset + 2]) == hexBytes("5005"))
    }

    @Test("a known field with another wire type, and an unknown group whole, count as one field each")
    func wireTypeAndGroup() throws {
        let locations = try Trip.unknownFieldLocations(in: hexBytes("0805 1802 fb07 0801 fc07"))
        #expect(locations.map(\.fieldNumber) == [1, 127])
        #expect(locations.map(\.byteOffset) == [0, 4])
    }

    @Test("a map entry holding more than its key and value is one unknown field of its message")
    func mapEntryWithExtraField() throws {
        // ErrorInfo.metadata (field 3) entry { key "k", value "v", field 3: 1 }.
        let bytes = hexBytes("1a08 0a016b 120176 1801")
        let locations = try ErrorInfo.unknownFieldLocations(in: bytes)
        #expect(locations == [UnknownFieldLocation(path: "google.rpc.ErrorInfo", fieldNumber: 3, byteOffset: 0)])
        let info = try ErrorInfo(serializedBytes: bytes)
        #expect(info.metadata.isEmpty)
        #expect(!info.unknownFields.isEmpty)
    }

    @Test("a message with only fields its schema defines has none; broken structure is a located error")
    func noneAndBroken() throws {
        var trip = Trip()
        trip.name = "providers/p/trips/t"
        trip.route = [LatLng(), LatLng()]
        #expect(try Trip.unknownFieldLocations(in: trip.serializedBytes()).isEmpty)
        #expect(throws: CodecError.self) { try Trip.unknownFieldLocations(in: hexBytes("0a05 61")) }
        // pickup_point { point { latitude with 2 of its 8 bytes } }
        do {
            _ = try Trip.unknownFieldLocations(in: hexBytes("2a05 0a03 090000"))
            Issue.record("a truncated double was read")
        } catch {
            #expect(error.code == .truncated)
            #expect(error.fieldPath == "maps.fleetengine.v1.Trip.pickup_point.point")
            #expect(error.byteOffset == 5)
        }
    }
}
