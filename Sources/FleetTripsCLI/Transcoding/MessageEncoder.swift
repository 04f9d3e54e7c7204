import FleetEngineCodec
import FleetEngineWire
import FleetTripsInput

/// Reads proto3 JSON, one message or one message per line, and writes protobuf binary, one
/// message or a stream of gRPC length-prefixed messages: the work of `fleettrips encode`.
struct MessageEncoder: Sendable {
    /// The type every message is parsed as.
    var messageType: any ProtobufMessage.Type
    /// How the binary is written.
    var outputForm: BinaryForm
    /// One message, or a gRPC stream and its `grpc-encoding` (every message is then compressed).
    var framing: Framing
    /// How the JSON is parsed.
    var jsonOptions: JSONDecodingOptions

    /// An encoder with the given settings.
    init(
        messageType: any ProtobufMessage.Type,
        outputForm: BinaryForm = .raw,
        framing: Framing = .single,
        jsonOptions: JSONDecodingOptions = JSONDecodingOptions()
    ) {
        self.messageType = messageType
        self.outputForm = outputForm
        self.framing = framing
        self.jsonOptions = jsonOptions
    }

    /// The most JSON one message may come in: a message the server takes is at most 4 MiB of
    /// binary, well under this much JSON however it is spaced.
    static let maxMessageJSONBytes = 64 << 20
    /// The most JSON a gRPC stream's lines may come in together, all held until every one parsed.
    static let maxStreamJSONBytes = 1 << 30

    /// The most input ``run(file:output:)`` reads: ``maxMessageJSONBytes`` for one message,
    /// ``maxStreamJSONBytes`` for a gRPC stream.
    var inputLimit: Int {
        guard case .single = framing else { return Self.maxStreamJSONBytes }
        return Self.maxMessageJSONBytes
    }

    /// Reads `file` and encodes it as ``run(input:output:)`` does, refusing an input over
    /// ``inputLimit`` after reading just past it (so `/dev/zero` is refused, not held).
    ///
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` for an input over the limit, and what
    ///   ``run(input:output:)`` and ``InputFile/readAll(atMost:)`` throw.
    func run(file: InputFile, output: inout some ByteSink) throws(FleetTripsError) {
        let limit = inputLimit
        let input = try file.readAll(atMost: limit)
        guard input.count <= limit else {
            let what = inputLimit == Self.maxMessageJSONBytes ? "one message's JSON" : "a stream's JSON lines together"
            throw FleetTripsError(
                code: .invalidMessage,
                message: "\(file.displayName) is over \(limit) bytes, more than \(what) may be")
        }
        try run(input: input, output: &output)
    }

    /// Parses `input` and writes the binary to `output`.
    ///
    /// For a single message the whole input is one JSON text (it may span lines). For gRPC
    /// frames each non-blank line is one JSON text. Nothing is written unless every message
    /// parses, so a failure never leaves half a binary stream behind.
    ///
    /// - Throws: ``FleetTripsError`` saying which line failed and why.
    func run(input: [UInt8], output: inout some ByteSink) throws(FleetTripsError) {
        switch framing {
        case .single:
            try output.write(outputForm.output(for: binary(for: input[...], context: "the input")))
        case .grpcFrames(let encoding):
            let framer = GRPCMessageFramer(encoding: encoding)
            var stream: [UInt8] = []
            var lineNumber = 0
            for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                guard line.contains(where: { !TextInput.isWhitespace($0) }) else { continue }
                let payload = try binary(for: line, context: "line \(lineNumber)")
                do {
                    try framer.frame(payload, into: &stream)
                } catch {
                    throw FleetTripsError(
                        code: .invalidFraming, message: "cannot frame the message of line \(lineNumber)", cause: error)
                }
            }
            try output.write(outputForm.output(for: stream))
        }
    }

    private func binary(for json: ArraySlice<UInt8>, context: String) throws(FleetTripsError) -> [UInt8] {
        do {
            return try messageType.init(jsonUTF8Bytes: json, options: jsonOptions).serializedBytes()
        } catch {
            throw FleetTripsError(
                code: .invalidMessage,
                message: "cannot parse \(context) as \(messageType.protoMessageName) JSON",
                cause: error)
        }
    }
}
