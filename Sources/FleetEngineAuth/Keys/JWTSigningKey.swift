import Crypto
import _CryptoExtras

/// A key a ``TokenMinter`` signs with: an HS256 secret or an RS256 private key, with an optional
/// key id that is written to the token's `kid` header.
public struct JWTSigningKey: Sendable, JWTKeyDescribing {
    typealias Material = JWTKeyMaterial<_RSA.Signing.PrivateKey>

    /// The key id written to the `kid` header; none when nil.
    public var id: String?
    let material: Material

    init(material: Material, id: String?) {
        self.material = material
        self.id = id
    }

    /// The algorithm this key signs with.
    public var algorithm: JWTAlgorithm {
        material.algorithm
    }

    /// An HS256 secret.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is shorter than 32 bytes (RFC 7518
    ///   section 3.2).
    public static func hs256(secret: [UInt8], id: String? = nil) throws(JWTError) -> JWTSigningKey {
        JWTSigningKey(material: try .secret(secret), id: id)
    }

    /// An HS256 secret given as text; its UTF-8 bytes are the key.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is shorter than 32 bytes.
    public static func hs256(secret: String, id: String? = nil) throws(JWTError) -> JWTSigningKey {
        try hs256(secret: Array(secret.utf8), id: id)
    }

    /// An RS256 private key in PEM (PKCS#1 `BEGIN RSA PRIVATE KEY` or PKCS#8 `BEGIN PRIVATE KEY`).
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` when the text is not an unencrypted RSA private key
    ///   of at least 2048 bits (RFC 7518 section 3.3).
    public static func rs256(privateKeyPEM: String, id: String? = nil) throws(JWTError) -> JWTSigningKey {
        do {
            return JWTSigningKey(material: .rsa(try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)), id: id)
        } catch {
            throw JWTError(
                code: .invalidKey,
                message: "the PEM text is not an unencrypted RSA private key of 2048 bits or more",
                cause: error
            )
        }
    }

    /// The key that verifies this key's signatures, with the same id: the secret itself for
    /// HS256, the public half for RS256.
    public var verificationKey: JWTKey {
        switch material {
        case .hmac(let secret): JWTKey(material: .hmac(secret), id: id)
        case .rsa(let privateKey): JWTKey(material: .rsa(privateKey.publicKey), id: id)
        }
    }

    /// The public key in PEM (`BEGIN PUBLIC KEY`), for an RS256 key; nil for a secret.
    public var publicKeyPEM: String? {
        switch material {
        case .hmac: nil
        case .rsa(let privateKey): privateKey.publicKey.pemRepresentation
        }
    }

    /// The signature over `signingInput` (RFC 7515 section 5.1, step 5).
    func sign(_ signingInput: [UInt8]) throws(JWTError) -> [UInt8] {
        switch material {
        case .hmac(let secret):
            return Array(HMAC<SHA256>.authenticationCode(for: signingInput, using: secret))
        case .rsa(let privateKey):
            do {
                // RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 section 3.3); the API's default is PSS.
                let signature = try privateKey.signature(for: signingInput, padding: .insecurePKCS1v1_5)
                return Array(signature.rawRepresentation)
            } catch {
                throw JWTError(code: .signingFailed, message: "the RSA private key failed to sign", cause: error)
            }
        }
    }
}
