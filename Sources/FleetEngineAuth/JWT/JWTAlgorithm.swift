/// A JWS `alg` header value (RFC 7515 section 4.1.1), as the token carried it.
///
/// An open set, as the wire is: any string is representable, so a token with an algorithm this
/// package does not implement still parses and is then refused by name. Comparison is
/// case-sensitive, as RFC 7515 section 4.1.1 requires (`hs256` is not ``hs256``).
public struct JWTAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `alg` string.
    public let rawValue: String

    /// Wraps any `alg` string, registered or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HS256`: HMAC with SHA-256 over a shared secret (RFC 7518 section 3.2).
    public static let hs256 = JWTAlgorithm(rawValue: "HS256")
    /// `RS256`: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 section 3.3). Google's service account
    /// signers, and so Fleet Engine's tokens, use it.
    public static let rs256 = JWTAlgorithm(rawValue: "RS256")
    /// `none`: an unsecured JWS (RFC 7518 section 3.6). Never accepted: a token anyone can write
    /// proves nothing.
    public static let none = JWTAlgorithm(rawValue: "none")

    /// The algorithms this package can verify and sign with.
    public static let supported: [JWTAlgorithm] = [.hs256, .rs256]

    /// Whether this package can verify and sign with this algorithm.
    public var isSupported: Bool { Self.supported.contains(self) }

    /// The `alg` string.
    public var description: String { rawValue }
}
