import CaptureFuzzing
import Crypto

/// Protects the records of one direction as a TLS endpoint would: the suite's AEAD, the
/// per-record nonce and additional data, and the sequence number both take.
struct RecordSealer {
    let suite: FuzzedSuite
    private var key: SymmetricKey
    private var iv: [UInt8]
    /// TLS 1.3: the traffic secret the key and IV came from, for KeyUpdate.
    private var secret: [UInt8]
    /// The sequence number of the next record (RFC 8446 section 5.3, RFC 5246 section 6.1).
    private(set) var sequenceNumber: UInt64 = 0

    /// TLS 1.3: records protected with a traffic secret.
    init(tls13 suite: FuzzedSuite, secret: [UInt8]) {
        let keys = KeyScheduleMirror.tls13KeyAndIV(suite, secret: secret)
        self.suite = suite
        self.key = SymmetricKey(data: keys.key)
        self.iv = keys.iv
        self.secret = secret
    }

    /// TLS 1.2: records protected with a write key and IV of the key block.
    init(tls12 suite: FuzzedSuite, key: [UInt8], iv: [UInt8]) {
        self.suite = suite
        self.key = SymmetricKey(data: key)
        self.iv = iv
        self.secret = []
    }

    /// TLS 1.3: the next records use the next traffic secret, from sequence number 0.
    mutating func updateKeys() {
        self = RecordSealer(tls13: suite, secret: KeyScheduleMirror.updatedSecret(suite, secret: secret))
    }

    /// The sequence number as 8 bytes, big-endian.
    private var sequenceBytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: sequenceNumber >> (8 * (7 - UInt64($0)))) }
    }

    /// The record protecting `content` of `contentType`: TLS 1.3's TLSInnerPlaintext (the content,
    /// its type, `padding` zeros) in an application data record (RFC 8446 section 5.2), or TLS
    /// 1.2's GenericAEADCipher (RFC 5246 section 6.2.3.3) in a record of `contentType`.
    mutating func seal(_ content: [UInt8], contentType: UInt8, padding: Int) -> [UInt8] {
        var nonce = iv
        var explicitNonce: [UInt8] = []
        if suite.fixedIVLength == 4 {
            // RFC 5288 section 3: salt, then 8 explicit bytes; the sequence number is a fine choice.
            explicitNonce = sequenceBytes
            nonce += explicitNonce
        } else {
            // RFC 8446 section 5.3, RFC 7905 section 2: the sequence number XORed into the IV's end.
            for (index, byte) in sequenceBytes.enumerated() { nonce[4 + index] ^= byte }
        }
        let plaintext: [UInt8]
        let header: [UInt8]
        let additionalData: [UInt8]
        if suite.isTLS13 {
            plaintext = content + [contentType] + [UInt8](repeating: 0, count: padding)
            header = Self.header(type: 23, length: plaintext.count + 16)
            additionalData = header
        } else {
            plaintext = content
            header = Self.header(type: contentType, length: explicitNonce.count + plaintext.count + 16)
            additionalData =
                sequenceBytes + [contentType, 3, 3, UInt8(plaintext.count >> 8), UInt8(plaintext.count & 0xFF)]
        }
        sequenceNumber += 1
        do {
            if suite.isChaCha20Poly1305 {
                let box = try ChaChaPoly.seal(
                    plaintext, using: key, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: additionalData)
                return header + explicitNonce + Array(box.ciphertext) + Array(box.tag)
            }
            let box = try AES.GCM.seal(
                plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: additionalData)
            return header + explicitNonce + Array(box.ciphertext) + Array(box.tag)
        } catch {
            fail("the harness could not seal a record: \(error)")
        }
    }

    /// A record header: type, version 3.3, the fragment's length.
    static func header(type: UInt8, length: Int) -> [UInt8] {
        [type, 3, 3, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
}
