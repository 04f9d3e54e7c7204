import ArgumentParser
import FleetEngineAuth
import FleetEngineClient
import FleetEngineWire

/// The options every client command shares: where Fleet Engine is, how to reach it, the token,
/// the deadline, and how failures are reported.
struct ConnectionOptions: ParsableArguments, Sendable {
    /// `host:port` or `[IPv6]:port`.
    @Option(
        help: ArgumentHelp(
            "Where Fleet Engine (or the emulator) listens: host:port, or [IPv6 address]:port.",
            valueName: "host:port"))
    var endpoint = "fleetengine.googleapis.com:443"

    /// Plaintext HTTP/2 instead of TLS.
    @Flag(
        help: ArgumentHelp(
            "Speak plaintext HTTP/2 (h2c), as `fleettrips serve` does by default; otherwise TLS, checked against "
                + "the system's trust roots (or --cacert). To a host that is not loopback, a warning on standard "
                + "error says that the bearer token travels in clear text."))
    var plaintext = false

    /// A PEM file of certificates to trust instead of the system's roots.
    @Option(
        name: [.customLong("cacert"), .customLong("ca-cert")],
        help: ArgumentHelp(
            "Trust the certificates in this PEM file instead of the system's trust roots, e.g. the self-signed "
                + "certificate of `fleettrips serve --tls-cert` (grpcurl's -cacert; --ca-cert is the same option).",
            valueName: "path"))
    var caCert: String?

    /// The host name to check the certificate for, when it is not the endpoint's host.
    @Option(
        help: ArgumentHelp(
            "Check the server's certificate for this host name, and send it as the TLS server name, instead of "
                + "the --endpoint host: e.g. localhost, for --endpoint 127.0.0.1:PORT and a certificate that names "
                + "only localhost. --authority does this too, and also sets :authority.",
            valueName: "host"))
    var serverName: String?

    /// The `:authority` of every call, and over TLS the name the certificate is checked for.
    @Option(
        help: ArgumentHelp(
            "Send this as the :authority of every call (host or host:port; the --endpoint by default) and, over TLS, "
                + "check the server's certificate for its host and send that as the TLS server name, as grpcurl's "
                + "-authority does.",
            valueName: "name"))
    var authority: String?

