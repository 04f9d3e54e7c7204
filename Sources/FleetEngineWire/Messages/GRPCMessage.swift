/// One gRPC Length-Prefixed-Message, as it travels in the DATA frames of a call.
///
/// On the wire (gRPC PROTOCOL-HTTP2, "Length-Prefixed-Message") it is a 1-byte Compressed-Flag,
/// a 4-byte big-endian Message-Length and that many bytes of Message. This value holds the flag
/// and the bytes; the length is the payload's count.
public struct GRPCMessage: Hashable, Sendable {
    /// Whether the payload is compressed with the stream's `grpc-encoding` (Compressed-Flag 1)
    /// or sent as is (Compressed-Flag 0).
    public var isCompressed: Bool
    /// The Message bytes: a serialized protobuf, or its compressed form when ``isCompressed``.
    public var payload: [UInt8]

    /// A message with the given flag and payload.
    public init(isCompressed: Bool = false, payload: [UInt8]) {
        self.isCompressed = isCompressed
        self.payload = payload
    }

    /// The size of the prefix before every payload: the flag byte and the 4-byte length.
    public static let prefixLength = 5
}

extension GRPCMessage {
    /// The serialized protobuf this message carries, decompressed if it is flagged compressed.
    ///
    /// gRPC PROTOCOL-HTTP2: a Compressed-Flag of 1 means the Message is compressed with the
    /// mechanism the `grpc-encoding` header declares; a flag of 0 means it is not, whatever that
    /// header says.
    ///
    /// - Parameters:
    ///   - encoding: The stream's `grpc-encoding`; `identity` when the header is absent.
    ///   - maxSize: The most bytes the payload may decompress to.
    ///   - byteOffset: Where the message starts in its stream, for the error.
    /// - Throws: ``WireError/Code/compressedWithoutEncoding`` for a compressed message under
    ///   `identity`, and what ``MessageEncoding/decompress(_:maxSize:byteOffset:)`` throws.
    public func decompressedPayload(
        encoding: MessageEncoding,
        maxSize: Int = GRPCMessageDeframer.defaultMaxMessageSize,
        byteOffset: Int? = nil
    ) throws(WireError) -> [UInt8] {
        guard isCompressed else { return payload }
        guard encoding != .identity else {
            throw WireError(
                code: .compressedWithoutEncoding,
                message: "message of \(payload.count) bytes is flagged compressed, but the grpc-encoding is identity",
                byteOffset: byteOffset)
        }
        return try encoding.decompress(payload, maxSize: maxSize, byteOffset: byteOffset)
    }
}
