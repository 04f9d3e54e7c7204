import FleetEngineClient
import FleetTripsInput

/// Hands out the trimmed standard output of a command line as the token, run by `/bin/sh -c`
/// each time the client asks (once per call, and again after a call was refused with
/// UNAUTHENTICATED), as `gcloud auth print-access-token` or a script of one's own backend would be.
struct TokenCommandProvider: TokenProvider {
    /// How much of the command's standard error a failure quotes.
    static let quotedErrorLimit = 300

    /// The command line.
    var commandLine: String

    /// The command's trimmed standard output.
    ///
    /// - Throws: ``FleetTripsError/Code/tokenUnavailable`` when the command cannot be started,
    ///   exits with a status other than 0, is killed, or prints nothing; the client reports it as
    ///   UNAUTHENTICATED. The message gives the exit status and quotes the start of the command's
    ///   standard error; it never shows the command line (it may hold a secret) nor anything the
    ///   command printed on standard output.
    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let outcome: ShellCommand.Outcome
        do throws(FleetTripsError) {
            outcome = try await ShellCommand(commandLine: commandLine).run()
        } catch {
            throw FleetTripsError(
                code: .tokenUnavailable, message: "--token-command could not be run: \(error.message)")
        }
        guard outcome.termination == .exited(0) else {
            throw FleetTripsError(
                code: .tokenUnavailable,
                message: "--token-command \(outcome.termination)" + Self.quoted(outcome.standardError))
        }
        guard !outcome.standardOutputOverflowed else {
            throw FleetTripsError(
                code: .tokenUnavailable,
                message: "--token-command printed more than \(TokenSource.maxTokenBytes) bytes, which is not a token")
        }
        let token = TokenSource.token(trimming: outcome.standardOutput)
        guard !token.isEmpty else {
            throw FleetTripsError(
                code: .tokenUnavailable,
                message: "--token-command printed no token" + Self.quoted(outcome.standardError))
        }
        return FleetEngineToken(value: token)
    }

    /// `; its standard error: ...`, on one line and shortened, or nothing when it wrote none.
    private static func quoted(_ standardError: [UInt8]) -> String {
        let text = TokenSource.token(trimming: standardError)
        guard !text.isEmpty else { return "" }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " / ")
        let shortened = line.count > quotedErrorLimit ? String(line.prefix(quotedErrorLimit)) + "..." : line
        return "; its standard error: \(shortened)"
    }
}
