import FleetEngineCodec
import FleetEngineWire

/// Reads protobuf binary, one message or a stream of gRPC length-prefixed messages, and writes
/// each message as proto3 JSON on a line of its own: the work of `fleettrips decode`.
public struct MessageDecoder: Sendable {
    /// The type every message is decoded as.
    public var messageType: any ProtobufMessage.Type
    /// How the binary appears in the input.
    public var inputForm: BinaryForm
    /// One message, or a gRPC stream and its `grpc-encoding`.
    public var framing: Framing
    /// How the JSON is printed.
    public var jsonOptions: JSONEncodingOptions
    /// Limits for each message (its size, before and after decompression, and its nesting).
    public var decodingOptions: DecodingOptions

    /// A decoder with the given settings.
    public init(
        messageType: any ProtobufMessage.Type,
        inputForm: BinaryForm = .raw,
        framing: Framing = .single,
        jsonOptions: JSONEncodingOptions = JSONEncodingOptions(),
        decodingOptions: DecodingOptions = DecodingOptions()
    ) {
        self.messageType = messageType
        self.inputForm = inputForm
        self.framing = framing
        self.jsonOptions = jsonOptions
        self.decodingOptions = decodingOptions
    }

    /// The most input one message can come in, when the input is one message: its size limit in
    /// raw bytes, or four times that (and 64 KiB) as base64 or hex text with whitespace. Nil for a
    /// gRPC stream, which may hold any number of messages.
    public var inputLimit: Int? {
        guard case .single = framing else { return nil }
        let max = decodingOptions.maxMessageSize
        return inputForm == .raw ? max : 4 * max + 64 * 1024
    }

    /// Reads one message's worth of `file` (all of it for a stream) and decodes it as ``run(input:output:)``
    /// does, refusing an input over ``inputLimit`` before holding more of it than that.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` for an input over the limit, and what
    ///   ``run(input:output:)`` and ``InputFile/readAll(atMost:)`` throw.
    public func run(file: InputFile, output: inout some ByteSink) throws(FleetTripsError) {
        let limit = inputLimit ?? .max
        let input = try file.readAll(atMost: limit)
        guard input.count <= limit else {
            throw FleetTripsError(
                code: .invalidMessage,
                message: "\(file.displayName) is over \(limit) bytes, more than one \(messageType.protoMessageName) "
                    + "of at most \(decodingOptions.maxMessageSize) bytes can take as \(inputForm.rawValue) input")
        }
        try run(input: input, output: &output)
    }

    /// Decodes `input` and writes one JSON text and a line feed per message to `output`.
    ///
    /// In a gRPC stream, the messages before a fault are written before the error is thrown,
    /// so the output shows how far the stream was good.
    ///
    /// - Throws: ``FleetTripsError`` saying which message failed and why.
    public func run(input: [UInt8], output: inout some ByteSink) throws(FleetTripsError) {
        let binary = try inputForm.bytes(from: input)
        switch framing {
        case .single:
            try output.write(json(for: binary, context: "the input"))
        case .grpcFrames(let encoding):
            try decodeStream(binary, encoding: encoding, output: &output)
        }
    }

    private func decodeStream(
        _ stream: [UInt8],
        encoding: MessageEncoding,
        output: inout some ByteSink
    ) throws(FleetTripsError) {
        var deframer = GRPCMessageDeframer(maxMessageSize: decodingOptions.maxMessageSize, encoding: encoding)
        deframer.append(stream)
        var number = 0
        while true {
            let payload: [UInt8]?
            let offset = deframer.nextMessageOffset
            do {
                payload = try deframer.nextPayload()
            } catch {
                throw framingFailure(error, message: number + 1, offset: offset)
            }
            guard let payload else { break }
            number += 1
            try output.write(json(for: payload, context: "message \(number) (frame at stream offset \(offset))"))
        }
        do {
            try deframer.finish()
        } catch {
            throw framingFailure(error, message: number + 1, offset: deframer.nextMessageOffset)
        }
    }

    private func json(for binary: [UInt8], context: String) throws(FleetTripsError) -> [UInt8] {
        do {
            let message = try messageType.init(serializedBytes: binary, options: decodingOptions)
            return try message.jsonUTF8Bytes(options: jsonOptions) + [UInt8(ascii: "\n")]
        } catch {
            throw FleetTripsError(
                code: .invalidMessage,
                message: "cannot decode \(context) as \(messageType.protoMessageName)",
                cause: error)
        }
    }

    private func framingFailure(_ error: WireError, message number: Int, offset: Int) -> FleetTripsError {
        var text = "cannot read message \(number) of the gRPC stream"
        if error.code == .compressedWithoutEncoding {
            text += " (pass --encoding gzip or --encoding deflate for compressed messages)"
        }
        return FleetTripsError(code: .invalidFraming, message: text, cause: error)
    }
}
