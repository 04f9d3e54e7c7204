import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Words for why a connection could not be made, for the message of the UNAVAILABLE error that
/// reports it (the error itself is kept as the cause).
///
/// The errors' own descriptions are written for swift-nio's developers: a TLS failure reads
/// `handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL
/// routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /…/CNIOBoringSSL/ssl/handshake.cc:320]))`,
/// with the path BoringSSL was compiled at, and a refused connection
/// `Connection errors: SingleConnectionFailure(target: [IPv4]localhost/127.0.0.1:50779, error:
/// connection reset (error set): Connection refused) (errno: 111))`. Here the first reads
/// `TLS handshake failed: CERTIFICATE_VERIFY_FAILED (…what that means…)` and the second
/// `127.0.0.1:50779: connection refused`.
enum ConnectionFailureText {
    /// The text for `error`: a TLS, connection or socket failure in words; any other error as it
    /// describes itself.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NIOSSLError: describe(error)
        case let error as NIOConnectionError: describe(error)
        case let error as IOError: systemReason(error.errnoCode)
        default: "\(error)"
        }
    }

    private static func describe(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let failure): "TLS handshake failed: " + describe(failure)
        case .shutdownFailed(let failure): "TLS shutdown failed: " + describe(failure)
        case .uncleanShutdown: "the server closed the connection without ending TLS"
        default: "TLS failed: \(error)"
        }
    }

    private static func describe(_ failure: BoringSSLError) -> String {
        switch failure {
        case .sslError(let stack), .unknownError(let stack), .invalidSNIName(let stack), .failedToSetALPN(let stack):
            let reasons = stack.map { reason(of: $0) }
            guard !reasons.isEmpty else { return "\(failure)" }
            return reasons.map { reason in meanings[reason].map { "\(reason) (\($0))" } ?? reason }.joined(
                separator: "; ")
        default:
            return "\(failure)"
        }
    }

    /// What the BoringSSL reasons a client meets most say about the server or the set-up.
    private static let meanings: [String: String] = [
        "CERTIFICATE_VERIFY_FAILED":
            "the server's certificate is not trusted: it does not chain to a trusted root, or a "
            + "certificate in the chain has expired or is not yet valid",
        "WRONG_VERSION_NUMBER": "the server did not answer in TLS; it may serve plaintext",
        "TLSV1_ALERT_PROTOCOL_VERSION": "the server refused every TLS version the client offers",
        "SSLV3_ALERT_HANDSHAKE_FAILURE": "the server refused the handshake: no cipher or setting in common",
        "TLSV1_ALERT_NO_APPLICATION_PROTOCOL": "the server speaks none of the application protocols offered",
        "TLSV1_ALERT_UNKNOWN_CA": "the server does not trust the client's certificate",
        "TLSV1_ALERT_CERTIFICATE_REQUIRED": "the server asks for a client certificate",
    ]

    /// The reason in one entry of BoringSSL's error stack. Its description is `Error: CODE
    /// error:HEX:LIBRARY:FUNCTION:REASON at PATH:LINE`; the reason is the last field before ` at `,
    /// the path and line (where BoringSSL was compiled) are left out. swift-nio-ssl's own entries
    /// read `Error:  EOF during handshake`: their text after `Error:`.
    static func reason(of entry: BoringSSLInternalError) -> String {
        var text = Substring(entry.description)
        if let marker = text.firstRange(of: " error:") {
            text = text[marker.upperBound...]
            if let position = text.firstRange(of: " at ") { text = text[..<position.lowerBound] }
            text = text.split(separator: ":", omittingEmptySubsequences: false).last ?? text
        } else if text.hasPrefix("Error:") {
            text = text.dropFirst("Error:".count)
        }
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    private static func describe(_ error: NIOConnectionError) -> String {
        if !error.connectionErrors.isEmpty {
            return error.connectionErrors.map { failure in
                "\(address(failure.target)): " + describe(failure.error)
            }.joined(separator: "; ")
        }
        if let lookup = error.dnsAError ?? error.dnsAAAAError {
            return "no address found for \(error.host): \(lookup)"
        }
        return "\(error)"
    }

    /// `host:port`, with IPv6 addresses in brackets.
    private static func address(_ target: SocketAddress) -> String {
        guard let ip = target.ipAddress, let port = target.port else { return "\(target)" }
        if case .v6 = target { return "[\(ip)]:\(port)" }
        return "\(ip):\(port)"
    }

    /// The system's text for `code`, lower-cased as the middle of a sentence.
    private static func systemReason(_ code: CInt) -> String {
        guard let text = strerror(code) else { return "system error \(code)" }
        let reason = String(cString: text)
        guard let first = reason.first, first.isUppercase, reason.dropFirst().first?.isLowercase ?? true else {
            return reason
        }
        return first.lowercased() + reason.dropFirst()
    }
}
