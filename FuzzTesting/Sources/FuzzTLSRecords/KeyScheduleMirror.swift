import Crypto

/// The harness's own key derivations, written from the RFCs with swift-crypto rather than taken
/// from the decoder, so that a record the harness seals opens only if the decoder derives its keys
/// as the RFCs say.
enum KeyScheduleMirror {
    /// HKDF-Expand-Label with an empty context (RFC 8446 section 7.1).
    static func expandLabel(_ suite: FuzzedSuite, secret: [UInt8], label: String, length: Int) -> [UInt8] {
        let labelBytes = Array(("tls13 " + label).utf8)
        // struct { uint16 length; opaque label<7..255>; opaque context<0..255>; } HkdfLabel
        let hkdfLabel = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(labelBytes.count)] + labelBytes + [0]
        let pseudoRandomKey = SymmetricKey(data: secret)
        let expanded =
            suite.usesSHA384
            ? HKDF<SHA384>.expand(pseudoRandomKey: pseudoRandomKey, info: hkdfLabel, outputByteCount: length)
            : HKDF<SHA256>.expand(pseudoRandomKey: pseudoRandomKey, info: hkdfLabel, outputByteCount: length)
        return expanded.withUnsafeBytes { Array($0) }
    }

    /// The AEAD key and IV of a TLS 1.3 traffic secret (RFC 8446 section 7.3).
    static func tls13KeyAndIV(_ suite: FuzzedSuite, secret: [UInt8]) -> (key: [UInt8], iv: [UInt8]) {
        (
            expandLabel(suite, secret: secret, label: "key", length: suite.keyLength),
            expandLabel(suite, secret: secret, label: "iv", length: 12)
        )
    }

    /// application_traffic_secret_N+1 after a KeyUpdate (RFC 8446 section 7.2).
    static func updatedSecret(_ suite: FuzzedSuite, secret: [UInt8]) -> [UInt8] {
        expandLabel(suite, secret: secret, label: "traffic upd", length: suite.secretLength)
    }

    /// The TLS 1.2 key block (RFC 5246 section 6.3): PRF(master_secret, "key expansion",
    /// server_random + client_random), P_SHA256 for both suites here (section 5), cut into the
    /// client's and the server's write key and IV (AEAD suites have no MAC key).
    static func tls12Keys(
        _ suite: FuzzedSuite, masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8]
    ) -> (client: (key: [UInt8], iv: [UInt8]), server: (key: [UInt8], iv: [UInt8])) {
        let seed = Array("key expansion".utf8) + serverRandom + clientRandom
        let needed = 2 * (suite.keyLength + suite.fixedIVLength)
        let hmacKey = SymmetricKey(data: masterSecret)
        var block: [UInt8] = []
        var chained = seed  // A(0)
        while block.count < needed {
            chained = Array(HMAC<SHA256>.authenticationCode(for: chained, using: hmacKey))
            block += Array(HMAC<SHA256>.authenticationCode(for: chained + seed, using: hmacKey))
        }
        var rest = block[...]
        func take(_ count: Int) -> [UInt8] {
            defer { rest = rest.dropFirst(count) }
            return Array(rest.prefix(count))
        }
        let clientKey = take(suite.keyLength)
        let serverKey = take(suite.keyLength)
        let clientIV = take(suite.fixedIVLength)
        let serverIV = take(suite.fixedIVLength)
        return ((clientKey, clientIV), (serverKey, serverIV))
    }
}
