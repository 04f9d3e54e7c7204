public import FleetEngineCodec
public import GRPCCore

/// A grpc-swift `MessageSerializer` that writes a message of this package with its protobuf-c codec.
///
/// With ``CodecMessageDeserializer`` it lets grpc-swift-2 clients and servers of your own carry
/// the Fleet Engine messages of `FleetEngineCodec` (a `Trip`, a `GetTripRequest`, ...) without
/// SwiftProtobuf:
///
/// ```swift
/// let getTrip = MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.TripService", method: "GetTrip")
/// let trip = try await client.unary(
///     request: ClientRequest(message: request), descriptor: getTrip,
///     serializer: CodecMessageSerializer<GetTripRequest>(),
///     deserializer: CodecMessageDeserializer<Trip>(),
///     options: .defaults
/// ) { try $0.message }
/// ```
public struct CodecMessageSerializer<Message: ProtobufMessage>: MessageSerializer {
    /// A serializer for `Message`.
    public init() {}

    /// The message's protobuf binary encoding, as grpc-swift's bytes.
    public func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(message.serializedBytes())
    }
}
