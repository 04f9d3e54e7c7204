/// Writes messages in gRPC's length-prefixed framing, compressing them when asked.
///
/// The framing is gRPC PROTOCOL-HTTP2 "Length-Prefixed-Message": a Compressed-Flag byte, a
/// 4-byte big-endian Message-Length, then the Message. One framer serves one direction of one
/// call, whose `grpc-encoding` is ``encoding``; each message may still be sent uncompressed
/// (gRPC compression.md allows compression to be turned off per message).
public struct GRPCMessageFramer: Sendable {
    /// The `grpc-encoding` this direction of the call declares.
    public let encoding: MessageEncoding

    /// A framer for a stream whose `grpc-encoding` is `encoding`.
    public init(encoding: MessageEncoding = .identity) {
        self.encoding = encoding
    }

    /// Frames one serialized message.
    ///
    /// - Parameters:
    ///   - payload: The serialized protobuf.
    ///   - compress: Whether to compress it with ``encoding``. Under `identity` nothing is
    ///     compressed and the flag stays 0 either way.
    /// - Returns: The prefix followed by the payload, compressed or not.
    /// - Throws: ``WireError/Code/unsupportedEncoding`` when asked to compress with an encoding
    ///   this library does not implement; ``WireError/Code/messageTooLarge`` when the message
    ///   does not fit the 32-bit Message-Length.
    public func frame(_ payload: some Collection<UInt8>, compress: Bool = true) throws(WireError) -> [UInt8] {
        var output: [UInt8] = []
        try frame(payload, compress: compress, into: &output)
        return output
    }

    /// Frames one serialized message onto the end of `output`, as ``frame(_:compress:)`` does.
    public func frame(
        _ payload: some Collection<UInt8>,
        compress: Bool = true,
        into output: inout [UInt8]
    ) throws(WireError) {
        let isCompressed = compress && encoding != .identity
        if isCompressed {
            try append(encoding.compress(payload), isCompressed: true, to: &output)
        } else {
            try append(payload, isCompressed: false, to: &output)
        }
    }

    private func append(
        _ message: some Collection<UInt8>,
        isCompressed: Bool,
        to output: inout [UInt8]
    ) throws(WireError) {
        let length = message.count
        guard length <= Int(UInt32.max) else {
            throw WireError(
                code: .messageTooLarge,
                message: "message of \(length) bytes does not fit the 4-byte Message-Length")
        }
        output.reserveCapacity(output.count + GRPCMessage.prefixLength + length)
        output.append(isCompressed ? 1 : 0)
        for shift in stride(from: 24, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: length >> shift))
        }
        output.append(contentsOf: message)
    }
}
