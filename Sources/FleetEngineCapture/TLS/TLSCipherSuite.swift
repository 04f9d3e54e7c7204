/// The cipher suites whose records the capture decoder decrypts: the AEAD suites of TLS 1.3
/// (RFC 8446 appendix B.4) and the ECDHE AEAD suites of TLS 1.2 (RFC 5289, RFC 7905).
struct TLSCipherSuite: Sendable, Hashable {
    enum Cipher: Sendable, Hashable {
        case aesGCM
        case chaCha20Poly1305
    }

    enum Hash: Sendable, Hashable {
        case sha256
        case sha384

        /// The hash's output length, which is also a TLS 1.3 secret's length.
        var length: Int { self == .sha256 ? 32 : 48 }
    }

    /// The suite's number on the wire.
    var id: UInt16
    /// The IANA name, for messages.
    var name: String
    var cipher: Cipher
    /// The key length in bytes.
    var keyLength: Int
    /// The hash of the key schedule (TLS 1.3) or of the PRF (TLS 1.2).
    var hash: Hash
    /// Whether this is a TLS 1.3 suite.
    var isTLS13: Bool

    /// The suite numbered `id`, nil for a suite the decoder does not decrypt.
    static func named(_ id: UInt16) -> TLSCipherSuite? {
        known.first { $0.id == id }
    }

    private static let known: [TLSCipherSuite] = [
        TLSCipherSuite(
            id: 0x1301, name: "TLS_AES_128_GCM_SHA256", cipher: .aesGCM, keyLength: 16, hash: .sha256, isTLS13: true),
        TLSCipherSuite(
            id: 0x1302, name: "TLS_AES_256_GCM_SHA384", cipher: .aesGCM, keyLength: 32, hash: .sha384, isTLS13: true),
        TLSCipherSuite(
            id: 0x1303, name: "TLS_CHACHA20_POLY1305_SHA256", cipher: .chaCha20Poly1305, keyLength: 32,
            hash: .sha256, isTLS13: true),
        TLSCipherSuite(
            id: 0xC02B, name: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", cipher: .aesGCM, keyLength: 16,
            hash: .sha256, isTLS13: false),
        TLSCipherSuite(
            id: 0xC02C, name: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", cipher: .aesGCM, keyLength: 32,
            hash: .sha384, isTLS13: false),
        TLSCipherSuite(
            id: 0xC02F, name: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", cipher: .aesGCM, keyLength: 16,
            hash: .sha256, isTLS13: false),
        TLSCipherSuite(
            id: 0xC030, name: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", cipher: .aesGCM, keyLength: 32,
            hash: .sha384, isTLS13: false),
        TLSCipherSuite(
            id: 0xCCA8, name: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", cipher: .chaCha20Poly1305,
            keyLength: 32, hash: .sha256, isTLS13: false),
        TLSCipherSuite(
            id: 0xCCA9, name: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", cipher: .chaCha20Poly1305,
            keyLength: 32, hash: .sha256, isTLS13: false),
    ]

    /// The length of the IV the key schedule makes: 12 bytes, but for TLS 1.2's AES-GCM, whose
    /// 4-byte implicit part is completed by 8 explicit bytes in each record (RFC 5288 section 3).
    var fixedIVLength: Int { !isTLS13 && cipher == .aesGCM ? 4 : 12 }
}
