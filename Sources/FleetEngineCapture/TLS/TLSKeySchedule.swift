import Crypto

/// The key derivations the decoder needs: TLS 1.3's HKDF-Expand-Label (RFC 8446 section 7.1) and
/// TLS 1.2's PRF (RFC 5246 section 5), both from swift-crypto's HKDF and HMAC.
enum TLSKeySchedule {
    /// HKDF-Expand-Label(secret, label, context, length) of RFC 8446 section 7.1: HKDF-Expand with
    /// the info `HkdfLabel { uint16 length; opaque label<7..255> = "tls13 " + label; opaque
    /// context<0..255> }`.
    static func expandLabel(
        _ hash: TLSCipherSuite.Hash, secret: [UInt8], label: String, context: [UInt8] = [], length: Int
    ) -> [UInt8] {
        let fullLabel = Array("tls13 \(label)".utf8)
        var info: [UInt8] = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(fullLabel.count)]
        info += fullLabel
        info.append(UInt8(context.count))
        info += context
        let key = SymmetricKey(data: secret)
        let output: SymmetricKey =
            switch hash {
            case .sha256: HKDF<SHA256>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
            case .sha384: HKDF<SHA384>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
            }
        return output.withUnsafeBytes { Array($0) }
    }

    /// The key and IV of the records a TLS 1.3 traffic secret protects (RFC 8446 section 7.3).
    static func trafficKeys(_ suite: TLSCipherSuite, secret: [UInt8]) -> (key: [UInt8], iv: [UInt8]) {
        (
            expandLabel(suite.hash, secret: secret, label: "key", length: suite.keyLength),
            expandLabel(suite.hash, secret: secret, label: "iv", length: 12)
        )
    }

    /// The next traffic secret after a KeyUpdate (RFC 8446 section 7.2).
    static func nextTrafficSecret(_ suite: TLSCipherSuite, secret: [UInt8]) -> [UInt8] {
        expandLabel(suite.hash, secret: secret, label: "traffic upd", length: suite.hash.length)
    }

    /// PRF(secret, label, seed) of RFC 5246 section 5: P_hash with the suite's hash, `length` bytes.
    static func prf(
        _ hash: TLSCipherSuite.Hash, secret: [UInt8], label: String, seed: [UInt8], length: Int
    ) -> [UInt8] {
        switch hash {
        case .sha256: pHash(SHA256.self, secret: secret, seed: Array(label.utf8) + seed, length: length)
        case .sha384: pHash(SHA384.self, secret: secret, seed: Array(label.utf8) + seed, length: length)
        }
    }

    /// P_hash(secret, seed) = HMAC(secret, A(1) + seed) + HMAC(secret, A(2) + seed) + ..., with
    /// A(0) = seed and A(i) = HMAC(secret, A(i-1)).
    private static func pHash<H: HashFunction>(
        _: H.Type, secret: [UInt8], seed: [UInt8], length: Int
    ) -> [UInt8] {
        let key = SymmetricKey(data: secret)
        var output: [UInt8] = []
        var a = Array(HMAC<H>.authenticationCode(for: seed, using: key))
        while output.count < length {
            output += HMAC<H>.authenticationCode(for: a + seed, using: key)
            a = Array(HMAC<H>.authenticationCode(for: a, using: key))
        }
        return Array(output.prefix(length))
    }

    /// The write keys and IVs of a TLS 1.2 connection: the key block (RFC 5246 section 6.3) cut
    /// into client key, server key, client IV and server IV (AEAD suites have no MAC keys).
    static func tls12Keys(
        _ suite: TLSCipherSuite, masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8]
    ) -> (clientKey: [UInt8], serverKey: [UInt8], clientIV: [UInt8], serverIV: [UInt8]) {
        let keyLength = suite.keyLength
        let ivLength = suite.fixedIVLength
        let block = prf(
            suite.hash, secret: masterSecret, label: "key expansion", seed: serverRandom + clientRandom,
            length: 2 * (keyLength + ivLength))
        return (
            Array(block[0..<keyLength]), Array(block[keyLength..<2 * keyLength]),
            Array(block[2 * keyLength..<2 * keyLength + ivLength]),
            Array(block[2 * keyLength + ivLength..<2 * (keyLength + ivLength)])
        )
    }
}
