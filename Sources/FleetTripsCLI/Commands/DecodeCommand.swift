import ArgumentParser
import FleetEngineCodec
import FleetTripsInput

/// `fleettrips decode`: protobuf binary in, proto3 JSON out.
struct DecodeCommand: AsyncParsableCommand {
    /// The command's name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print binary protobuf messages as proto3 JSON, one compact object per line.",
        discussion: """
            The input is one serialized message, or with --grpc-frames a stream of gRPC \
            length-prefixed messages (for example the DATA of a captured call), printed one \
            message per line as soon as its frame is complete, so a stream of any length (or one \
            still arriving through a pipe) goes through in the memory of one message. Compressed frames \
            need --encoding. proto3 JSON has no place for fields the type does not define: a message \
            holding any is printed without them, and a note on standard error says how many and where.
            """
    )

    /// `--type`: the message type.
    @OptionGroup var messageType: MessageTypeOptions

    /// How the binary appears in the input.
    @Flag var inputForm: BinaryForm = .raw

    /// `--grpc-frames` and `--encoding`.
    @OptionGroup var framing: FramingOptions

    /// `--max-decoded-size`: the most memory one message may take once decoded.
    @Option(
        name: .customLong("max-decoded-size"),
        help: ArgumentHelp(
            "The most memory, in bytes, one message may take once decoded; a message that needs more is an error.",
            valueName: "bytes"))
    var maxDecodedSize: Int = DecodingOptions.defaultMaxDecodedSize

    /// Indent the JSON.
    @Flag(help: "Indent the JSON, one member per line.")
    var pretty = false

    /// Print the schema's field names instead of lowerCamelCase.
    @Flag(name: .customLong("proto-names"), help: "Print the .proto field names (trip_status) instead of tripStatus.")
    var protoNames = false

    /// The input file; `-` is standard input.
    @Argument(help: ArgumentHelp("The binary input; - or nothing reads standard input.", valueName: "file"))
    var file: String = "-"

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a decoded-size limit that not even an empty message meets, rather than reporting
    /// every message as too large for it.
    func validate() throws {
        guard maxDecodedSize > 0 else {
            throw ValidationError("--max-decoded-size must be a positive number of bytes, not \(maxDecodedSize)")
        }
    }

    /// The library type that does this command's work, configured from its arguments.
    func makeDecoder() throws -> MessageDecoder {
        MessageDecoder(
            messageType: try messageType.messageType,
            inputForm: inputForm,
            framing: framing.framing,
            jsonOptions: JSONEncodingOptions(preservingProtoFieldNames: protoNames, prettyPrinted: pretty),
            decodingOptions: DecodingOptions(maxDecodedSize: maxDecodedSize))
    }

    /// Decodes `input` as the arguments say and writes the JSON lines to `output`, and the notes
    /// about fields the JSON cannot show to `notices`.
    func run(input: [UInt8], output: inout some ByteSink, notices: inout some ByteSink) throws {
        try makeDecoder().run(input: input, output: &output, notices: &notices)
    }

    /// Runs the command on its input, writing to standard output.
    func run() async throws {
        var output = StandardOutput()
        var notices = StandardError()
        try makeDecoder().run(file: InputFile(path: file), output: &output, notices: &notices)
    }
}
