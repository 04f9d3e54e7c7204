import FleetEngineCodec
import GRPCCore

/// grpc-swift's serializer, writing messages with our protobuf-c codec.
struct CodecSerializer<Message: ProtobufMessage>: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(message.serializedBytes())
    }
}

/// grpc-swift's deserializer, reading messages with our protobuf-c codec.
///
/// A message that does not decode fails the call with INTERNAL, as gRPC reports a message it
/// cannot parse (doc/statuscodes.md), naming the codec's fault and where it is.
struct CodecDeserializer<Message: ProtobufMessage>: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        let result: Result<Message, CodecError> = serializedMessageBytes.withUnsafeBytes { buffer in
            Result { () throws(CodecError) -> Message in try Message(serializedBytes: buffer) }
        }
        switch result {
        case .success(let message):
            return message
        case .failure(let error):
            throw RPCError(
                code: .internalError, message: "\(Message.protoMessageName) could not be decoded: \(error)",
                cause: error)
        }
    }
}
