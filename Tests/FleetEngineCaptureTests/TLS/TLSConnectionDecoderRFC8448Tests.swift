import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("TLS connection decoding: RFC 8448's connections give exactly their application data, however TCP cuts them")
struct TLSConnectionDecoderRFC8448Tests {
    /// Section 3's records in the order the RFC sends them.
    static func simple1RTTRecords(_ trace: RFC8448Trace) throws -> [(fromClient: Bool, bytes: [UInt8])] {
        [
            (true, try trace["client_hello_record"]),
            (false, try trace["server_hello_record"]),
            (false, try trace["server_flight_record"]),
            (true, try trace["client_finished_record"]),
            (false, try trace["new_session_ticket_record"]),
            (true, try trace["client_application_data_record"]),
            (false, try trace["server_application_data_record"]),
            (true, try trace["client_alert_record"]),
            (false, try trace["server_alert_record"]),
        ]
    }

    static let fiftyOctets = (0..<50).map { UInt8($0) }

    /// How the records reach the decoder: each on its own, or the runs one side sent in a row cut
    /// into chunks of these sizes, used in turn.
    static let chunkings: [[Int]] = [
        [],  // each record on its own
        [1],  // byte by byte
        [3, 1, 4, 1, 5, 9, 2, 6],  // headers cut in every place
        [7, 300, 13, 2, 64, 1_000],  // records spanning chunks
        [100_000],  // every run at once: several records a chunk
    ]

    @Test(
        "with the four secrets, or only the two *_TRAFFIC_SECRET_0 lines (the handshake records then passed over), each side's application data is exactly the RFC's 50 octets",
        arguments: [true, false], chunkings)
    func applicationData(handshakeSecrets: Bool, chunkSizes: [Int]) throws {
        let trace = try RFC8448Trace.simple1RTT()
        let text = handshakeSecrets ? try trace.fullKeyLog() : try trace.trafficSecretsOnlyKeyLog()
        let keyLog = try TLSKeyLog(parsing: Array(text.utf8), source: "RFC 8448 key log")
        let outcome = TLSConnectionDecoderHarness.decode(
            try Self.simple1RTTRecords(trace), keyLog: keyLog, chunkSizes: chunkSizes)
        #expect(outcome.clientPlaintext == Self.fiftyOctets)
        #expect(outcome.serverPlaintext == Self.fiftyOctets)
        #expect(outcome.clientPlaintextEvents == 1)
        #expect(outcome.serverPlaintextEvents == 1)
        #expect(outcome.problems.map(\.message) == [])
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(outcome.decoder.foundKeys)
        #expect(outcome.decoder.clientRandom == (try trace["client_random"]))
        #expect(outcome.decoder.suite?.name == "TLS_AES_128_GCM_SHA256")
        #expect(outcome.decoder.alpn == nil)
        #expect(outcome.decoder.bufferedByteCount == 0)
    }

