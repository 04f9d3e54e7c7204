/// The cipher suites an input's first byte picks from: the three of TLS 1.3 (RFC 8446 appendix
/// B.4) and two ECDHE-RSA AEAD suites of TLS 1.2 (RFC 5289, RFC 7905).
enum FuzzedSuite: Int, CaseIterable {
    case aes128GCMSHA256
    case aes256GCMSHA384
    case chaCha20Poly1305SHA256
    case ecdheRSAWithAES128GCMSHA256
    case ecdheRSAWithChaCha20Poly1305SHA256

    /// The suite's number on the wire.
    var id: UInt16 {
        switch self {
        case .aes128GCMSHA256: 0x1301
        case .aes256GCMSHA384: 0x1302
        case .chaCha20Poly1305SHA256: 0x1303
        case .ecdheRSAWithAES128GCMSHA256: 0xC02F
        case .ecdheRSAWithChaCha20Poly1305SHA256: 0xCCA8
        }
    }

    var isTLS13: Bool { rawValue <= 2 }

    var isChaCha20Poly1305: Bool { self == .chaCha20Poly1305SHA256 || self == .ecdheRSAWithChaCha20Poly1305SHA256 }

    /// The AEAD key's length in bytes.
    var keyLength: Int { self == .aes128GCMSHA256 || self == .ecdheRSAWithAES128GCMSHA256 ? 16 : 32 }

    /// Whether the key schedule (TLS 1.3) or the PRF (TLS 1.2) hashes with SHA-384.
    var usesSHA384: Bool { self == .aes256GCMSHA384 }

    /// The hash's output length: a TLS 1.3 secret's length.
    var secretLength: Int { usesSHA384 ? 48 : 32 }

    /// The length of the IV the key schedule gives: TLS 1.2's AES-GCM takes 4 bytes of salt from
    /// the key block and sends the other 8 in each record (RFC 5288 section 3); the rest 12.
    var fixedIVLength: Int { !isTLS13 && !isChaCha20Poly1305 ? 4 : 12 }
}
