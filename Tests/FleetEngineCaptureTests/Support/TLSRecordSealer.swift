import Crypto

@testable import FleetEngineCapture

/// Protects TLS 1.3 records as a sender does (RFC 8446 section 5.2): the inverse of
/// ``TLSRecordDecryptor``, with swift-crypto's AES-GCM and ChaCha20-Poly1305, for synthetic
/// connections whose keys a test chooses.
struct TLSRecordSealer {
    let suite: TLSCipherSuite
    private var key: SymmetricKey
    private var iv: [UInt8]
    private var trafficSecret: [UInt8]
    /// The sequence number of the next record.
    private(set) var sequenceNumber: UInt64 = 0

    /// Records protected with the key and IV of `trafficSecret` (RFC 8446 section 7.3).
    init(tls13 suite: TLSCipherSuite, trafficSecret: [UInt8]) {
        self.suite = suite
        let keys = TLSKeySchedule.trafficKeys(suite, secret: trafficSecret)
        key = SymmetricKey(data: keys.key)
        iv = keys.iv
        self.trafficSecret = trafficSecret
    }

    /// After a KeyUpdate: the next secret, and sequence numbers from 0 again.
    mutating func updateKeys() {
        self = TLSRecordSealer(
            tls13: suite, trafficSecret: TLSKeySchedule.nextTrafficSecret(suite, secret: trafficSecret))
    }

    /// The whole record (header and fragment) carrying `content` of `contentType`, followed by
    /// `padding` zeros inside the encryption.
    mutating func seal(_ content: some Collection<UInt8>, contentType: UInt8, padding: Int = 0) -> [UInt8] {
        let inner = Array(content) + [contentType] + [UInt8](repeating: 0, count: padding)
        let length = inner.count + 16
        let header: [UInt8] = [23, 3, 3, UInt8(length >> 8), UInt8(length & 0xFF)]
        var nonce = iv
        for index in 0..<8 {
            nonce[nonce.count - 8 + index] ^= UInt8(truncatingIfNeeded: sequenceNumber >> (56 - 8 * index))
        }
        sequenceNumber += 1
        // Test data only: the nonce is 12 bytes and the key 16 or 32, which neither AEAD refuses.
        switch suite.cipher {
        case .aesGCM:
            guard
                let box = try? AES.GCM.seal(
                    inner, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: header)
            else { preconditionFailure("AES-GCM refused a test key or nonce") }
            return header + box.ciphertext + box.tag
        case .chaCha20Poly1305:
            guard
                let box = try? ChaChaPoly.seal(
                    inner, using: key, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: header)
            else { preconditionFailure("ChaCha20-Poly1305 refused a test key or nonce") }
            return header + box.ciphertext + box.tag
        }
    }
}