    @Test("a key log for another client random gives one tlsKeyMissing naming the connection's client random")
    func otherConnectionsKeys() throws {
        let trace = try RFC8448Trace.simple1RTT()
        let other = try RFC8448Trace.resumed0RTT()
        let keyLog = try TLSKeyLog(parsing: Array(try other.fullKeyLog().utf8), source: "other")
        let outcome = TLSConnectionDecoderHarness.decode(try Self.simple1RTTRecords(trace), keyLog: keyLog)
        #expect(outcome.clientPlaintext.isEmpty)
        #expect(outcome.serverPlaintext.isEmpty)
        #expect(outcome.problems.isEmpty)
        #expect(
            outcome.passOvers.map(\.message) == [
                "the key log holds no secrets for the TLS connection (client random "
                    + "cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7), so its TLS_AES_128_GCM_SHA256 "
                    + "records cannot be decrypted and are passed over; give the key log its client wrote (SSLKEYLOGFILE)"
            ])
        #expect(outcome.passOvers.map(\.code) == [.tlsKeyMissing])
        #expect(!outcome.decoder.foundKeys)
    }

    @Test("a wrong server handshake secret stops the server's side at its flight; the client's side is still read")
    func wrongServerHandshakeSecret() throws {
        let trace = try RFC8448Trace.simple1RTT()
        let clientRandom = hexString(try trace["client_random"])
        let text =
            try trace.fullKeyLog()
            + "SERVER_HANDSHAKE_TRAFFIC_SECRET \(clientRandom) \(hexString([UInt8](repeating: 0x42, count: 32)))\n"
        let keyLog = try TLSKeyLog(parsing: Array(text.utf8), source: "wrong")
        let outcome = TLSConnectionDecoderHarness.decode(try Self.simple1RTTRecords(trace), keyLog: keyLog)
        #expect(outcome.clientPlaintext == Self.fiftyOctets)
        #expect(outcome.serverPlaintext.isEmpty)
        #expect(outcome.passOvers.isEmpty)
        #expect(outcome.problems.map(\.code) == [.tlsDecryptionFailed])
        #expect(
            outcome.problems.map(\.message) == [
                "the server's record 2 (sequence number 0, TLS_AES_128_GCM_SHA256) does not decrypt: its "
                    + "authentication tag does not match (a key log entry that is not this connection's, or damaged "
                    + "bytes); the records after it from the server are passed over"
            ])
    }

    // MARK: Section 4

    /// Section 4's records in the order the RFC sends them: the client's 0-RTT data right after its
    /// ClientHello, its EndOfEarlyData before its Finished.
    static func resumed0RTTRecords(_ trace: RFC8448Trace) throws -> [(fromClient: Bool, bytes: [UInt8])] {
        [
            (true, try trace["client_hello_record"]),
            (true, try trace["early_application_data_record"]),
            (false, try trace["server_hello_record"]),
            (false, try trace["server_flight_record"]),
            (true, try trace["end_of_early_data_record"]),
            (true, try trace["client_finished_record"]),
            (true, try trace["client_application_data_record"]),
            (false, try trace["server_application_data_record"]),
            (true, try trace["client_alert_record"]),
            (false, try trace["server_alert_record"]),
        ]
    }

    @Test(
        "a resumed 0-RTT connection: its application data after the handshake is read both ways, its early data reported once",
        arguments: chunkings)
    func resumedWithEarlyData(chunkSizes: [Int]) throws {
        let trace = try RFC8448Trace.resumed0RTT()
        let text =
            try trace.fullKeyLog()
            + (try trace.keyLog(["CLIENT_EARLY_TRAFFIC_SECRET": "client_early_traffic_secret"]))
        let keyLog = try TLSKeyLog(parsing: Array(text.utf8), source: "RFC 8448 section 4")
        let outcome = TLSConnectionDecoderHarness.decode(
            try Self.resumed0RTTRecords(trace), keyLog: keyLog, chunkSizes: chunkSizes)
        #expect(outcome.clientPlaintext == Self.fiftyOctets)
        #expect(outcome.serverPlaintext == Self.fiftyOctets)
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(outcome.problems.map(\.code) == [.tlsUnsupported])
        #expect(
            outcome.problems.map(\.message) == [
                "the client's record 2 is 0-RTT early data, which the decoder does not decrypt (it reads a "
                    + "connection from its handshake on); the client's early data is passed over"
            ])
    }

    @Test("0-RTT early data that reaches the decoder after the ServerHello (a capture at the server) is skipped too")
    func earlyDataAfterServerHello() throws {
        let trace = try RFC8448Trace.resumed0RTT()
        let keyLog = try TLSKeyLog(parsing: Array(try trace.fullKeyLog().utf8), source: "RFC 8448 section 4")
        var records = try Self.resumed0RTTRecords(trace)
        // The early data after the server's flight: the server answered before it arrived.
        records.insert(records.remove(at: 1), at: 3)
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: keyLog)
        #expect(outcome.clientPlaintext == Self.fiftyOctets)
        #expect(outcome.serverPlaintext == Self.fiftyOctets)
        #expect(outcome.passOvers.map(\.message) == [])
        #expect(
            outcome.problems.map(\.message) == [
                "the client's record 2 is 0-RTT early data, which the decoder does not decrypt (it reads a "
                    + "connection from its handshake on); the client's early data is passed over"
            ])
    }

    @Test("section 4 without its two 0-RTT records (the early data and EndOfEarlyData) reads like a full handshake")
    func resumedWithoutEarlyData() throws {
        let trace = try RFC8448Trace.resumed0RTT()
        let keyLog = try TLSKeyLog(parsing: Array(try trace.fullKeyLog().utf8), source: "RFC 8448 section 4")
        let records = try Self.resumed0RTTRecords(trace).enumerated().filter { ![1, 4].contains($0.offset) }
            .map(\.element)
        let outcome = TLSConnectionDecoderHarness.decode(records, keyLog: keyLog)
        #expect(outcome.clientPlaintext == Self.fiftyOctets)
        #expect(outcome.serverPlaintext == Self.fiftyOctets)
        #expect(outcome.problems.map(\.message) == [])
        #expect(outcome.passOvers.map(\.message) == [])
    }
}