    /// Request metadata for every call, as `name: value`.
    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp(
            "Send this metadata with every call, as 'name: value' (repeat for more). The name is lower-cased; "
                + "authorization (give the token with a token option), host (use --authority) and names gRPC or "
                + "HTTP/2 reserve (:authority and other pseudo-headers, te, content-type, user-agent, grpc-*, "
                + "x-goog-request-params) are refused. A name ending in -bin takes a base64 value.",
            valueName: "name: value"))
    var headers: [String] = []

    /// A bearer token, as given.
    @Option(
        help: ArgumentHelp(
            "Send this JWT as the bearer token (other users may see it in the process list; prefer --token-file "
                + "or --token-command).",
            valueName: "token"))
    var token: String?

    /// A file that holds the token.
    @Option(help: ArgumentHelp("Send the contents of this file, trimmed, as the bearer token.", valueName: "path"))
    var tokenFile: String?

    /// A command that prints the token.
    @Option(
        help: ArgumentHelp(
            "Run this command with /bin/sh -c and send what it prints on standard output, trimmed, as the bearer "
                + "token, e.g. 'gcloud auth print-access-token'. A non-zero exit status fails the call.",
            valueName: "command"))
    var tokenCommand: String?

    /// A service account key file to mint server tokens with.
    @Option(
        help: ArgumentHelp(
            "Mint server tokens with this service account key file (JSON). Without any token option, the key "
                + "file GOOGLE_APPLICATION_CREDENTIALS names is used, if it names one.",
            valueName: "path"))
    var serviceAccount: String?

    /// Seconds each call may take.
    @Option(help: ArgumentHelp("Seconds each call may take, retries and connecting included.", valueName: "seconds"))
    var deadline = 15.0

    /// Report failures as JSON.
    @Flag(
        help: ArgumentHelp(
            "On failure, write the error to standard error as one JSON object on one line: \"code\", \"name\", "
                + "\"family\", \"message\", \"details\", \"origin\" and the fields `fleettrips status --json` prints."))
    var json = false

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses more than one token option, an empty token or command, a `--token` that cannot be
    /// sent in a header (a control character, a byte outside ASCII: the error names the byte and
    /// its position, never the token), an endpoint that is not `host:port`, TLS options that do not
    /// fit (``validateTLS()``), `--header` metadata that cannot be sent (``requestMetadata()``),
    /// and a deadline that is not a positive number.
    func validate() throws {
        let tokenOptions = [token != nil, tokenFile != nil, tokenCommand != nil, serviceAccount != nil]
        guard tokenOptions.filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --token, --token-file, --token-command and --service-account")
        }
        if serviceAccount?.isEmpty == true { throw ValidationError("--service-account needs a path") }
        if token?.isEmpty == true { throw ValidationError("--token is empty; leave it out to send no token") }
        if let token {
            // Refused here, as a usage error, rather than by every call as UNAUTHENTICATED with
            // advice to mint a fresh token.
            do throws(WireError) {
                _ = try GRPCCheckedMetadataField(name: "authorization", value: token)
            } catch {
                throw ValidationError("--token cannot be sent as a bearer token: \(error.message)")
            }
        }
        if tokenFile?.isEmpty == true { throw ValidationError("--token-file needs a path") }
        if let tokenCommand, tokenCommand.allSatisfy(\.isWhitespace) {
            throw ValidationError("--token-command needs a command")
        }
        _ = try ClientConfiguration.Endpoint.parsingArgument(endpoint)
        try validateTLS()
        _ = try requestMetadata()
        guard deadline > 0, deadline.isFinite, deadline <= Self.longestDeadline else {
            throw ValidationError(
                "--deadline must be a positive number of seconds, at most \(Int(Self.longestDeadline))")
        }
    }

    /// The longest `--deadline`: a day, well past any call and within what `grpc-timeout` can say.
    static let longestDeadline = 86_400.0

    /// Where the token comes from: a token option, else the key file `GOOGLE_APPLICATION_CREDENTIALS`
    /// names, else nowhere.
    var tokenSource: TokenSource {
        if let token { return .literal(token) }
        if let tokenFile { return .file(path: tokenFile) }
        if let tokenCommand { return .command(tokenCommand) }
        if let serviceAccount { return .serviceAccount(path: serviceAccount, origin: "--service-account") }
        let variable = ServiceAccountKey.environmentVariable
        if let path = CommandEnvironment.value(of: variable), !path.isEmpty {
            return .serviceAccount(path: path, origin: variable)
        }
        return .none
    }

    /// The client's configuration: the endpoint, TLS (``transportSecurity()``) unless
    /// `--plaintext`, `--authority`, the `--header` metadata, and `--deadline` as both the call
    /// deadline and the connection time limit.
    func clientConfiguration() throws -> ClientConfiguration {
        var configuration = ClientConfiguration(
            endpoint: try ClientConfiguration.Endpoint.parsingArgument(endpoint),
            transportSecurity: try transportSecurity())
        configuration.authority = authority
        configuration.metadata = try requestMetadata()
        let deadline = Duration.seconds(deadline)
        configuration.defaultDeadline = deadline
        configuration.connectTimeout = min(configuration.connectTimeout, deadline)
        return configuration
    }

    /// The session the command's calls run in; over TLS it appends the connections' secrets to
    /// the file `SSLKEYLOGFILE` names, when it names one (``CommandEnvironment/keyLogFile``).
    func session() throws -> TripServiceSession {
        TripServiceSession(
            configuration: try clientConfiguration(), tokenSource: tokenSource, reportsJSON: json,
            keyLogFile: plaintext ? nil : CommandEnvironment.keyLogFile)
    }
}
