import FleetEngineCodec
import FleetEngineGRPCCore
import GRPCCore
import Testing

@Suite("CodecMessageSerializer and CodecMessageDeserializer")
struct CodecMessageSerializationTests {
    static var trip: Trip {
        var trip = Trip()
        trip.name = "providers/fleet-demo/trips/trip-1"
        trip.vehicleID = "vehicle-7"
        trip.numberOfPassengers = 2
        return trip
    }

    @Test func serializerWritesTheCodecsBytes() throws {
        let bytes: [UInt8] = try CodecMessageSerializer<Trip>().serialize(Self.trip)
        #expect(bytes == Self.trip.serializedBytes())
    }

    @Test func deserializerReadsWhatTheSerializerWrote() throws {
        let bytes: [UInt8] = try CodecMessageSerializer<Trip>().serialize(Self.trip)
        let trip = try CodecMessageDeserializer<Trip>().deserialize(bytes)
        #expect(trip == Self.trip)
    }

    /// A length-delimited field (2, vehicle_id) whose length runs past the end of the message.
    @Test func malformedBytesAreInternalWithTheCodecErrorAsCause() throws {
        let bytes: [UInt8] = [0x12, 0x09, 0x76]
        let error = try #require(throws: RPCError.self) {
            try CodecMessageDeserializer<Trip>().deserialize(bytes)
        }
        #expect(error.code == .internalError)
        #expect(error.message.hasPrefix("maps.fleetengine.v1.Trip could not be decoded: "))
        let cause = try #require(error.cause as? CodecError)
        #expect(cause.code == .lengthPastEnd)
    }
}
