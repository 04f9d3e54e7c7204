import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// A field may be named in JSON by its lowerCamelCase name or its .proto name. When one object
/// names the same field both ways, Google's Python `json_format.Parse` (protobuf 7.36, upb) takes
/// each appearance in turn as it takes any field: a later list or map replaces the earlier one,
/// a later message is merged into the earlier one, a later scalar replaces it, and a `null` clears
/// the field. Every expected text below is what `json_format.MessageToJson` printed after `Parse`
/// of the input (compacted), and the bytes what `SerializeToString` gave.
@Suite("proto3 JSON: a field named by both its names in one object")
struct JSONFieldUnderBothNamesTests {
    @Test(
        "a Trip reads as Google's parser reads it",
        arguments: [
            (
                #"{"remainingWaypoints":[{"tripId":"a"},{"tripId":"c"}],"remaining_waypoints":[{"tripId":"b"}]}"#,
                #"{"remainingWaypoints":[{"tripId":"b"}]}"#, "820103120162"
            ),
            (
                #"{"pickupPoint":{"point":{"latitude":1}},"pickup_point":{"point":{"longitude":2}}}"#,
                #"{"pickupPoint":{"point":{"latitude":1.0,"longitude":2.0}}}"#,
                "2a140a1209000000000000f03f110000000000000040"
            ),
            (#"{"vehicleId":"a","vehicle_id":null}"#, "{}", ""),
            (#"{"tripType":"SHARED","trip_type":null}"#, "{}", ""),
            (#"{"numberOfPassengers":3,"number_of_passengers":null}"#, "{}", ""),
            (#"{"pickupPoint":{"point":{"latitude":1}},"pickup_point":null}"#, "{}", ""),
            (#"{"remainingWaypoints":[{"tripId":"a"}],"remaining_waypoints":null}"#, "{}", ""),
            (#"{"remainingDistanceMeters":5,"remaining_distance_meters":null}"#, "{}", ""),
            (
                #"{"remainingDistanceMeters":5,"remaining_distance_meters":7}"#, #"{"remainingDistanceMeters":7}"#,
                "62020807"
            ),
            (
                #"{"pickupTime":"2020-01-01T00:00:00Z","pickup_time":"2021-01-01T00:00:00.500Z"}"#,
                #"{"pickupTime":"2021-01-01T00:00:00.500Z"}"#, "320c0880ccb9ff051080cab5ee01"
            ),
        ])
    func trip(input: String, json: String, hex: String) throws {
        let trip = try Trip(jsonString: input)
        #expect(try trip.jsonString() == json)
        #expect(trip.serializedBytes() == hexBytes(hex))
    }

    @Test(
        "a oneof member cleared by null under its other name leaves the oneof unset; another member's null leaves it",
        arguments: [
            (#"{"key":"k","stringValue":"x","string_value":null}"#, #"{"key":"k"}"#, "0a016b"),
            (#"{"key":"k","stringValue":"x","boolValue":null}"#, #"{"key":"k","stringValue":"x"}"#, "0a016b120178"),
            (#"{"stringValue":null,"boolValue":true}"#, #"{"boolValue":true}"#, "1801"),
        ])
    func oneof(input: String, json: String, hex: String) throws {
        let attribute = try TripAttribute(jsonString: input)
        #expect(try attribute.jsonString() == json)
        #expect(attribute.serializedBytes() == hexBytes(hex))
    }

    @Test("a oneof member set under both names is two members of the oneof, refused as Google's parser refuses it")
    func oneofTwice() {
        #expect(throws: CodecError.self) {
            _ = try TripAttribute(jsonString: #"{"key":"k","stringValue":"x","string_value":"y"}"#)
        }
    }

    @Test(
        "a map under its other name replaces the first, and null clears it",
        arguments: [
            (#"{"quotaDimensions":{"a":"1"},"quota_dimensions":{"b":"2"}}"#, #"{"quotaDimensions":{"b":"2"}}"#),
            (#"{"quotaDimensions":{"a":"1"},"quota_dimensions":null}"#, "{}"),
        ])
    func map(input: String, json: String) throws {
        #expect(try QuotaFailure.Violation(jsonString: input).jsonString() == json)
    }
}
