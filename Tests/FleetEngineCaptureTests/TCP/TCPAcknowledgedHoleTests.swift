import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("A hole the receiver acknowledged is bytes the capture lost: reported at once, not when the buffer fills")
struct TCPAcknowledgedHoleTests {
    typealias Traffic = TCPTestTraffic

    /// A stream from `start`: 100 bytes, a 100-byte hole, then 100 bytes held back behind it.
    static func streamWithHole(start: UInt32) -> (reassembler: TCPStreamReassembler, stream: Traffic.Stream) {
        var reassembler = TCPStreamReassembler()
        var stream = Traffic.Stream()
        let bytes = Traffic.bytes(300)
        Traffic.read(reassembler.receive(Traffic.segment(start, Array(bytes[0..<100]))), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(start &+ 200, Array(bytes[200..<300]))), into: &stream)
        return (reassembler, stream)
    }

    @Test(
        "an acknowledgment past the hole gives it up and delivers what follows; one short of it changes nothing",
        arguments: [UInt32(1_000), 0xFFFF_FFA0])
    func acknowledgmentPastTheHole(start: UInt32) {
        var (reassembler, stream) = Self.streamWithHole(start: start)
        #expect(stream.bytes.count == 100)
        #expect(reassembler.bufferedBytes == 100)
        // Before the stream's next byte, and inside the hole: nothing is known lost for sure.
        #expect(reassembler.acknowledged(start &+ 50, at: Traffic.time(1)).isEmpty)
        #expect(reassembler.acknowledged(start &+ 150, at: Traffic.time(1)).isEmpty)
        let events = reassembler.acknowledged(start &+ 200, at: Traffic.time(2))
        Traffic.read(events, into: &stream)
        #expect(stream.gaps == [Traffic.Gap(100, 100)])
        #expect(stream.bytes == Array(Traffic.bytes(300)[0..<100]) + Array(Traffic.bytes(300)[200..<300]))
        #expect(stream.isContiguous)
        #expect(reassembler.bufferedBytes == 0)
        if case .gap(_, _, let timestamp) = events.first {
            #expect(timestamp == Traffic.time(2))
        } else {
            Issue.record("the first event is not the gap: \(events)")
        }
    }

    @Test("in a connection, the other side's acknowledgment releases the held-back bytes before its own data")
    func tableReleasesOnTheOtherSidesAcknowledgment() {
        var table = TCPConnectionTable()
        let bytes = Traffic.bytes(300)
        var log: [String] = []
        func read(_ events: [TCPConnectionEvent]) {
            for event in events {
                switch event {
                case .data(_, let from, let data, let streamOffset, _, _):
                    log.append("data \(from == Traffic.client ? "client" : "server") \(streamOffset)+\(data.count)")
                case .gap(_, let from, let streamOffset, let length, _):
                    log.append("gap \(from == Traffic.client ? "client" : "server") \(streamOffset)+\(length)")
                default:
                    break
                }
            }
        }
        read(table.receive(Traffic.segment(1_000, Array(bytes[0..<100]))))
        read(table.receive(Traffic.segment(1_200, Array(bytes[200..<300]))))
        // The server's answer acknowledges all 300 bytes: it got the 100 the capture lost.
        read(
            table.receive(
                Traffic.segment(
                    5_000, [1, 2, 3], from: Traffic.server, to: Traffic.client, acknowledging: 1_300)))
        #expect(log == ["data client 0+100", "gap client 100+100", "data client 200+100", "data server 0+3"])
    }

    @Test("a lost request: the later requests are read before the answers that acknowledge them, one call each")
    func lostRequestInACapture() throws {
        var conversation = GRPCConversation()
        var requestEnds: [Int] = []
        for streamID: UInt32 in [1, 3, 5] {
            try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: streamID)
            requestEnds.append(conversation.clientBytes.count)
        }
        try conversation.answerWithTrips([1, 3, 5])
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_600, serverPort: 50_051)
        var packets = connection.handshake()
        // The client's preface and first request, its second request (lost), its third; then
        // the server's answers, each acknowledging all the client sent.
        let client = connection.send(conversation.clientBytes, from: .client, endingAt: requestEnds)
        #expect(client.count == 3)
        packets += [client[0], client[2]]
        packets += connection.send(conversation.serverBytes, from: .server, segmentSizes: [200, 200, 200])
        // The client is still open at the end of the capture: only acknowledgments release its bytes.
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        let ends = records.callEnds
        #expect(ends.map(\.streamID).sorted() == [1, 3, 5])
        #expect(ends.allSatisfy { $0.status.code == .ok })
        // Streams 1 and 5 were read with their requests (method and latency known).
        for streamID: UInt32 in [1, 5] {
            let end = try #require(ends.first { $0.streamID == streamID })
            #expect(end.method == "/maps.fleetengine.v1.TripService/GetTrip")
            #expect(!end.methodInferred)
            #expect(end.latencyNanoseconds != nil)
        }
        let gap = try #require(records.problems.first { $0.error.code == .truncatedCapture })
        #expect(gap.timestamp != nil)
        // Reported when the server's first answer came, not at the end of the capture.
        let gapIndex = try #require(records.firstIndex { if case .problem = $0 { true } else { false } })
        let firstAnswer = try #require(
            records.firstIndex { if case .message(let m) = $0 { m.direction == .response } else { false } })
        #expect(gapIndex < firstAnswer)
    }
}
