import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("TLS connection decoding: handshakes cut or retried read whole, and key logs that cannot open a side say so")
struct TLSConnectionDecoderTests {
    static let request = Array("a request from the client".utf8)
    static let answer = Array("an answer from the server".utf8)

    /// A connection's records in the order they are sent: hellos, flights, application data.
    static func records(_ tls: inout SyntheticTLS13Connection) -> [(fromClient: Bool, bytes: [UInt8])] {
        [
            (true, tls.clientHelloRecord()),
            (false, tls.serverHandshakeRecords()),
            (true, tls.clientFinishedRecords() + tls.clientApplicationRecords(request)),
            (false, tls.serverApplicationRecords(answer, withTicket: true)),
        ]
    }

    static func keyLog(_ text: String) throws -> TLSKeyLog { try TLSKeyLog(parsing: Array(text.utf8), source: "test") }

    @Test("a ClientHello cut across two records (RFC 8446 section 5.1) is read, and the connection with it")
    func clientHelloAcrossRecords() throws {
        var tls = SyntheticTLS13Connection(seed: 20)
        var records = Self.records(&tls)
        let hello = records[0].bytes
        let fragment = hello.dropFirst(5)
        let cut = 40
        records[0].bytes =
            SyntheticTLS13Connection.record(22, Array(fragment.prefix(cut)), version: 0x0301)
            + SyntheticTLS13Connection.record(22, Array(fragment.dropFirst(cut)), version: 0x0301)
        for chunkSizes in [[], [1], [7, 45]] {
            let outcome = TLSConnectionDecoderHarness.decode(
                records, keyLog: try Self.keyLog(tls.keyLog()), chunkSizes: chunkSizes)
            #expect(outcome.passOvers.map(\.message) == [])
            #expect(outcome.clientPlaintext == Self.request)
            #expect(outcome.serverPlaintext == Self.answer)
            #expect(outcome.decoder.clientRandom == tls.clientRandom)
        }
    }

    @Test("after a HelloRetryRequest the second ServerHello sets up decryption, under the first ClientHello's random")
    func helloRetryRequest() throws {
        var tls = SyntheticTLS13Connection(seed: 21)
        var records = Self.records(&tls)
        // The second ClientHello keeps the random (RFC 8446 section 4.1.2); here it is the first again.
        records.insert(contentsOf: [(false, tls.helloRetryRequestRecords()), (true, tls.clientHelloRecord())], at: 1)
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: try Self.keyLog(tls.keyLog()))
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(outcome.problems.map(\.message) == [])
        #expect(outcome.clientPlaintext == Self.request)
        #expect(outcome.serverPlaintext == Self.answer)
    }

    @Test(
        "wrong *_TRAFFIC_SECRET_0 lines and no handshake secrets: each side's unopened records are reported at its end")
    func wrongTrafficSecretsWithoutHandshakeSecrets() throws {
        var tls = SyntheticTLS13Connection(seed: 22)
        let records = Self.records(&tls)
        let random = hexString(tls.clientRandom)
        let text =
            "CLIENT_TRAFFIC_SECRET_0 \(random) \(String(repeating: "01", count: 32))\n"
            + "SERVER_TRAFFIC_SECRET_0 \(random) \(String(repeating: "02", count: 32))\n"
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: try Self.keyLog(text))
        #expect(outcome.clientPlaintext.isEmpty)
        #expect(outcome.serverPlaintext.isEmpty)
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(outcome.problems.map(\.code) == [.tlsDecryptionFailed, .tlsDecryptionFailed])
        let tail =
            "opens with its traffic secret from the key log (no handshake secret was given): they were all handshake "
            + "records, or the secret is not this connection's"
        #expect(
            outcome.problems.map(\.message) == [
                "none of the 2 protected records the client sent \(tail)",
                "none of the 3 protected records the server sent \(tail)",
            ])
    }

    @Test("a key log with the server's traffic secret alone: the client's side is one tlsKeyMissing, the server's read")
    func clientSecretMissing() throws {
        var tls = SyntheticTLS13Connection(seed: 23)
        let records = Self.records(&tls)
        let text = "SERVER_TRAFFIC_SECRET_0 \(hexString(tls.clientRandom)) \(hexString(tls.serverTrafficSecret))\n"
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: try Self.keyLog(text))
        #expect(outcome.clientPlaintext.isEmpty)
        #expect(outcome.serverPlaintext == Self.answer)
        #expect(outcome.problems.map(\.code) == [.tlsKeyMissing])
        #expect(
            outcome.problems.map(\.message) == [
                "the key log holds no CLIENT_TRAFFIC_SECRET_0 of 32 bytes for the connection (its "
                    + "TLS_AES_128_GCM_SHA256 records need one), so the client's records cannot be decrypted"
            ])
    }

    @Test("secrets of 32 bytes for a SHA-384 suite open nothing: one tlsKeyMissing for each side, saying 48 bytes")
    func secretsOfTheWrongLength() throws {
        var tls = SyntheticTLS13Connection(seed: 24, cipherSuite: 0x1302)
        let records = Self.records(&tls)
        let random = hexString(tls.clientRandom)
        let text = [
            "CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
            "SERVER_TRAFFIC_SECRET_0",
        ]
        .map { "\($0) \(random) \(String(repeating: "33", count: 32))\n" }.joined()
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: try Self.keyLog(text))
        #expect(outcome.clientPlaintext.isEmpty)
        #expect(outcome.serverPlaintext.isEmpty)
        #expect(
            outcome.problems.map(\.message) == [
                "the key log holds no SERVER_TRAFFIC_SECRET_0 of 48 bytes for the connection (its "
                    + "TLS_AES_256_GCM_SHA384 records need one), so the server's records cannot be decrypted",
                "the key log holds no CLIENT_TRAFFIC_SECRET_0 of 48 bytes for the connection (its "
                    + "TLS_AES_256_GCM_SHA384 records need one), so the client's records cannot be decrypted",
            ])
    }

    @Test("a connection that decrypts says nothing when it ends, with or without the handshake secrets")
    func quietEnd() throws {
        for handshakeSecrets in [true, false] {
            var tls = SyntheticTLS13Connection(seed: 25)
            let outcome = TLSConnectionDecoderHarness.decode(
                Self.records(&tls), keyLog: try Self.keyLog(tls.keyLog(handshakeSecrets: handshakeSecrets)))
            #expect(outcome.problems.map(\.message) == [])
            #expect(outcome.clientPlaintext == Self.request)
            #expect(outcome.serverPlaintext == Self.answer)
        }
    }
}
