import FleetEngineCodec
import FleetEngineWire
import FleetTripsInput

/// Reads protobuf binary, one message or a stream of gRPC length-prefixed messages, and writes
/// each message as proto3 JSON on a line of its own: the work of `fleettrips decode`.
///
/// proto3 JSON has no place for fields the type's schema does not define (a newer schema's, or
/// another type's): a message that holds any gets a line on the notices sink saying how many and
/// where (``UnknownFieldLocation``), so that leaving them out of the JSON is never silent.
struct MessageDecoder: Sendable {
    /// The type every message is decoded as.
    var messageType: any ProtobufMessage.Type
    /// How the binary appears in the input.
    var inputForm: BinaryForm
    /// One message, or a gRPC stream and its `grpc-encoding`.
    var framing: Framing
    /// How the JSON is printed.
    var jsonOptions: JSONEncodingOptions
    /// Limits for each message (its size, before and after decompression, and its nesting).
    var decodingOptions: DecodingOptions

    /// A decoder with the given settings.
    init(
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
    var inputLimit: Int? {
        guard case .single = framing else { return nil }
        let max = decodingOptions.maxMessageSize
        return inputForm == .raw ? max : 4 * max + 64 * 1024
    }

    /// The most unknown fields one notice names; it counts the rest.
    static let noticedLocations = 3

    /// Reads `file` and decodes it as ``run(input:output:notices:)`` does. One message is refused when its
    /// input is over ``inputLimit``, before more than that is held; a gRPC stream is read a piece at
    /// a time and each message written as soon as it is complete, so a stream of any length takes
    /// the memory of one message.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` for an input over the limit, and what
    ///   ``run(input:output:notices:)`` and ``InputFile/readAll(atMost:)`` throw.
    func run(
        file: InputFile, output: inout some ByteSink, notices: inout some ByteSink
    ) throws(FleetTripsError) {
        guard let limit = inputLimit else {
            try decodeStream(into: &output, notices: &notices) { (take) throws(FleetTripsError) in
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
        try run(input: input, output: &output, notices: &notices)
    }

    /// Decodes `input` and writes one JSON text and a line feed per message to `output`, and a
    /// line to `notices` for each message holding fields the JSON cannot show.
    ///
    /// In a gRPC stream, the messages before a fault are written before the error is thrown,
    /// so the output shows how far the stream was good.
    ///
    /// - Throws: ``FleetTripsError`` saying which message failed and why.
    func run(
        input: [UInt8], output: inout some ByteSink, notices: inout some ByteSink
    ) throws(FleetTripsError) {
        guard case .grpcFrames = framing else {
            try write(inputForm.bytes(from: input), context: "the input", output: &output, notices: &notices)
            return
        }
        try decodeStream(into: &output, notices: &notices) { (take) throws(FleetTripsError) in try take(input[...]) }
    }

    /// Decodes a gRPC stream that `pieces` hands over a piece at a time (through the function it
    /// is given), writing each message's line as soon as the message is complete.
    private func decodeStream(
        into output: inout some ByteSink,
        notices: inout some ByteSink,
        pieces: ((ArraySlice<UInt8>) throws(FleetTripsError) -> Void) throws(FleetTripsError) -> Void
    ) throws(FleetTripsError) {
        let encoding: MessageEncoding
        if case .grpcFrames(let streamEncoding) = framing { encoding = streamEncoding } else { encoding = .identity }
        var reader = FramedMessageReader(
            form: inputForm, maxMessageSize: decodingOptions.maxMessageSize, encoding: encoding)
        func line(_ payload: [UInt8], _ number: Int, _ offset: Int) throws(FleetTripsError) {
            try write(
                payload, context: "message \(number) (frame at stream offset \(offset))", output: &output,
                notices: &notices)
        }
        func take(_ piece: ArraySlice<UInt8>) throws(FleetTripsError) {
            try reader.read(piece, line)
        }
        try pieces(take)
        try reader.finish(line)
    }

    /// Writes the message's JSON line, and its notice when it holds fields the JSON cannot show.
    private func write(
        _ binary: [UInt8], context: String, output: inout some ByteSink, notices: inout some ByteSink
    ) throws(FleetTripsError) {
        let line: [UInt8]
        let unknown: [UnknownFieldLocation]
        do {
            let message = try messageType.init(serializedBytes: binary, options: decodingOptions)
            line = try message.jsonUTF8Bytes(options: jsonOptions) + [UInt8(ascii: "\n")]
            // The scan reads the whole input again; the decoded message says whether it would find anything.
            unknown =
                message.containsUnknownFields
                ? try messageType.unknownFieldLocations(in: binary, options: decodingOptions) : []
        } catch {
            throw FleetTripsError(
                code: .invalidMessage,
                message: "cannot decode \(context) as \(messageType.protoMessageName)",
                cause: error)
        }
        try output.write(line)
        guard !unknown.isEmpty else { return }
        try notices.write(Array(Self.notice(unknown, context: context, type: messageType.protoMessageName).utf8))
    }

    /// `note: message 2 (…) holds 4 fields maps.fleetengine.v1.Trip does not define, which its JSON
    /// cannot show: field 99 of … at byte 3; …; and 1 more`, and a line feed; without `offsets`,
    /// each location is only `field 99 of …`.
    static func notice(
        _ unknown: [UnknownFieldLocation], context: String, type: String, offsets: Bool = true
    ) -> String {
        let count = unknown.count == 1 ? "a field" : "\(unknown.count) fields"
        var text = "note: \(context) holds \(count) \(type) does not define, which its JSON cannot show: "
        text += unknown.prefix(noticedLocations)
            .map { $0.description(withOffset: offsets) }
            .joined(separator: "; ")
        if unknown.count > noticedLocations { text += "; and \(unknown.count - noticedLocations) more" }
        return text + "\n"
    }
}
