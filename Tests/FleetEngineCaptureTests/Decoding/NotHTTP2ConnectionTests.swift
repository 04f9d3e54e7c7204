import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("Connections that are not HTTP/2: one problem each, their bytes passed over, the others decoded")
struct NotHTTP2ConnectionTests {
    /// TLS records as a client and a server send them: a handshake record, then application data.
    static func tlsBytes(records: Int, seed: UInt8) -> [UInt8] {
        var bytes: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00] + [UInt8](repeating: 0x01, count: 512)
        for index in 0..<records {
            let body = (0..<4_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &+ Int(seed)) }
            bytes += [0x17, 0x03, 0x03, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        }
        return bytes
    }

    /// A GetTrip on a cleartext HTTP/2 connection, its client bytes cut at `segmentSizes`.
    static func getTripPackets(clientPort: UInt16, segmentSizes: [Int] = []) throws -> [[UInt8]] {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(
            HTTP2StreamDecoderTests.trip(points: 5), status: CallStatus(code: .ok), streamID: 1)
        var connection = SyntheticTCPConnection.ipv4(clientPort: clientPort, serverPort: 50_051)
        return connection.handshake()
            + connection.send(conversation.clientBytes, from: .client, segmentSizes: segmentSizes)
            + connection.send(conversation.serverBytes, from: .server)
    }

    @Test(
        "a TLS connection without a readable ClientHello beside a cleartext one: one TLS problem for it, the GetTrip beside it read whole"
    )
    func tlsBesideHTTP2() throws {
        var tls = SyntheticTCPConnection.ipv4(clientPort: 50_001, serverPort: 443)
        // Segments of 16,000 bytes, as many as the longest stream needs.
        let segments = [Int](repeating: 16_000, count: 64)
        var packets = tls.handshake()
        packets += tls.send(Self.tlsBytes(records: 1, seed: 1), from: .client, segmentSizes: segments)
        packets += tls.send(Self.tlsBytes(records: 200, seed: 2), from: .server, segmentSizes: segments)
        packets += try Self.getTripPackets(clientPort: 50_002)
        packets += tls.send(Self.tlsBytes(records: 50, seed: 3), from: .client, segmentSizes: segments)

        var decoder = CaptureDecoder()
        var records = try decoder.decode(CaptureWriter.file(of: packets))
        records += try decoder.finish()

        let problems = records.problems
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        // The first record announces a ClientHello of 65,793 bytes, longer than any the decoder
        // reads (64 KiB): the connection cannot be matched to a key log entry.
        #expect(problem.error.code == CaptureError.Code.malformedTLSRecord)
        #expect(problem.error.message.contains("65793 bytes"))
        #expect(problem.connection?.client?.port == 50_001)
        #expect(problem.error.message.contains("TLS on "))
        #expect(records.messages.compactMap { $0.message as? Trip } == [HTTP2StreamDecoderTests.trip(points: 5)])
        #expect(records.callEnds.map(\.status.code) == [.ok])
        #expect(records.callEnds.allSatisfy { $0.connection.client?.port == 50_002 })
    }

    @Test("a client whose first bytes the capture lost is not judged by the bytes after the gap")
    func firstClientBytesLost() throws {
        // The client's first segment (the preface's first 30 bytes) is missing from the capture.
        var packets = try Self.getTripPackets(clientPort: 50_004, segmentSizes: [30])
        packets.remove(at: 3)
        var decoder = CaptureDecoder()
        var records = try decoder.decode(CaptureWriter.file(of: packets))
        records += try decoder.finish()
        #expect(records.problems.allSatisfy { $0.error.code != CaptureError.Code.notHTTP2 })
        #expect(records.problems.contains { $0.error.code == CaptureError.Code.truncatedCapture })
        // The server's side is whole: its trip is read.
        #expect(records.messages.compactMap { $0.message as? Trip } == [HTTP2StreamDecoderTests.trip(points: 5)])
    }

    @Test("a preface cut across three segments is still a preface")
    func prefaceAcrossSegments() throws {
        var decoder = CaptureDecoder()
        var records = try decoder.decode(
            CaptureWriter.file(of: try Self.getTripPackets(clientPort: 50_003, segmentSizes: [5, 10, 20])))
        records += try decoder.finish()
        #expect(records.problems.isEmpty)
        #expect(records.messages.compactMap { $0.message as? Trip } == [HTTP2StreamDecoderTests.trip(points: 5)])
        #expect(records.callEnds.map(\.status.code) == [.ok])
    }
}
