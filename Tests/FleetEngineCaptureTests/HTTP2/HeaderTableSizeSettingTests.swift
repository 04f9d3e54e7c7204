import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// RFC 7541 sections 4.2 and 6.3: the dynamic table's maximum size changes when the encoder says
/// so with a dynamic table size update, at the start of its first block after it received the
/// peer's smaller SETTINGS_HEADER_TABLE_SIZE (RFC 9113 section 6.5.3: a setting takes effect for
/// its receiver once acknowledged). A block the client sent before it received the server's
/// SETTINGS is encoded with the old table, and a decoder (nghttp2, tshark) still reads it.
@Suite("SETTINGS_HEADER_TABLE_SIZE bounds the encoder's size updates; it does not empty the table")
struct HeaderTableSizeSettingTests {
    @Test("a SETTINGS_HEADER_TABLE_SIZE of 0 does not take the entries a block already in flight names")
    func headerTableSizeSettingAppliesWhenTheEncoderSaysSo() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let firstRequestEnd = conversation.clientBytes.count
        // The server asks for no dynamic table (SETTINGS_HEADER_TABLE_SIZE = 0).
        conversation.append(
            GRPCConversation.frame(type: 0x4, flags: 0, streamID: 0, payload: [0x00, 0x01, 0, 0, 0, 0]),
            fromClient: false)
        let serverSettingsEnd = conversation.serverBytes.count
        // Already on its way: the second request, whose header block names the entries the first
        // one added (the encoder had not seen the SETTINGS yet), then the client's SETTINGS ACK.
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 3)
        conversation.append(GRPCConversation.frame(type: 0x4, flags: 0x1, streamID: 0, payload: []), fromClient: true)
        let answersStart = conversation.serverBytes.count
        try conversation.answerWithTrips([1, 3])

        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_920, serverPort: 50_051)
        let client = Array(conversation.clientBytes)
        let server = Array(conversation.serverBytes)
        var packets = connection.handshake()
        packets += connection.send(Array(client[..<firstRequestEnd]), from: .client)
        packets += connection.send(Array(server[..<serverSettingsEnd]), from: .server)
        packets += connection.send(Array(client[firstRequestEnd...]), from: .client)
        packets += connection.send(Array(server[answersStart...]), from: .server)
        packets.append(connection.fin(from: .client))
        packets.append(connection.fin(from: .server))
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()
        #expect(records.problems.isEmpty, "\(records.problems.map(\.error.message))")
        let third = try #require(records.callEnds.first { $0.streamID == 3 })
        #expect(!third.methodInferred)
        #expect(third.method == "/maps.fleetengine.v1.TripService/GetTrip")
        #expect(third.status.code == .ok)
    }

    @Test("once acknowledged, a lowered limit refuses a size update above it")
    func acknowledgedLimitBoundsSizeUpdates() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let firstRequestEnd = conversation.clientBytes.count
        conversation.append(
            GRPCConversation.frame(type: 0x4, flags: 0, streamID: 0, payload: [0x00, 0x01, 0, 0, 0, 100]),
            fromClient: false)
        // The client acknowledges both of the server's SETTINGS frames, the first one's too.
        for _ in 0..<2 {
            conversation.append(
                GRPCConversation.frame(type: 0x4, flags: 0x1, streamID: 0, payload: []), fromClient: true)
        }
        // A size update to 101 (0x3F 0x46), over the limit of 100, then :method GET.
        conversation.append(
            GRPCConversation.frame(type: 0x1, flags: 0x5, streamID: 3, payload: [0x3F, 0x46, 0x82]), fromClient: true)
        var decoder = HTTP2StreamDecoder()
        let client = conversation.clientBytes
        let records =
            decoder.receive(client[..<firstRequestEnd], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0)
            + decoder.receive(client[firstRequestEnd...], fromClient: true, byteOffset: Int64(firstRequestEnd))
        #expect(
            records.problems.map(\.error.code) == [.undecodableHeaderBlock], "\(records.problems.map(\.error.message))")
        #expect(records.problems.first?.streamID == 3)
    }
}
