import ArgumentParser
import FleetEngineCodec
import FleetTripsInput

/// `fleettrips encode`: proto3 JSON in, protobuf binary out.
struct EncodeCommand: AsyncParsableCommand {
    /// The command's name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write proto3 JSON as binary protobuf.",
        discussion: """
            The input is one JSON message, or with --grpc-frames one JSON message per line, \
            written as a stream of gRPC length-prefixed messages (compressed with --encoding \
            gzip or deflate). Raw bytes go to standard output unless --base64 or --hex is given.
            """
    )

    /// `--type`: the message type.
    @OptionGroup var messageType: MessageTypeOptions

    /// How the binary is written.
    @Flag var outputForm: BinaryForm = .raw

    /// `--grpc-frames` and `--encoding`.
    @OptionGroup var framing: FramingOptions

    /// Skip JSON members that name no field.
    @Flag(name: .customLong("ignore-unknown-fields"), help: "Skip JSON members that name no field of the type.")
    var ignoreUnknownFields = false

    /// The input file; `-` is standard input.
    @Argument(help: ArgumentHelp("The JSON input; - or nothing reads standard input.", valueName: "file"))
    var file: String = "-"

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// The library type that does this command's work, configured from its arguments.
    func makeEncoder() throws -> MessageEncoder {
        MessageEncoder(
            messageType: try messageType.messageType,
            outputForm: outputForm,
            framing: framing.framing,
            jsonOptions: JSONDecodingOptions(ignoringUnknownFields: ignoreUnknownFields))
    }

    /// Encodes `input` as the arguments say and writes the binary to `output`.
    func run(input: [UInt8], output: inout some ByteSink) throws {
        try makeEncoder().run(input: input, output: &output)
    }

    /// Runs the command on its input, writing to standard output.
    func run() async throws {
        var output = StandardOutput()
        try makeEncoder().run(file: InputFile(path: file), output: &output)
    }
}
