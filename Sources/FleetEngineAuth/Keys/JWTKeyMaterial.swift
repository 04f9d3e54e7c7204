import Crypto

/// What a key holds, shared by the key that verifies (``JWTKey``, with an RSA public key) and the
/// key that signs (``JWTSigningKey``, with an RSA private key): the two differ only in the RSA half.
///
/// The material fixes the algorithm, so an RSA key is never used as an HMAC secret, which is what
/// algorithm confusion attacks rely on (RFC 8725 sections 2.1 and 3.1).
enum JWTKeyMaterial<RSAKey: Sendable>: Sendable {
    /// An HS256 secret.
    case hmac(SymmetricKey)
    /// An RS256 key.
    case rsa(RSAKey)

    /// The algorithm the material is for.
    var algorithm: JWTAlgorithm {
        switch self {
        case .hmac: .hs256
        case .rsa: .rs256
        }
    }

    /// An HS256 secret.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is shorter than 32 bytes: RFC 7518
    ///   section 3.2 requires a key at least as long as the hash output.
    static func secret(_ bytes: [UInt8]) throws(JWTError) -> Self {
        guard bytes.count >= 32 else {
            throw JWTError(
                code: .invalidKey,
                message: "an HS256 secret must be at least 32 bytes (RFC 7518 section 3.2), this one is \(bytes.count)"
            )
        }
        return .hmac(SymmetricKey(data: bytes))
    }
}
