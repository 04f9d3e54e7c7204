import ArgumentParser
import FleetEngineStatus
import FleetTripsInput

/// `fleettrips status`: what a gRPC status means for a client of Fleet Engine, and what to do.
struct StatusCommand: AsyncParsableCommand {
    /// The command's name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Explain a gRPC status: what it means, what to do, whether a retry can help, its details.",
        usage: "fleettrips status [<code>] [--http <http-status>] [--details-bin <base64>] [--json]",
        discussion: """
            Give the status as a code (14) or its name (UNAVAILABLE, any case), as --http with the \
            HTTP status of a response that came without grpc-status (explained as the code gRPC maps \
            it to), or as --details-bin with a grpc-status-details-bin value, alone (the code of its \
            google.rpc.Status is explained) or with a code or --http (that code is explained).

            With --json, one JSON object on one line: "code" (the number), "name" (the canonical \
            name, or null for a number gRPC does not define), "family" (server-network, client, \
            conflict, service-fault or success), "summary", "meaning", "recoverySuggestion" (what \
            to do), "retryable" (whether sending the same request again can succeed), "retryDelay" \
            (the wait a RetryInfo detail asks for, as "1.500s"; only with one), "httpStatus" (the \
            HTTP status of the Google Cloud error model for the code), "httpStatusIn" (with --http: \
            the HTTP status given), and with --details-bin "message" (the google.rpc.Status's \
            message) and "details" (each detail as proto3 JSON of a google.protobuf.Any: "@type" \
            and its fields; for a detail this tool cannot decode, "@type", "value" in base64 and \
            "decodingError", why).
            """
    )

    /// The code, as a number or a name, as the only element; anything else is an error.
    ///
    /// Every input ArgumentParser does not recognize lands here, so that `status -1` is reported as
    /// a negative code (a plain optional argument would see `-1` as an unknown option and drop it).
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "A gRPC status code (0 to 16; other numbers are explained as UNKNOWN) or its name, e.g. 14 or "
                + "UNAVAILABLE.",
            valueName: "code"))
    var codeArguments: [String] = []

    /// The code argument, if one was given.
    var code: String? { codeValues.first }

    /// ``codeArguments`` without the `--` that ends the options.
    private var codeValues: [String] {
        guard let terminator = codeArguments.firstIndex(of: "--") else { return codeArguments }
        var values = codeArguments
        values.remove(at: terminator)
        return values
    }

    /// The HTTP status of a response without `grpc-status`.
    @Option(
        name: .customLong("http"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Explain the code gRPC gives a response with this HTTP status and no grpc-status (429 -> UNAVAILABLE).",
            valueName: "http-status"))
    var httpStatus: Int?

    /// A `grpc-status-details-bin` value.
    @Option(
        name: .customLong("details-bin"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "A grpc-status-details-bin value: base64 (standard or URL-safe, padded or not) of a google.rpc.Status, "
                + "whose details are decoded.",
            valueName: "base64"))
    var detailsBin: String?

    /// Print JSON instead of text.
    @Flag(help: "Print one JSON object on one line instead of text (see the fields above).")
    var json = false

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a code that is not one, both a code and `--http`, none of the three forms, an HTTP
    /// status out of range, and a `--details-bin` that is empty or not a `google.rpc.Status`.
    func validate() throws {
        let options = codeArguments.prefix { $0 != "--" }
        if let option = options.first(where: { $0.hasPrefix("-") && !StatusCode.isNegativeNumber($0) }) {
            throw ValidationError("Unknown option '\(option)'")
        }
        if codeValues.count > 1 {
            throw ValidationError("Unexpected argument '\(codeValues[1])'; give one status code")
        }
        if let httpStatus, !(100...599).contains(httpStatus) {
            throw ValidationError("--http \(httpStatus) is not an HTTP status; give a number from 100 to 599")
        }
        // An empty value reads as an empty google.rpc.Status, code OK: an unset "$DETAILS_BIN" would
        // be explained as a call that succeeded.
        if let detailsBin, detailsBin.allSatisfy(\.isWhitespace) {
            throw ValidationError("--details-bin is empty; give the grpc-status-details-bin value (base64)")
        }
        do {
            _ = try makeExplanation()
        } catch let error as FleetTripsError {
            throw ValidationError(error.description)
        }
    }

    /// The library value that holds this command's answer, built from its arguments.
    func makeExplanation() throws -> StatusExplanation {
        if code != nil, httpStatus != nil {
            throw ValidationError("give a status code or --http, not both")
        }
        let statusCode = try code.map(StatusCode.parsingArgument)
        if let detailsBin {
            return try StatusExplanation(code: statusCode, httpStatus: httpStatus, grpcStatusDetailsBin: detailsBin)
        }
        if let statusCode { return StatusExplanation(code: statusCode) }
        if let httpStatus { return StatusExplanation(httpStatus: httpStatus) }
        throw ValidationError("give a status code (14 or UNAVAILABLE), --http <http-status> or --details-bin <base64>")
    }

    /// Writes the explanation, as text or JSON, and a line feed to `output`.
    func run(output: inout some ByteSink) throws {
        let explanation = try makeExplanation()
        try output.write(Array(((json ? explanation.json : explanation.text) + "\n").utf8))
    }

    /// Runs the command, writing to standard output.
    func run() async throws {
        var output = StandardOutput()
        try run(output: &output)
    }
}
