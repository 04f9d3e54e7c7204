import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("Bytes acknowledged after the last one captured are reported missing when the capture ends")
struct TCPAcknowledgedTailTests {
    typealias Traffic = TCPTestTraffic

    /// A stream from sequence number 1,000 with 100 bytes captured, the acknowledgments `acks`
    /// (sequence numbers) from the other side, an optional FIN right after the data, then the end
    /// of the capture.
    static func stream(acks: [UInt32], finAt fin: UInt32? = nil) -> Traffic.Stream {
        var reassembler = TCPStreamReassembler()
        var stream = Traffic.Stream()
        Traffic.read(reassembler.receive(Traffic.segment(1_000, Traffic.bytes(100))), into: &stream)
        if let fin { Traffic.read(reassembler.receive(Traffic.segment(fin, flags: [.fin, .ack])), into: &stream) }
        for ack in acks { Traffic.read(reassembler.acknowledged(ack, at: Traffic.time(1)), into: &stream) }
        Traffic.read(reassembler.finish(at: Traffic.time(2)), into: &stream)
        return stream
    }

    @Test("200 bytes acknowledged past the data: a gap of 200 at the end, after the data")
    func acknowledgedTail() {
        let stream = Self.stream(acks: [1_050, 1_300, 1_200])
        #expect(stream.gaps == [Traffic.Gap(100, 200)])
        #expect(stream.bytes == Traffic.bytes(100))
        #expect(stream.isContiguous)
    }

    @Test(
        "no gap when nothing past the data is acknowledged, when only one past it is (a lost FIN reads the same), or after a FIN",
        arguments: [[UInt32(1_100)], [1_101], []])
    func noTail(acks: [UInt32]) {
        #expect(Self.stream(acks: acks).gaps.isEmpty)
        #expect(Self.stream(acks: acks + [1_300], finAt: 1_100).gaps.isEmpty)
    }

    @Test("the server's trailers lost at the end of the capture, the client's acknowledgment of them kept")
    func lostTrailersAtTheEnd() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 5).serializedBytes())
        conversation.headers(LostFrameCaptureTests.head, streamID: 1, endStream: false, fromClient: false)
        conversation.data(framed, streamID: 1, endStream: false, fromClient: false)
        let trailersStart = conversation.serverBytes.count
        conversation.headers(
            GRPCConversation.trailerFields(CallStatus(code: .ok)), streamID: 1, endStream: true, fromClient: false)
        let trailersLength = conversation.serverBytes.count - trailersStart
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_800, serverPort: 50_051)
        var packets = connection.handshake() + connection.send(conversation.clientBytes, from: .client)
        // The server's bytes in two segments, the second (the trailers' frame) lost; the client
        // then acknowledges everything the server sent.
        let server = connection.send(
            conversation.serverBytes, from: .server,
            segmentSizes: [conversation.serverBytes.count - trailersLength, trailersLength])
        packets += [server[0], connection.ack(from: .client)]
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        // Before, nothing said that the capture lost bytes: the call just ended with the capture.
        let gap = try #require(records.problems.first { $0.error.code == .truncatedCapture })
        #expect(gap.error.message.hasPrefix("\(trailersLength) bytes sent by \(connection.endpoint(of: .server))"))
        #expect(gap.error.message.contains("at stream offset \(trailersStart)"))
        #expect(records.problems.count == 1)
        // Which frames the bytes held is not known, so the call ends with the capture.
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .unavailable)
        #expect(records.messages.filter { $0.direction == .response }.count == 1)
    }
}
