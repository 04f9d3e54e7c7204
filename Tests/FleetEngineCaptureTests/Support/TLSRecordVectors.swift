import FleetEngineTestSupport
import Foundation
import Testing

/// The TLS connections `Scripts/make-tls-fixtures.py` protected with pyca/cryptography
/// (`tls-record-vectors.json`): TLS 1.3 with KeyUpdates, AES-256-GCM and ChaCha20-Poly1305, and
/// TLS 1.2's ECDHE AEAD suites with key blocks from the PRF.
struct TLSRecordVectors: Decodable {
    struct Connection: Decodable, CustomTestStringConvertible {
        var name: String
        var version: String
        var cipherSuite: UInt16
        var clientRandomHex: String
        var serverRandomHex: String
        var keyLog: String
        var records: [Record]
        var clientApplicationDataHex: String
        var serverApplicationDataHex: String
        /// TLS 1.2.
        var masterSecretHex: String?
        var keyBlock: KeyBlock?
        /// TLS 1.3: each side's application traffic secrets, the first and those after each KeyUpdate.
        var trafficSecrets: [String: [String]]?

        var testDescription: String { name }
        var isTLS13: Bool { version == "TLS 1.3" }
        var clientRandom: [UInt8] { hexBytes(clientRandomHex) }
        var serverRandom: [UInt8] { hexBytes(serverRandomHex) }
        var clientApplicationData: [UInt8] { hexBytes(clientApplicationDataHex) }
        var serverApplicationData: [UInt8] { hexBytes(serverApplicationDataHex) }
    }

    struct KeyBlock: Decodable {
        var clientKeyHex: String
        var serverKeyHex: String
        var clientIVHex: String
        var serverIVHex: String
    }

    struct Record: Decodable {
        var fromClient: Bool
        var contentType: UInt8
        var recordHex: String
        var plaintextHex: String
        /// Protected records: the key and IV that sealed it, its sequence number under them.
        var keyHex: String?
        var ivHex: String?
        var sequenceNumber: UInt64?
        /// TLS 1.3: the traffic secret the key and IV came from.
        var trafficSecretHex: String?

        var bytes: [UInt8] { hexBytes(recordHex) }
        var plaintext: [UInt8] { hexBytes(plaintextHex) }
        var isProtected: Bool { keyHex != nil }
    }

    var cryptography: String
    var connections: [Connection]

    /// The fixture, read once.
    static let fixture: TLSRecordVectors = {
        guard let url = Bundle.module.url(forResource: "Fixtures/tls-record-vectors.json", withExtension: nil),
            let data = try? Data(contentsOf: url),
            let vectors = try? JSONDecoder().decode(TLSRecordVectors.self, from: data)
        else { return TLSRecordVectors(cryptography: "missing", connections: []) }
        return vectors
    }()

    /// The connections, for `@Test(arguments:)`; a fixture that did not read gives none, which the
    /// test of the fixture itself reports.
    static var connections: [Connection] { fixture.connections }
}
