import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@testable import FleetEngineCapture

@Suite("Captures of gRPC inside TLS 1.3: read as in the clear with the key log, and one problem for what cannot be")
struct TLSCaptureDecodingTests {
    /// What a message record says, every field but the timestamp and the connection.
    struct MessageSummary: Equatable, CustomStringConvertible {
        var streamID: UInt32
        var direction: CallDirection
        var method: String?
        var payload: [UInt8]

        init(_ message: CapturedMessage) {
            streamID = message.streamID
            direction = message.direction
            method = message.method
            payload = message.payload
        }

        var description: String { "stream \(streamID) \(direction) \(method ?? "?") \(payload.count) bytes" }
    }

    /// What a call end says, but its times.
    struct CallEndSummary: Equatable {
        var streamID: UInt32
        var method: String?
        var code: StatusCode
        var requestMessageCount: Int
        var responseMessageCount: Int

        init(_ end: CapturedCallEnd) {
            streamID = end.streamID
            method = end.method
            code = end.status.code
            requestMessageCount = end.requestMessageCount
            responseMessageCount = end.responseMessageCount
        }
    }

    /// Two GetTrip calls: a small answer on stream 1, a large one (several records) on stream 3.
    /// Also the length of the server's bytes up to the end of the first answer.
    static func conversation() throws -> (conversation: GRPCConversation, firstAnswerEnd: Int) {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 3)
        try conversation.response(
            HTTP2StreamDecoderTests.trip(points: 5), status: CallStatus(code: .ok), streamID: 1)
        let firstAnswerEnd = conversation.serverBytes.count
        try conversation.response(
            HTTP2StreamDecoderTests.trip(points: 300), status: CallStatus(code: .ok), streamID: 3)
        return (conversation, firstAnswerEnd)
    }

    /// The records of the same conversation in cleartext HTTP/2.
    static func cleartextRecords() throws -> [CaptureRecord] {
        let conversation = try conversation().conversation
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_020, serverPort: 50_051)
        let packets =
            tcp.handshake() + tcp.send(conversation.clientBytes, from: .client)
            + tcp.send(conversation.serverBytes, from: .server)
        return try decode(CaptureWriter.file(of: packets))
    }

    static func decode(_ file: [UInt8], keyLog: TLSKeyLog = TLSKeyLog()) throws -> [CaptureRecord] {
        try GRPCIOCaptureTests.decode(
            file, chunkSize: max(file.count, 1), options: CaptureOptions(tlsKeyLog: keyLog))
    }

    static func keyLog(_ text: String) throws -> TLSKeyLog {
        try TLSKeyLog(parsing: Array(text.utf8), source: "test key log")
    }

    /// The packets of the conversation inside TLS: the hellos, the server's flight, the client's
    /// Finished and requests, the server's answers (the first on their own, then the rest), each
    /// side's application data cut into TCP segments of `segmentSizes`.
    static func tlsPackets(
        _ tls: inout SyntheticTLS13Connection, tcp: inout SyntheticTCPConnection, segmentSizes: [Int] = []
    ) throws -> (handshake: [[UInt8]], client: [[UInt8]], firstAnswer: [[UInt8]], restOfServer: [[UInt8]]) {
        let (conversation, firstAnswerEnd) = try conversation()
        let handshake =
            tcp.handshake() + tcp.send(tls.clientHelloRecord(), from: .client)
            + tcp.send(tls.serverHandshakeRecords(), from: .server)
        let client = tcp.send(
            tls.clientFinishedRecords() + tls.clientApplicationRecords(conversation.clientBytes), from: .client,
            segmentSizes: segmentSizes)
        let firstAnswer = tcp.send(
            tls.serverApplicationRecords(Array(conversation.serverBytes.prefix(firstAnswerEnd)), withTicket: true),
            from: .server, segmentSizes: segmentSizes)
        let rest = tcp.send(
            tls.serverApplicationRecords(Array(conversation.serverBytes.dropFirst(firstAnswerEnd)))
                + tls.closeNotify(fromClient: false),
            from: .server, segmentSizes: segmentSizes.isEmpty ? Array(repeating: 1_200, count: 50) : segmentSizes)
        return (handshake, client, firstAnswer, rest)
    }

    @Test(
        "with the key log, the messages and call ends are exactly those of the same conversation in the clear",
        arguments: [
            (handshakeSecrets: true, segmentSizes: []),
            (handshakeSecrets: true, segmentSizes: [7, 333, 1_000, 1]),
            (handshakeSecrets: false, segmentSizes: [1_460]),
        ])
    func decryptsLikeCleartext(handshakeSecrets: Bool, segmentSizes: [Int]) throws {
        let reference = try Self.cleartextRecords()
        #expect(reference.problems.isEmpty)
        var tls = SyntheticTLS13Connection(seed: 1)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_021, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp, segmentSizes: segmentSizes)
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer),
            keyLog: try Self.keyLog(tls.keyLog(handshakeSecrets: handshakeSecrets)))
        #expect(records.problems.map(\.error.message) == [])
        #expect(records.messages.map(MessageSummary.init) == reference.messages.map(MessageSummary.init))
        #expect(records.messages.count == 4)
        #expect(records.callEnds.map(CallEndSummary.init) == reference.callEnds.map(CallEndSummary.init))
        #expect(records.callEnds.map(\.status.code) == [.ok, .ok])
        let clientPorts = Set(records.messages.map { $0.connection.client?.port })
        #expect(clientPorts == [50_021])
    }

    @Test("without the key: exactly one tlsKeyMissing problem, naming the client random, and no messages")
    func withoutKey() throws {
        var tls = SyntheticTLS13Connection(seed: 2)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_022, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer))
        #expect(records.messages.isEmpty)
        #expect(records.callEnds.isEmpty)
        #expect(records.problems.map(\.error.code) == [.tlsKeyMissing])
        #expect(
            records.problems.map(\.error.message) == [
                "TLS on 192.0.2.1:50022 -> 198.51.100.7:443: the key log holds no secrets for the TLS connection "
                    + "(client random \(hexString(tls.clientRandom))), so its TLS_AES_128_GCM_SHA256 records cannot be "
                    + "decrypted and are passed over; give the key log its client wrote (SSLKEYLOGFILE)"
            ])
    }

    @Test(
        "a wrong server traffic secret: one tlsDecryptionFailed naming the server's record; the client's side is read")
    func wrongServerKey() throws {
        let reference = try Self.cleartextRecords()
        var tls = SyntheticTLS13Connection(seed: 3)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_023, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        let wrong =
            tls.keyLog()
            + "SERVER_TRAFFIC_SECRET_0 \(hexString(tls.clientRandom)) \(String(repeating: "42", count: 32))\n"
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer),
            keyLog: try Self.keyLog(wrong))
        #expect(records.problems.map(\.error.code) == [.tlsDecryptionFailed])
        #expect(
            records.problems.map(\.error.message) == [
                "TLS on 192.0.2.1:50023 -> 198.51.100.7:443: the server's record 4 (sequence number 0, "
                    + "TLS_AES_128_GCM_SHA256) does not decrypt: its authentication tag does not match (a key log entry "
                    + "that is not this connection's, or damaged bytes); the records after it from the server are "
                    + "passed over"
            ])
        let requests = reference.messages.filter { $0.direction == .request }.map(MessageSummary.init)
        #expect(records.messages.map(MessageSummary.init) == requests)
    }

    @Test("wrong traffic secrets and no handshake secrets: when the capture ends, one tlsDecryptionFailed per side")
    func wrongTrafficSecretsOnly() throws {
        var tls = SyntheticTLS13Connection(seed: 11)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_030, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        let random = hexString(tls.clientRandom)
        let wrong =
            "CLIENT_TRAFFIC_SECRET_0 \(random) \(String(repeating: "0a", count: 32))\n"
            + "SERVER_TRAFFIC_SECRET_0 \(random) \(String(repeating: "0b", count: 32))\n"
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer),
            keyLog: try Self.keyLog(wrong))
        #expect(records.messages.isEmpty)
        let tail =
            "opens with its traffic secret from the key log (no handshake secret was given): they were all handshake "
            + "records, or the secret is not this connection's"
        #expect(
            records.problems.map(\.error.message) == [
                "TLS on 192.0.2.1:50030 -> 198.51.100.7:443: none of the 2 protected records the client sent \(tail)",
                "TLS on 192.0.2.1:50030 -> 198.51.100.7:443: none of the 11 protected records the server sent \(tail)",
            ])
    }

    @Test("a gap in the server's bytes: one truncatedCapture problem, its later records skipped, the client's read")
    func gapInServerBytes() throws {
        let reference = try Self.cleartextRecords()
        var tls = SyntheticTLS13Connection(seed: 4)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_024, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        #expect(parts.restOfServer.count > 3)
        // The second answer's first segment is lost; the segments after it are captured.
        let records = try Self.decode(
            CaptureWriter.file(
                of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer.dropFirst()),
            keyLog: try Self.keyLog(tls.keyLog()))
        #expect(records.problems.map(\.error.code) == [.truncatedCapture])
        #expect(
            records.problems.map(\.error.message) == [
                "TLS on 192.0.2.1:50024 -> 198.51.100.7:443: 1200 bytes the server sent are missing from the capture; "
                    + "the TLS records after them cannot be decrypted and are skipped"
            ])
        // Both requests and the first answer; the second answer is lost.
        let expected = reference.messages.filter { $0.direction == .request || $0.streamID == 1 }
        #expect(records.messages.map(MessageSummary.init) == expected.map(MessageSummary.init))
        #expect(records.callEnds.map(\.streamID) == [1, 3])
        #expect(records.callEnds.first?.status.code == .ok)
    }

    @Test("a capture that begins after the handshake: one tlsHandshakeMissing problem and nothing else")
    func startsMidConnection() throws {
        var tls = SyntheticTLS13Connection(seed: 5)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_025, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        // The capture holds the client's requests (its Finished first) and the server's answers only.
        let file = CaptureWriter.file(of: parts.client + parts.firstAnswer + parts.restOfServer)
        let records = try Self.decode(file)
        #expect(records.messages.isEmpty)
        #expect(records.callEnds.isEmpty)
        #expect(
            records.problems.map(\.error.message) == [
                "TLS on 192.0.2.1:50025 -> 198.51.100.7:443: the capture does not hold the TLS handshake (it began "
                    + "after the ClientHello), so the connection's secrets cannot be found in a key log, and its "
                    + "records are passed over"
            ])
        #expect(records.problems.map(\.error.code) == [.tlsHandshakeMissing])
        #expect(records.problems.first?.connection?.client?.port == 50_025)
        // With the key log the same, and the key log's note at the end.
        let withKeyLog = try Self.decode(file, keyLog: try Self.keyLog(tls.keyLog()))
        #expect(withKeyLog.problems.map(\.error.code) == [.tlsHandshakeMissing, .keyLogUnused])
    }

    @Test("a pcapng Decryption Secrets Block holding the key log decrypts the capture without options")
    func decryptionSecretsBlock() throws {
        let reference = try Self.cleartextRecords()
        var tls = SyntheticTLS13Connection(seed: 6)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_026, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp, segmentSizes: [1_000])
        var writer = CaptureWriter(format: .pcapng, linkType: .ethernet, timestampResolution: .nanoseconds)
        let keyLog = Array(tls.keyLog().utf8)
        // draft-ietf-opsawg-pcapng section 4.7: secrets type TLS key log ("TLSK"), its length,
        // then the key log padded to 32 bits.
        writer.appendBlock(type: 0x0000_000A) { body in
            body.uint32(0x544C_534B)
            body.uint32(UInt32(keyLog.count))
            body.append(keyLog)
        }
        for (index, packet) in (parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer).enumerated() {
            writer.append(
                packet: LinkLayer.ethernet.wrap(packet),
                timestamp: CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: UInt32(index * 1_000)))
        }
        let records = try Self.decode(writer.bytes)
        #expect(records.problems.map(\.error.message) == [])
        #expect(records.messages.map(MessageSummary.init) == reference.messages.map(MessageSummary.init))
        #expect(records.callEnds.map(CallEndSummary.init) == reference.callEnds.map(CallEndSummary.init))
    }

    @Test("a key log that matches no connection: the connection's tlsKeyMissing, then one keyLogUnused at finish")
    func keyLogForNoConnection() throws {
        var tls = SyntheticTLS13Connection(seed: 7)
        let other = SyntheticTLS13Connection(seed: 8)
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_027, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer),
            keyLog: try Self.keyLog(other.keyLog()))
        #expect(records.problems.map(\.error.code) == [.tlsKeyMissing, .keyLogUnused])
        #expect(
            records.problems.last?.error.message
                == "the key log holds secrets for 1 TLS connections, and none of the capture's 1 TLS connections is "
                + "among them")
    }

    @Test("a key log beside a cleartext capture: one keyLogUnused at finish, the calls read")
    func keyLogBesideCleartext() throws {
        let conversation = try Self.conversation().conversation
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_028, serverPort: 50_051)
        let packets =
            tcp.handshake() + tcp.send(conversation.clientBytes, from: .client)
            + tcp.send(conversation.serverBytes, from: .server)
        let records = try Self.decode(
            CaptureWriter.file(of: packets), keyLog: try Self.keyLog(SyntheticTLS13Connection(seed: 9).keyLog()))
        #expect(records.messages.count == 4)
        #expect(records.problems.map(\.error.code) == [.keyLogUnused])
        #expect(
            records.problems.map(\.error.message) == [
                "the key log holds secrets for 1 TLS connections, and the capture holds no TLS connection whose "
                    + "handshake it saw"
            ])
    }

    @Test("ALPN choosing http/1.1: one notHTTP2 problem, no messages")
    func alpnNotH2() throws {
        var tls = SyntheticTLS13Connection(seed: 10)
        tls.alpn = "http/1.1"
        var tcp = SyntheticTCPConnection.ipv4(clientPort: 50_029, serverPort: 443)
        let parts = try Self.tlsPackets(&tls, tcp: &tcp)
        let records = try Self.decode(
            CaptureWriter.file(of: parts.handshake + parts.client + parts.firstAnswer + parts.restOfServer),
            keyLog: try Self.keyLog(tls.keyLog()))
        #expect(records.messages.isEmpty)
        #expect(records.problems.map(\.error.code) == [.notHTTP2])
    }
}
