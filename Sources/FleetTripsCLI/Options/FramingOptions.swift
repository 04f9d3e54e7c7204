import ArgumentParser
import FleetEngineWire

/// `--grpc-frames` and `--encoding`: whether the binary is a stream of gRPC length-prefixed
/// messages, and how those messages are compressed.
struct FramingOptions: ParsableArguments, Sendable {
    /// Whether the binary is a stream of gRPC Length-Prefixed-Messages rather than one message.
    @Flag(
        name: .customLong("grpc-frames"),
        help: "The binary is a stream of gRPC length-prefixed messages (one JSON line per message).")
    var grpcFrames = false

    /// The `grpc-encoding` of the stream, for compressed messages.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The stream's grpc-encoding: identity, gzip or deflate (zlib format). Needs --grpc-frames.",
            valueName: "grpc-encoding"))
    var encoding: String?

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses `--encoding` without `--grpc-frames`, and names this tool cannot decompress.
    func validate() throws {
        guard let encoding else { return }
        guard grpcFrames else {
            throw ValidationError("--encoding applies only to --grpc-frames: single messages are never compressed")
        }
        guard MessageEncoding(rawValue: encoding).isSupported else {
            throw ValidationError(
                "unsupported --encoding '\(encoding)'; supported: "
                    + MessageEncoding.supported.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// The framing the options select.
    var framing: Framing {
        guard grpcFrames else { return .single }
        return .grpcFrames(encoding: encoding.map(MessageEncoding.init(rawValue:)) ?? .identity)
    }
}

/// Whether binary input or output is one message or a stream of gRPC length-prefixed messages.
enum Framing: Hashable, Sendable {
    /// The whole binary is one serialized message.
    case single
    /// A stream of gRPC Length-Prefixed-Messages whose `grpc-encoding` is `encoding`.
    case grpcFrames(encoding: MessageEncoding)
}
