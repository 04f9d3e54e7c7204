import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// A capture that begins after the handshake shows neither the SYN nor the client preface: which
/// side is the client is first guessed from the ports, then read from the header blocks
/// (`:method`/`:path` in requests, `:status` in responses, RFC 9113 section 8.3).
@Suite("Which side is the client, in a capture without the connection's start")
struct ClientServerRoleTests {
    /// The packets of a GetTrip answered OK, from after the preface and SETTINGS, with the client
    /// on `clientPort` and the server on 50051.
    static func midConnectionPackets(clientPort: UInt16) throws -> (SyntheticTCPConnection, [[UInt8]]) {
        var conversation = GRPCConversation()
        let clientStart = conversation.clientBytes.count
        let serverStart = conversation.serverBytes.count
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(HTTP2StreamDecoderTests.trip(points: 3), status: CallStatus(code: .ok), streamID: 1)
        var connection = SyntheticTCPConnection.ipv4(clientPort: clientPort, serverPort: 50_051)
        var packets = connection.send(Array(conversation.clientBytes[clientStart...]), from: .client)
        packets += connection.send(Array(conversation.serverBytes[serverStart...]), from: .server)
        return (connection, packets)
    }

    @Test(
        "mid-connection, client port below the server's (45000 -> 50051) or above it (55000 -> 50051): the request is the request, the response the response",
        arguments: [UInt16(45_000), 55_000])
    func headerBlocksTellTheSidesApart(clientPort: UInt16) throws {
        let (connection, packets) = try Self.midConnectionPackets(clientPort: clientPort)
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        #expect(records.problems.isEmpty, "\(records.problems.map(\.error.message))")
        let request = try #require(records.messages.first { $0.message is GetTripRequest })
        #expect(request.direction == .request)
        #expect(request.connection.client == connection.client)
        let response = try #require(records.messages.first { $0.message is Trip })
        #expect(response.direction == .response)
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .ok)
        #expect(end.connection.client == connection.client)
        #expect(end.method == "/maps.fleetengine.v1.TripService/GetTrip")
        #expect(!end.methodInferred)
    }
}
