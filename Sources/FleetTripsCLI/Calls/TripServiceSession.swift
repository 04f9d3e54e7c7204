import ArgumentParser
import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import FleetTripsInput

/// One client command's use of Fleet Engine's TripService, and the failure contract every client
/// command keeps.
///
/// On success the command's output is on standard output and the exit status is 0. When the call
/// fails, standard error gets the ``FleetEngineError``, as ``StatusExplanation/failureText`` or,
/// with ``reportsJSON``, as exactly one JSON object on one line (``StatusExplanation/json``:
/// `code`, `name`, `family`, `message`, `details`, `origin` and the rest), and the exit status is
/// 64 plus its code (``CallExitStatus``).
struct TripServiceSession: Sendable {
    /// Where and how to connect, and the deadline of each call.
    var configuration: ClientConfiguration
    /// Where the bearer token comes from.
    var tokenSource: TokenSource
    /// Whether a failure is reported as JSON rather than text.
    var reportsJSON: Bool
    /// The file the secrets of the TLS connections are appended to (`SSLKEYLOGFILE`), if any.
    var keyLogFile: String?
    /// The `warning:` line (without its line feed) that ``run(errorOutput:_:)`` writes first:
    /// ``plaintextWarning(configuration:tokenSource:)`` of the parts the session was made with.
    var plaintextWarning: String?

    /// A session from its parts.
    init(configuration: ClientConfiguration, tokenSource: TokenSource, reportsJSON: Bool, keyLogFile: String? = nil) {
        self.configuration = configuration
        self.tokenSource = tokenSource
        self.reportsJSON = reportsJSON
        self.keyLogFile = keyLogFile
        self.plaintextWarning = Self.plaintextWarning(configuration: configuration, tokenSource: tokenSource)
    }

    /// Runs `body` with a client whose connection lives as long as `body` runs.
    ///
    /// Whatever `body` or the client throws becomes a ``FleetEngineError``
    /// (``FleetEngineError/init(converting:)``: a failure of this tool's own is UNKNOWN), is
    /// written to `errorOutput`, and ends the command with ``CallExitStatus/failure(reporting:)``
    /// (64 plus the code; 1 for a failure of the tool's own); but for output that
    /// cannot be written, which as text is thrown as it is, the tool's own failure rather than a
    /// status of Fleet Engine's (with ``reportsJSON`` it stays the one JSON object promised).
    ///
    /// - Throws: `ExitCode` after reporting a failure;
    ///   ``FleetTripsError/Code/unwritableOutput`` without ``reportsJSON``, when the output or the
    ///   report itself cannot be written.
    func run(
        errorOutput: inout some ByteSink,
        _ body: (FleetEngineClient) async throws -> Void
    ) async throws {
        try await run(errorOutput: &errorOutput) { client, _ in try await body(client) }
    }

    /// Runs `body` as ``run(errorOutput:_:)`` does, handing it `errorOutput` too, for the notes a
    /// command writes there while it goes on (fields the JSON it prints cannot show).
    ///
    /// First comes ``plaintextWarning``, when there is one. With ``keyLogFile``, the client appends
    /// its TLS secrets there; a file that cannot be opened gets a `warning:` line on
    /// `errorOutput` and the calls go on without it, as curl and
    /// browsers go on (silently) when `SSLKEYLOGFILE` cannot be opened: a debugging aid, often set
    /// for a whole shell, must not stop the tool's work.
    func run<ErrorOutput: ByteSink>(
        errorOutput: inout ErrorOutput,
        _ body: (FleetEngineClient, inout ErrorOutput) async throws -> Void
    ) async throws {
        do {
            if let plaintextWarning { try errorOutput.write(Array((plaintextWarning + "\n").utf8)) }
            var configuration = self.configuration
            if let keyLogFile {
                do throws(FleetEngineError) {
                    configuration.tlsKeyLog = try .file(atPath: keyLogFile)
                } catch {
                    try errorOutput.write(
                        Array(
                            ("warning: \(CommandEnvironment.keyLogFileVariable): \(error.message); the TLS secrets of "
                                + "this run are not written\n").utf8))
                }
            }
            try await withFleetEngineClient(configuration: configuration, tokenProvider: tokenSource.tokenProvider) {
                client in
                try await body(client, &errorOutput)
            }
        } catch let error as FleetTripsError where error.code == .unwritableOutput && !reportsJSON {
            // The tool's own failure (its reader is gone, as after `| head -1`): explained as a
            // status, it would be gRPC's UNKNOWN, a fault of the service to retry later.
            throw error
        } catch {
            try errorOutput.write(report(FleetEngineError(converting: error)))
            throw ExitCode(CallExitStatus.failure(reporting: error))
        }
    }

    /// The warning for calls that go in plaintext to a host that is not loopback (``LoopbackHost``):
    /// anyone on the path can read the bearer token and take it over, and the trips besides. Nil
    /// over TLS and on loopback.
    static func plaintextWarning(configuration: ClientConfiguration, tokenSource: TokenSource) -> String? {
        guard configuration.transportSecurity.isPlaintext, !LoopbackHost.contains(configuration.endpoint.host) else {
            return nil
        }
        let exposed =
            if case .none = tokenSource {
                "the calls travel in clear text (no token is sent)"
            } else {
                "the bearer token travels in clear text, readable by anyone on the path, and the calls with it"
            }
        return "warning: --plaintext to \(configuration.endpoint), which is not a loopback address: \(exposed); "
            + "leave out --plaintext to use TLS"
    }

    /// What standard error gets for `error`, line feed included.
    func report(_ error: FleetEngineError) -> [UInt8] {
        let explanation = StatusExplanation(error: error)
        return Array(((reportsJSON ? explanation.json : explanation.failureText) + "\n").utf8)
    }
}
