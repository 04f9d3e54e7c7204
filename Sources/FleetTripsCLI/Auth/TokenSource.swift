import FleetEngineClient
import FleetTripsInput

/// Where a client command's bearer token comes from: `--token`, `--token-file`,
/// `--token-command`, a service account key (`--service-account` or
/// `GOOGLE_APPLICATION_CREDENTIALS`), or nowhere (no `authorization` header at all).
///
/// Its description names the source but never shows a token.
enum TokenSource: Sendable, Hashable, CustomStringConvertible {
    /// No token: calls carry no `authorization` header, as an emulator started with `--no-auth` takes them.
    case none
    /// This token, as given.
    case literal(String)
    /// The trimmed contents of the file at this path, read when the client asks for a token.
    case file(path: String)
    /// The trimmed standard output of this command line, run by `/bin/sh -c` when the client asks
    /// for a token.
    case command(String)
    /// Server tokens minted with the service account key file at this path, named by `origin`
    /// (`--service-account` or `GOOGLE_APPLICATION_CREDENTIALS`).
    case serviceAccount(path: String, origin: String)

    /// The provider the client asks for tokens.
    var tokenProvider: any TokenProvider {
        switch self {
        case .none: NoTokenProvider()
        case .literal(let token): StaticTokenProvider(token)
        case .file(let path): TokenFileProvider(path: path)
        case .command(let commandLine): TokenCommandProvider(commandLine: commandLine)
        case .serviceAccount(let path, let origin): ServiceAccountFileProvider(path: path, origin: origin)
        }
    }

    /// `no token`, `--token (redacted)`, `--token-file 'path'`, `--token-command`,
    /// `--service-account 'path'`: the path of a key file, never what it holds.
    var description: String {
        switch self {
        case .none: "no token"
        case .literal: "--token (redacted)"
        case .file(let path): "--token-file '\(path)'"
        case .command: "--token-command"
        case .serviceAccount(let path, let origin): "\(origin) '\(path)'"
        }
    }

    /// The most bytes a token file or a token command's output may hold: far above any JWT, and a
    /// bound on what a file such as `/dev/zero` or a runaway command makes the client hold.
    static let maxTokenBytes = 1 << 20

    /// `bytes` without the ASCII whitespace around them (a final line feed, above all), as text.
    static func token(trimming bytes: [UInt8]) -> String {
        guard let first = bytes.firstIndex(where: { !TextInput.isWhitespace($0) }),
            let last = bytes.lastIndex(where: { !TextInput.isWhitespace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
