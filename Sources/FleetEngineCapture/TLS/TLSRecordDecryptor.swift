import Crypto
import FoundationEssentials

/// Opens the protected records of one direction of a TLS connection, in order: the AEAD of its
/// suite (swift-crypto's AES-GCM or ChaCha20-Poly1305), the per-record nonce, the additional data,
/// and the sequence number that both depend on.
struct TLSRecordDecryptor: Sendable {
    /// Why a record did not open.
    enum Failure: Error, Sendable {
        /// Too short to hold the explicit nonce and the tag.
        case tooShort(Int)
        /// The tag did not match: wrong key, or damaged bytes.
        case authenticationFailed
        /// TLS 1.3: the plaintext was all padding, with no content type (RFC 8446 section 5.4).
        case noContentType
    }

    let suite: TLSCipherSuite
    private var key: SymmetricKey
    private var iv: [UInt8]
    /// TLS 1.3: the secret the key and IV came from, for KeyUpdate.
    private var trafficSecret: [UInt8]?
    /// The sequence number of the next record (RFC 8446 section 5.3, RFC 5246 section 6.1).
    private(set) var sequenceNumber: UInt64 = 0

    /// TLS 1.3: records protected with keys from `trafficSecret`.
    init(tls13 suite: TLSCipherSuite, trafficSecret: [UInt8]) {
        self.suite = suite
        let keys = TLSKeySchedule.trafficKeys(suite, secret: trafficSecret)
        self.key = SymmetricKey(data: keys.key)
        self.iv = keys.iv
        self.trafficSecret = trafficSecret
    }

    /// TLS 1.2: records protected with a write key and IV from the key block.
    init(tls12 suite: TLSCipherSuite, key: [UInt8], iv: [UInt8]) {
        self.suite = suite
        self.key = SymmetricKey(data: key)
        self.iv = iv
        self.trafficSecret = nil
    }

    /// TLS 1.3 KeyUpdate (RFC 8446 section 4.6.3): the next records use the next traffic secret,
    /// and their sequence numbers start again from 0.
    mutating func updateKeys() {
        guard let trafficSecret else { return }
        self = TLSRecordDecryptor(
            tls13: suite, trafficSecret: TLSKeySchedule.nextTrafficSecret(suite, secret: trafficSecret))
    }

    /// The tag's length for both ciphers.
    private static let tagLength = 16

    /// Opens the next record: `header` is its five bytes, `fragment` what follows them.
    ///
    /// - Returns: the content type (TLS 1.3: the inner one, padding removed) and the plaintext, as
    ///   swift-crypto gives it: it is copied once, where it is put after the plaintext before it.
    mutating func open(
        header: ArraySlice<UInt8>, fragment: ArraySlice<UInt8>
    ) throws(Failure) -> (contentType: UInt8, plaintext: Data) {
        let explicitNonceLength = suite.fixedIVLength == 4 ? 8 : 0
        guard fragment.count >= explicitNonceLength + Self.tagLength else { throw .tooShort(fragment.count) }
        let ciphertextCount = fragment.count - explicitNonceLength - Self.tagLength
        // swift-crypto's combined form (nonce, ciphertext, tag), made here with appends of buffers:
        // its `SealedBox(nonce:ciphertext:tag:)` is generic code that looks conformances up at run
        // time for every record, which cost a TLS capture about a quarter of its decoding time.
        var combined = Data(capacity: Self.nonceLength + ciphertextCount + Self.tagLength)
        iv.withUnsafeBufferPointer { combined.append($0) }
        if explicitNonceLength > 0 {
            // RFC 5288 section 3: the 4-byte salt from the key block, then the record's 8 bytes.
            fragment.withUnsafeBufferPointer {
                combined.append(UnsafeBufferPointer(rebasing: $0.prefix(explicitNonceLength)))
            }
        } else {
            // RFC 8446 section 5.3 and RFC 7905 section 2: the sequence number, left-padded to the
            // IV's length, XORed with the IV.
            combined.withUnsafeMutableBytes { nonce in
                for index in 0..<8 {
                    nonce[Self.nonceLength - 8 + index] ^= UInt8(truncatingIfNeeded: sequenceNumber >> (56 - 8 * index))
                }
            }
        }
        fragment.withUnsafeBufferPointer {
            combined.append(UnsafeBufferPointer(rebasing: $0.dropFirst(explicitNonceLength)))
        }
        let plaintext: Data
        do {
            if suite.isTLS13 {
                // RFC 8446 section 5.2: the record header as sent.
                plaintext = try header.withUnsafeBytes { try decrypt(combined, additionalData: $0) }
            } else {
                // RFC 5246 section 6.2.3.3: seq_num, type, version, and the plaintext's length.
                var data = (0..<8).map { UInt8(truncatingIfNeeded: sequenceNumber >> (56 - 8 * $0)) }
                data.append(header[header.startIndex])
                data.append(header[header.startIndex + 1])
                data.append(header[header.startIndex + 2])
                data.append(UInt8(truncatingIfNeeded: ciphertextCount >> 8))
                data.append(UInt8(truncatingIfNeeded: ciphertextCount))
                plaintext = try data.withUnsafeBytes { try decrypt(combined, additionalData: $0) }
            }
        } catch {
            throw .authenticationFailed
        }
        sequenceNumber &+= 1
        guard suite.isTLS13 else { return (header[header.startIndex], plaintext) }
        // RFC 8446 section 5.4: TLSInnerPlaintext is the content, its type, then zeros.
        var end = plaintext.endIndex
        while end > plaintext.startIndex, plaintext[end - 1] == 0 { end -= 1 }
        guard end > plaintext.startIndex else { throw .noContentType }
        return (plaintext[end - 1], plaintext[plaintext.startIndex..<(end - 1)])
    }

    /// The nonce's length for both ciphers and both versions.
    private static let nonceLength = 12

    /// Authenticates and decrypts one record, given as nonce, ciphertext and tag, with the suite's
    /// AEAD.
    private func decrypt(_ combined: Data, additionalData: UnsafeRawBufferPointer) throws -> Data {
        switch suite.cipher {
        case .aesGCM:
            return try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: additionalData)
        case .chaCha20Poly1305:
            return try ChaChaPoly.open(
                ChaChaPoly.SealedBox(combined: combined), using: key, authenticating: additionalData)
        }
    }
}
