import FleetEngineClient
import FleetTripsInput

/// Hands out the trimmed contents of a file as the token, read each time the client asks (once
/// per call, and again after a call was refused with UNAUTHENTICATED), so a token file that is
/// rotated on disk is picked up.
struct TokenFileProvider: TokenProvider {
    /// The file's path.
    var path: String

    /// The file's trimmed contents.
    ///
    /// - Throws: ``FleetTripsError/Code/tokenUnavailable`` when the file cannot be read, holds
    ///   only whitespace, or holds more than ``TokenSource/maxTokenBytes`` (read no further); the
    ///   client reports it as UNAUTHENTICATED. The message names the file, never what it holds.
    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let contents: [UInt8]
        do throws(FleetTripsError) {
            contents = try InputFile(path: path).readAll(atMost: TokenSource.maxTokenBytes)
        } catch {
            throw FleetTripsError(code: .tokenUnavailable, message: "--token-file: \(error.message)")
        }
        guard contents.count <= TokenSource.maxTokenBytes else {
            throw FleetTripsError(
                code: .tokenUnavailable,
                message:
                    "--token-file '\(path)' holds more than \(TokenSource.maxTokenBytes) bytes, which is not a token")
        }
        let token = TokenSource.token(trimming: contents)
        guard !token.isEmpty else {
            throw FleetTripsError(code: .tokenUnavailable, message: "--token-file '\(path)' holds no token")
        }
        return FleetEngineToken(value: token)
    }
}
