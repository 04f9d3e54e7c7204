import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite(
    "TLS records pyca/cryptography protected: KeyUpdate, AES-256-GCM, ChaCha20-Poly1305 and TLS 1.2's AEAD suites open to their plaintexts"
)
struct TLSRecordVectorTests {
    @Test("the fixture holds the six connections Scripts/make-tls-fixtures.py makes")
    func fixtureConnections() {
        #expect(
            TLSRecordVectors.connections.map(\.name) == [
                "TLS 1.3 AES-128-GCM with KeyUpdates both ways",
                "TLS 1.3 AES-256-GCM (SHA-384 secrets)",
                "TLS 1.3 ChaCha20-Poly1305 with KeyUpdates",
                "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256",
                "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384",
                "TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305",
            ])
        #expect(TLSRecordVectors.connections.map(\.cipherSuite) == [0x1301, 0x1302, 0x1303, 0xC02F, 0xC030, 0xCCA8])
    }

    @Test(
        "each side's protected records open in order to their content type and plaintext, KeyUpdates followed",
        arguments: TLSRecordVectors.connections)
    func recordsOpen(_ connection: TLSRecordVectors.Connection) throws {
        let suite = try #require(TLSCipherSuite.named(connection.cipherSuite))
        for fromClient in [true, false] {
            var decryptor: TLSRecordDecryptor?
            var secret: String?
            var keyUpdates = 0
            var opened = 0
            for record in connection.records where record.fromClient == fromClient && record.isProtected {
                if connection.isTLS13 {
                    let recordSecret = try #require(record.trafficSecretHex)
                    if let current = decryptor, let secret, secret != recordSecret,
                        hexString(TLSKeySchedule.nextTrafficSecret(suite, secret: hexBytes(secret))) == recordSecret
                    {
                        // The record after a KeyUpdate: the decryptor moves to the next secret.
                        var updated = current
                        updated.updateKeys()
                        decryptor = updated
                        keyUpdates += 1
                    } else if secret != recordSecret {
                        decryptor = TLSRecordDecryptor(tls13: suite, trafficSecret: hexBytes(recordSecret))
                    }
                    secret = recordSecret
                } else if decryptor == nil {
                    decryptor = TLSRecordDecryptor(
                        tls12: suite, key: hexBytes(try #require(record.keyHex)),
                        iv: hexBytes(try #require(record.ivHex)))
                }
                var current = try #require(decryptor)
                #expect(current.sequenceNumber == record.sequenceNumber)
                let bytes = record.bytes
                let result = try current.open(header: bytes.prefix(5), fragment: bytes.dropFirst(5))
                #expect(result.contentType == record.contentType)
                #expect(hexString([UInt8](result.plaintext)) == record.plaintextHex)
                decryptor = current
                opened += 1
            }
            let expectedUpdates = connection.isTLS13 ? ((connection.trafficSecrets?["client"]?.count ?? 1) - 1) : 0
            #expect(keyUpdates == expectedUpdates)
            #expect(opened >= 4)
        }
    }

    static let chunkings: [[Int]] = [[], [1], [5, 3, 1_000, 17], [100_000]]

    @Test(
        "the connection decoder gives each side's application data exactly, with the whole key log",
        arguments: TLSRecordVectors.connections, chunkings)
    func connectionDecodes(_ connection: TLSRecordVectors.Connection, chunkSizes: [Int]) throws {
        let keyLog = try TLSKeyLog(parsing: Array(connection.keyLog.utf8), source: connection.name)
        let outcome = TLSConnectionDecoderHarness.decode(
            connection.records.map { ($0.fromClient, $0.bytes) }, keyLog: keyLog, chunkSizes: chunkSizes)
        #expect(outcome.clientPlaintext == connection.clientApplicationData)
        #expect(outcome.serverPlaintext == connection.serverApplicationData)
        #expect(outcome.problems.map(\.message) == [])
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(outcome.decoder.alpn == "h2")
        #expect(outcome.decoder.suite?.id == connection.cipherSuite)
    }

    @Test(
        "TLS 1.3 with only the *_TRAFFIC_SECRET_0 lines: the handshake records are passed over, KeyUpdates still followed",
        arguments: TLSRecordVectors.connections.filter(\.isTLS13))
    func trafficSecretsOnly(_ connection: TLSRecordVectors.Connection) throws {
        let lines = connection.keyLog.split(separator: "\n").filter {
            $0.hasPrefix("CLIENT_TRAFFIC") || $0.hasPrefix("SERVER_TRAFFIC")
        }
        #expect(lines.count == 2)
        let keyLog = try TLSKeyLog(parsing: Array(lines.joined(separator: "\n").utf8), source: connection.name)
        let outcome = TLSConnectionDecoderHarness.decode(
            connection.records.map { ($0.fromClient, $0.bytes) }, keyLog: keyLog, chunkSizes: [333])
        #expect(outcome.clientPlaintext == connection.clientApplicationData)
        #expect(outcome.serverPlaintext == connection.serverApplicationData)
        #expect(outcome.problems.map(\.message) == [])
        #expect(outcome.passOvers.map(\.message) == [])
    }

    @Test(
        "TLS 1.2 with a wrong master secret: each side stops at its Finished with one tlsDecryptionFailed",
        arguments: TLSRecordVectors.connections.filter { !$0.isTLS13 })
    func tls12WrongMasterSecret(_ connection: TLSRecordVectors.Connection) throws {
        let text = "CLIENT_RANDOM \(connection.clientRandomHex) \(String(repeating: "5a", count: 48))\n"
        let keyLog = try TLSKeyLog(parsing: Array(text.utf8), source: connection.name)
        let outcome = TLSConnectionDecoderHarness.decode(
            connection.records.map { ($0.fromClient, $0.bytes) }, keyLog: keyLog)
        let suite = try #require(TLSCipherSuite.named(connection.cipherSuite))
        #expect(outcome.clientPlaintext.isEmpty)
        #expect(outcome.serverPlaintext.isEmpty)
        #expect(outcome.passOvers.map(\.message) == [])
        let tail =
            "\(suite.name)) does not decrypt: its authentication tag does not match (a key log entry that is not this "
            + "connection's, or damaged bytes); the records after it from the"
        #expect(
            outcome.problems.map(\.message) == [
                "the client's record 4 (sequence number 0, \(tail) client are passed over",
                "the server's record 3 (sequence number 0, \(tail) server are passed over",
            ])
    }
}
