import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("TLS key schedule: RFC 8448's keys, IVs and derived secrets, and the TLS 1.2 PRF's published vectors")
struct TLSKeyScheduleTests {
    /// A traffic secret of an RFC 8448 trace and the write key and IV the RFC derives from it.
    struct TrafficKeys: Sendable, CustomTestStringConvertible {
        var fixture: String
        var secret: String
        var key: String
        var iv: String
        var testDescription: String { "\(fixture): \(secret)" }
    }

    static let trafficKeys: [TrafficKeys] = [
        TrafficKeys(
            fixture: "rfc8448-simple-1rtt.txt", secret: "server_handshake_traffic_secret",
            key: "server_handshake_key", iv: "server_handshake_iv"),
        TrafficKeys(
            fixture: "rfc8448-simple-1rtt.txt", secret: "client_handshake_traffic_secret",
            key: "client_handshake_key", iv: "client_handshake_iv"),
        TrafficKeys(
            fixture: "rfc8448-simple-1rtt.txt", secret: "server_application_traffic_secret",
            key: "server_application_key", iv: "server_application_iv"),
        TrafficKeys(
            fixture: "rfc8448-simple-1rtt.txt", secret: "client_application_traffic_secret",
            key: "client_application_key", iv: "client_application_iv"),
        TrafficKeys(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_early_traffic_secret", key: "client_early_key",
            iv: "client_early_iv"),
        TrafficKeys(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "server_handshake_traffic_secret",
            key: "server_handshake_key", iv: "server_handshake_iv"),
        TrafficKeys(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_handshake_traffic_secret",
            key: "client_handshake_key", iv: "client_handshake_iv"),
        TrafficKeys(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "server_application_traffic_secret",
            key: "server_application_key", iv: "server_application_iv"),
        TrafficKeys(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_application_traffic_secret",
            key: "client_application_key", iv: "client_application_iv"),
    ]

