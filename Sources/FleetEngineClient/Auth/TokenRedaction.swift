import FleetEngineCodec
import FleetEngineStatus

/// Takes a bearer token back out of what a server or proxy said about a call.
///
/// A server that quotes the `authorization` header it refused (in `grpc-message`, a
/// `LocalizedMessage`, a `DebugInfo`, an `ErrorInfo` value…) would otherwise put the token into
/// the caller's error, and from there into its logs. The message gets a marker in the token's
/// place; inside `google.rpc.Status` the token's bytes are overwritten with a marker of the same
/// length, so that every length prefix around them stays true and the details still decode.
struct TokenRedaction {
    /// What stands in for the token in a message.
    static let marker = "[token redacted]"
    /// The shortest token looked for: a shorter one could match ordinary words of a message.
    static let shortestToken = 8

    private let token: [UInt8]

    /// A redaction of `token`, or nil when the token is too short to be told apart from text.
    init?(token: String) {
        guard token.utf8.count >= Self.shortestToken else { return nil }
        self.token = Array(token.utf8)
    }

    /// `error` with every copy of the token in its message, details, `google.rpc.Status` and raw
    /// `grpc-status-details-bin` replaced; the error itself when it holds none.
    func apply(to error: FleetEngineError) -> FleetEngineError {
        var redacted = error
        var messageBytes = Array(error.message.utf8)
        if overwrite(&messageBytes, keepingLength: false) {
            redacted.message = String(decoding: messageBytes, as: UTF8.self)
        }
        if let status = error.rpcStatus {
            var bytes = status.serializedBytes()
            if overwrite(&bytes, keepingLength: true) {
                if let cleaned = try? RPCStatus(serializedBytes: bytes) {
                    redacted.rpcStatus = cleaned
                    redacted.details = cleaned.details.map(StatusDetail.init)
                } else {
                    // The token ran across the message's own structure (a tag or a length), so the
                    // overwritten bytes no longer decode: the details go, and the message says so.
                    redacted.rpcStatus = nil
                    redacted.details = []
                    redacted.message += " (the status details were withheld: they held the token)"
                }
            }
        }
        if var problem = error.statusDetailsProblem {
            var raw = Array(problem.rawValue.utf8)
            if overwrite(&raw, keepingLength: false) {
                problem.rawValue = String(decoding: raw, as: UTF8.self)
            }
            // The value did not decode as a whole, but its base64 may still hold the token.
            if var decoded = try? Base64.decode(problem.rawValue),
                overwrite(&decoded, keepingLength: true)
            {
                var encoded: [UInt8] = []
                Base64.encode(decoded, into: &encoded)
                problem.rawValue = String(decoding: encoded, as: UTF8.self)
            }
            redacted.statusDetailsProblem = problem
        }
        return redacted
    }

    /// Replaces every occurrence of the token in `bytes` with ``marker`` (cut or padded with `*` to
    /// the token's length when `keepingLength`); whether there was one.
    private func overwrite(_ bytes: inout [UInt8], keepingLength: Bool) -> Bool {
        let marker = Array(Self.marker.utf8)
        let replacement =
            keepingLength
            ? Array((marker + [UInt8](repeating: UInt8(ascii: "*"), count: token.count)).prefix(token.count))
            : marker
        var found = false
        var searchFrom = bytes.startIndex
        while let range = bytes[searchFrom...].firstRange(of: token) {
            bytes.replaceSubrange(range, with: replacement)
            searchFrom = range.lowerBound + replacement.count
            found = true
        }
        return found
    }
}
