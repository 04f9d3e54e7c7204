import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

@Suite("Binary encoding and decoding through protobuf-c")
struct BinaryRoundTripTests {
    @Test("a trip encodes to the exact protobuf bytes, known fields in field-number order")
    func tripEncodesExactly() {
        var trip = Trip()
        trip.name = "providers/p/trips/t1"
        trip.tripStatus = .enrouteToPickup
        trip.numberOfPassengers = 2
        trip.remainingDistanceMeters = 1500
        let name = "0a14" + "70726f7669646572732f702f74726970732f7431"
        #expect(hexString(trip.serializedBytes()) == name + "1802" + "5002" + "620308dc0b")
    }

    @Test("decoding what was encoded gives the same value back")
    func roundTrip() throws {
        var trip = Trip()
        trip.name = "providers/p/trips/t1"
        trip.vehicleID = "vehicle-9"
        trip.tripStatus = .arrivedAtIntermediateDestination
        trip.tripType = .shared
        var pickup = TerminalLocation()
        pickup.point = LatLng()
        pickup.point?.latitude = 37.7749
        pickup.point?.longitude = -122.4194
        trip.pickupPoint = pickup
        trip.route = (0..<5).map { index in
            var point = LatLng()
            point.latitude = 37 + Double(index) / 100
            point.longitude = -122 - Double(index) / 100
            return point
        }
        var eta = Timestamp()
        eta.seconds = 1_795_000_000
        eta.nanos = 500_000_000
        trip.etaToFirstWaypoint = eta
        var location = VehicleLocation()
        location.heading = 270
        location.speed = 12.5
        location.isRoadSnapped = true
        trip.lastLocation = location
        var attribute = TripAttribute()
        attribute.key = "accessible"
        attribute.tripAttributeValue = .boolValue(true)
        trip.attributes = [attribute]
        let decoded = try Trip(serializedBytes: trip.serializedBytes())
        #expect(decoded == trip)
    }

    @Test("an empty message encodes to no bytes and decodes from none")
    func emptyMessage() throws {
        #expect(Trip().serializedBytes() == [])
        #expect(try Trip(serializedBytes: [UInt8]()) == Trip())
    }

    @Test("a string with an embedded NUL byte keeps every byte (protobuf-c alone would cut it)")
    func embeddedNul() throws {
        let trip = try Trip(serializedBytes: hexBytes("0a03 61 00 62"))
        #expect(Array(trip.name.utf8) == [0x61, 0x00, 0x62])
        #expect(trip.serializedBytes() == hexBytes("0a03 61 00 62"))
    }

    @Test("an enum value the schema does not name survives decode and encode")
    func unknownEnumValue() throws {
        let trip = try Trip(serializedBytes: hexBytes("182a"))
        #expect(trip.tripStatus.rawValue == 42)
        #expect(trip.tripStatus.protoName == nil)
        #expect(trip.serializedBytes() == hexBytes("182a"))
    }

    @Test("a negative enum value is sent as a ten-byte varint and comes back the same")
    func negativeEnumValue() throws {
        var trip = Trip()
        trip.tripStatus = TripStatus(rawValue: -1)
        let bytes = trip.serializedBytes()
        #expect(bytes == hexBytes("18ffffffffffffffffff01"))
        #expect(try Trip(serializedBytes: bytes).tripStatus.rawValue == -1)
    }

    @Test("a wrapper set to its default value is present on the wire, unlike a plain scalar")
    func wrapperPresence() throws {
        var trip = Trip()
        trip.remainingDistanceMeters = 0
        trip.numberOfPassengers = 0
        #expect(trip.serializedBytes() == hexBytes("6200"))
        #expect(try Trip(serializedBytes: hexBytes("6200")).remainingDistanceMeters == 0)
        #expect(try Trip(serializedBytes: []).remainingDistanceMeters == nil)
    }

    @Test("a oneof member set to its default value stays set")
    func oneofDefaultPresence() throws {
        var attribute = TripAttribute()
        attribute.tripAttributeValue = .numberValue(0)
        #expect(attribute.serializedBytes() == hexBytes("210000000000000000"))
        #expect(try TripAttribute(serializedBytes: attribute.serializedBytes()).tripAttributeValue == .numberValue(0))
    }

    @Test("an optional field (proto3 `optional`) set to zero keeps its presence")
    func syntheticOptionalPresence() throws {
        var violation = QuotaFailure.Violation()
        violation.futureQuotaValue = 0
        #expect(violation.serializedBytes() == hexBytes("4000"))
        #expect(try QuotaFailure.Violation(serializedBytes: hexBytes("4000")).futureQuotaValue == 0)
        #expect(try QuotaFailure.Violation(serializedBytes: []).futureQuotaValue == nil)
    }

    @Test("map entries are written in key order, so encoding is deterministic")
    func mapsAreSorted() throws {
        var info = ErrorInfo()
        info.metadata = ["tripId": "t1", "providerId": "p"]
        #expect(
            info.serializedBytes() == hexBytes("1a0f0a0a70726f76696465724964120170" + "1a0c0a06747269704964120274 31"))
        #expect(try ErrorInfo(serializedBytes: info.serializedBytes()).metadata == info.metadata)
    }

    @Test("-0.0 is not the default for a double: it is sent and kept")
    func negativeZero() throws {
        var point = LatLng()
        point.latitude = -0.0
        #expect(point.serializedBytes() == hexBytes("090000000000000080"))
        #expect(try LatLng(serializedBytes: point.serializedBytes()).latitude.sign == .minus)
    }

    @Test("a repeated message field and a packed-capable repeated field decode in order")
    func repeatedInOrder() throws {
        let response = try SearchTripsResponse(
            serializedBytes: hexBytes("0a040a026131" + "0a040a026132" + "1203746f6b"))
        #expect(response.trips.map(\.name) == ["a1", "a2"])
        #expect(response.nextPageToken == "tok")
    }

    @Test("a message field sent twice is merged, as protobuf requires")
    func repeatedMessageFieldMerges() throws {
        // pickup_point { trip_id: "a" } then pickup_point { access_point_id: "b" }
        let trip = try Trip(serializedBytes: hexBytes("2a03220161" + "2a031a0162"))
        #expect(trip.pickupPoint?.tripID == "a")
        #expect(trip.pickupPoint?.accessPointID == "b")
    }

    @Test(
        "every message type decodes what it encodes when empty",
        arguments: MessageRegistry.allMessageTypes.map { $0.protoMessageName })
    func everyTypeRoundTripsEmpty(name: String) throws {
        let type = try #require(MessageRegistry.messageType(named: name))
        let empty = type.init()
        #expect(empty.serializedBytes() == [])
        let decoded = try type.init(serializedBytes: [UInt8](), options: DecodingOptions())
        #expect(decoded.serializedBytes() == [])
    }
}
