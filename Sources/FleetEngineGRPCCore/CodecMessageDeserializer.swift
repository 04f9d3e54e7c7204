public import FleetEngineCodec
public import GRPCCore

/// A grpc-swift `MessageDeserializer` that reads a message of this package with its protobuf-c codec.
///
/// A message that does not decode fails the call with INTERNAL, as gRPC reports a message it
/// cannot parse (gRPC's `doc/statuscodes.md`); one that would take more memory than
/// `DecodingOptions.maxDecodedSize` fails it with RESOURCE_EXHAUSTED, as gRPC fails a message over
/// its size limit. The `RPCError`'s message names the message type and the codec's fault with
/// where it is, and its cause is the `CodecError`.
public struct CodecMessageDeserializer<Message: ProtobufMessage>: MessageDeserializer {
    /// The limits each message is decoded within.
    public let options: DecodingOptions

    /// A deserializer for `Message`, decoding within `options` (by default the codec's defaults).
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// The message decoded from its protobuf binary encoding.
    ///
    /// - Throws: `RPCError` with code RESOURCE_EXHAUSTED when the message would take more memory
    ///   than ``options`` allow, INTERNAL when the bytes are not a valid `Message`.
    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        let options = self.options
        let result: Result<Message, CodecError> = serializedMessageBytes.withUnsafeBytes { buffer in
            Result { () throws(CodecError) -> Message in try Message(serializedBytes: buffer, options: options) }
        }
        switch result {
        case .success(let message):
            return message
        case .failure(let error):
            throw RPCError(
                code: error.code == .resourceExhausted ? .resourceExhausted : .internalError,
                message: "\(Message.protoMessageName) could not be decoded: \(error)",
                cause: error)
        }
    }
}
