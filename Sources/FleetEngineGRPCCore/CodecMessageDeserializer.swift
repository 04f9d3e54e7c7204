public import FleetEngineCodec
public import GRPCCore

/// A grpc-swift `MessageDeserializer` that reads a message of this package with its protobuf-c codec.
///
/// A message that does not decode fails the call with INTERNAL, as gRPC reports a message it
/// cannot parse (gRPC's `doc/statuscodes.md`); the `RPCError`'s message names the message type
/// and the codec's fault with where it is, and its cause is the `CodecError`.
public struct CodecMessageDeserializer<Message: ProtobufMessage>: MessageDeserializer {
    /// A deserializer for `Message`.
    public init() {}

    /// The message decoded from its protobuf binary encoding.
    ///
    /// - Throws: `RPCError` with code INTERNAL when the bytes are not a valid `Message`.
    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
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
