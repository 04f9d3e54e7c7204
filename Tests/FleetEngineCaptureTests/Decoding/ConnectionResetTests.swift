import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// A TCP connection reset while a call is open: the call says what happened to the connection,
/// and bytes still in flight after the reset are reported, not dropped without a word.
@Suite("A reset TCP connection: its calls say so, and the bytes after the reset are reported")
struct ConnectionResetTests {
    @Test("the server's response in flight when the client reset the connection is reported as passed over")
    func responseInFlightAfterTheClientsReset() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(HTTP2StreamDecoderTests.trip(points: 3), status: CallStatus(code: .ok), streamID: 1)
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_900, serverPort: 50_051)
        var packets = connection.handshake()
        packets += connection.send(conversation.clientBytes, from: .client)
        packets.append(connection.rst(from: .client))
        packets += connection.send(conversation.serverBytes, from: .server)
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .unavailable)
        #expect(
            end.status.message
                == "the connection closed before the response ended (no response headers): the client "
                + "(\(connection.client)) reset the TCP connection")
        let passedOver = records.problems.filter { $0.error.message.contains("reset the TCP connection") }
        #expect(passedOver.count == 1)
        #expect(
            passedOver.first?.error.message
                == "\(conversation.serverBytes.count) bytes that \(connection.server) sent after \(connection.client) "
                + "reset the TCP connection are passed over: they were in flight when the reset was sent (RFC 9293 "
                + "section 3.10.7.4), and the connection's calls ended with the reset")
    }

    @Test("a call open when the server reset the TCP connection says the server reset it, not that the capture ended")
    func connectionResetIsNotTheEndOfTheCapture() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_910, serverPort: 50_051)
        var packets = connection.handshake()
        packets += connection.send(conversation.clientBytes, from: .client)
        packets += connection.send(conversation.serverBytes, from: .server)  // SETTINGS only
        packets.append(connection.rst(from: .server))
        // The capture goes on: a whole second call on another connection.
        packets += CaptureExactnessTests.packets(
            try CaptureExactnessTests.conversation(points: 3),
            connection: .ipv4(clientPort: 50_911, serverPort: 50_051))
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()
        let end = try #require(records.callEnds.first { $0.connection.client?.port == 50_910 })
        #expect(end.status.code == .unavailable)
        #expect(
            end.status.message
                == "the connection closed before the response ended (no response headers): the server "
                + "(\(connection.server)) reset the TCP connection")
    }
}
