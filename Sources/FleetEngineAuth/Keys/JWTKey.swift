import Crypto
import _CryptoExtras

/// A key a ``TokenVerifier`` checks signatures with: an HS256 secret or an RS256 public key, with
/// an optional key id.
///
/// The key fixes the algorithm. A token is checked only with keys of the algorithm its `alg`
/// names, and an RSA public key is never used as an HMAC secret, which is what algorithm confusion
/// attacks rely on (RFC 8725 section 2.1 and 3.1).
public struct JWTKey: Sendable, JWTKeyDescribing {
    typealias Material = JWTKeyMaterial<_RSA.Signing.PublicKey>

    /// The key id a token's `kid` header selects this key by; nil for a key any token may try.
    public var id: String?
    let material: Material

    init(material: Material, id: String?) {
        self.material = material
        self.id = id
    }

    /// The algorithm this key verifies.
    public var algorithm: JWTAlgorithm {
        material.algorithm
    }

    /// An HS256 secret.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is shorter than 32 bytes: RFC 7518
    ///   section 3.2 requires a key at least as long as the hash output.
    public static func hs256(secret: [UInt8], id: String? = nil) throws(JWTError) -> JWTKey {
        JWTKey(material: try .secret(secret), id: id)
    }

    /// An HS256 secret given as text; its UTF-8 bytes are the key.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is shorter than 32 bytes.
    public static func hs256(secret: String, id: String? = nil) throws(JWTError) -> JWTKey {
        try hs256(secret: Array(secret.utf8), id: id)
    }

    /// An RS256 public key in PEM (`BEGIN PUBLIC KEY` or `BEGIN RSA PUBLIC KEY`).
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the text is not an RSA public key of at least
    ///   2048 bits (RFC 7518 section 3.3 requires 2048).
    public static func rs256(publicKeyPEM: String, id: String? = nil) throws(JWTError) -> JWTKey {
        let key: _RSA.Signing.PublicKey
        do {
            key = try _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM)
        } catch {
            throw JWTError(
                code: .invalidKey,
                message: "the PEM text is not an RSA public key of 2048 bits or more",
                cause: error
            )
        }
        return JWTKey(material: .rsa(key), id: id)
    }

    /// Whether `signature` is this key's signature over `signingInput`.
    func isValidSignature(_ signature: [UInt8], for signingInput: [UInt8]) -> Bool {
        switch material {
        case .hmac(let secret):
            // Crypto compares the codes in constant time, so the time taken tells an attacker
            // nothing about how much of a forged code was right.
            return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: secret)
        case .rsa(let publicKey):
            // RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 section 3.3), not PSS.
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: signingInput,
                padding: .insecurePKCS1v1_5
            )
        }
    }
}
