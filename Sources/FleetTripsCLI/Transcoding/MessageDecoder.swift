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

    /// Reads `file` and decodes it as ``run(input:output:)`` does. One message is refused when its
    /// input is over ``inputLimit``, before more than that is held; a gRPC stream is read a piece at
    /// a time and each message written as soon as it is complete, so a stream of any length takes
    /// the memory of one message.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` for an input over the limit, and what
    ///   ``run(input:output:)`` and ``InputFile/readAll(atMost:)`` throw.
    public func run(file: InputFile, output: inout some ByteSink) throws(FleetTripsError) {
        guard let limit = inputLimit else {
            try decodeStream(into: &output) { (take) throws(FleetTripsError) in
                do {
                    try file.readChunks(chunkSize: 64 * 1024) { try take($0) }
                } catch let error as FleetTripsError {
                    throw error
                } catch {
                    throw FleetTripsError(
                        code: .unreadableInput, message: "cannot read \(file.displayName)", cause: error)
                }
            }
            return
        }
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
        guard case .grpcFrames = framing else {
            try output.write(json(for: inputForm.bytes(from: input), context: "the input"))
            return
        }
        try decodeStream(into: &output) { (take) throws(FleetTripsError) in try take(input[...]) }
    }

    /// Decodes a gRPC stream that `pieces` hands over a piece at a time (through the function it
    /// is given), writing each message's line as soon as the message is complete.
    private func decodeStream(
        into output: inout some ByteSink,
        pieces: ((ArraySlice<UInt8>) throws(FleetTripsError) -> Void) throws(FleetTripsError) -> Void
    ) throws(FleetTripsError) {
        let encoding: MessageEncoding
        if case .grpcFrames(let streamEncoding) = framing { encoding = streamEncoding } else { encoding = .identity }
        var reader = FramedMessageReader(
            form: inputForm, maxMessageSize: decodingOptions.maxMessageSize, encoding: encoding)
        func line(_ payload: [UInt8], _ number: Int, _ offset: Int) throws(FleetTripsError) {
            try output.write(json(for: payload, context: "message \(number) (frame at stream offset \(offset))"))
        }
        func take(_ piece: ArraySlice<UInt8>) throws(FleetTripsError) {
            try reader.read(piece, line)
        }
        try pieces(take)
        try reader.finish(line)
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
}