    @Test("trafficKeys gives RFC 8448's write key and IV for each of its traffic secrets", arguments: trafficKeys)
    func trafficKeysFromSecret(_ vector: TrafficKeys) throws {
        let trace = try RFC8448Trace(fixture: vector.fixture)
        let suite = try #require(TLSCipherSuite.named(0x1301))
        let keys = TLSKeySchedule.trafficKeys(suite, secret: try trace[vector.secret])
        #expect(hexString(keys.key) == hexString(try trace[vector.key]))
        #expect(hexString(keys.iv) == hexString(try trace[vector.iv]))
        // The same through HKDF-Expand-Label itself: "key" for 16 octets, "iv" for 12.
        #expect(
            TLSKeySchedule.expandLabel(.sha256, secret: try trace[vector.secret], label: "key", length: 16)
                == (try trace[vector.key]))
        #expect(
            TLSKeySchedule.expandLabel(.sha256, secret: try trace[vector.secret], label: "iv", length: 12)
                == (try trace[vector.iv]))
    }

    /// An HKDF-Expand-Label of RFC 8448 section 3 with a context: the secret, label, context and
    /// the output, as entries of the trace.
    struct LabelledExpansion: Sendable, CustomTestStringConvertible {
        var secret: String
        var label: String
        var context: String?
        var output: String
        var testDescription: String { "\"tls13 \(label)\" from \(secret)" }
    }

    static let expansions: [LabelledExpansion] = [
        LabelledExpansion(
            secret: "early_secret", label: "derived", context: "empty_hash", output: "derived_for_handshake"),
        LabelledExpansion(
            secret: "handshake_secret", label: "c hs traffic", context: "handshake_transcript_hash",
            output: "client_handshake_traffic_secret"),
        LabelledExpansion(
            secret: "handshake_secret", label: "s hs traffic", context: "handshake_transcript_hash",
            output: "server_handshake_traffic_secret"),
        LabelledExpansion(
            secret: "master_secret", label: "c ap traffic", context: "application_transcript_hash",
            output: "client_application_traffic_secret"),
        LabelledExpansion(
            secret: "master_secret", label: "s ap traffic", context: "application_transcript_hash",
            output: "server_application_traffic_secret"),
        LabelledExpansion(
            secret: "server_handshake_traffic_secret", label: "finished", context: nil, output: "server_finished_key"),
        LabelledExpansion(
            secret: "client_handshake_traffic_secret", label: "finished", context: nil, output: "client_finished_key"),
        LabelledExpansion(
            secret: "resumption_master_secret", label: "resumption", context: "resumption_ticket_nonce",
            output: "resumption_psk"),
    ]

    @Test("expandLabel with a context gives RFC 8448's derived secrets", arguments: expansions)
    func expandLabelWithContext(_ expansion: LabelledExpansion) throws {
        let trace = try RFC8448Trace.simple1RTT()
        let output = TLSKeySchedule.expandLabel(
            .sha256, secret: try trace[expansion.secret], label: expansion.label,
            context: try expansion.context.map { try trace[$0] } ?? [], length: 32)
        #expect(hexString(output) == hexString(try trace[expansion.output]))
    }

    @Test(
        "the TLS 1.2 PRF gives the published P_SHA256 (IETF TLS list) and P_SHA384 test vectors",
        arguments: [
            // www.ietf.org/mail-archive/web/tls/current/msg03416.html, "TLS 1.2 test vectors": 100
            // octets of P_SHA256.
            (
                hash: TLSCipherSuite.Hash.sha256, secret: "9bbe436ba940f017b17652849a71db35",
                seed: "a0ba9f936cda311827a6f796ffd5198c",
                output:
                    "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14baf9af"
                    + "0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff701"
                    + "87347b66"
            ),
            // Its P_SHA384 companion from the same set of vectors: 148 octets.
            (
                hash: TLSCipherSuite.Hash.sha384, secret: "b80b733d6ceefcdc71566ea48e5567df",
                seed: "cd665cf6a8447dd6ff8b27555edb7465",
                output:
                    "7b0c18e9ced410ed1804f2cfa34a336a1c14dffb4900bb5fd7942107e81c83cde9ca0faa60be9fe34f82b1233c9146a0"
                    + "e534cb400fed2700884f9dc236f80edd8bfa961144c9e8d792eca722a7b32fc3d416d473ebc2c5fd4abfdad05d918425"
                    + "9b5bf8cd4d90fa0d31e2dec479e4f1a26066f2eea9a69236a3e52655c9e9aee691c8f3a26854308d5eaa3be85e099070"
                    + "3d73e56f"
            ),
        ])
    func tls12PRF(hash: TLSCipherSuite.Hash, secret: String, seed: String, output: String) {
        let length = output.count / 2
        let computed = TLSKeySchedule.prf(
            hash, secret: hexBytes(secret), label: "test label", seed: hexBytes(seed), length: length)
        #expect(hexString(computed) == output)
    }

    @Test(
        "tls12Keys cuts the key block the PRF makes as pyca/cryptography's script did",
        arguments: TLSRecordVectors.connections.filter { !$0.isTLS13 })
    func tls12KeyBlock(_ connection: TLSRecordVectors.Connection) throws {
        let suite = try #require(TLSCipherSuite.named(connection.cipherSuite))
        let block = try #require(connection.keyBlock)
        let keys = TLSKeySchedule.tls12Keys(
            suite, masterSecret: hexBytes(try #require(connection.masterSecretHex)),
            clientRandom: connection.clientRandom, serverRandom: connection.serverRandom)
        #expect(hexString(keys.clientKey) == block.clientKeyHex)
        #expect(hexString(keys.serverKey) == block.serverKeyHex)
        #expect(hexString(keys.clientIV) == block.clientIVHex)
        #expect(hexString(keys.serverIV) == block.serverIVHex)
    }

    @Test(
        "nextTrafficSecret is HKDF-Expand-Label(secret, \"traffic upd\") as pyca/cryptography's script computed it",
        arguments: TLSRecordVectors.connections.filter { ($0.trafficSecrets?["client"]?.count ?? 0) > 1 })
    func keyUpdateSecrets(_ connection: TLSRecordVectors.Connection) throws {
        let suite = try #require(TLSCipherSuite.named(connection.cipherSuite))
        let secrets = try #require(connection.trafficSecrets)
        for side in ["client", "server"] {
            let chain = try #require(secrets[side])
            #expect(chain.count == 3)
            for (secret, next) in zip(chain, chain.dropFirst()) {
                #expect(hexString(TLSKeySchedule.nextTrafficSecret(suite, secret: hexBytes(secret))) == next)
            }
        }
    }
}
