import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// A client that cancels a call (or whose deadline passes) sends RST_STREAM(CANCEL) itself (gRPC
/// PROTOCOL-HTTP2 "Errors"); grpcio does so, and a capture has the frame going from the client's
/// port to the server's. The call's status says who reset the stream.
@Suite("RST_STREAM: the call's status names the side that reset the stream")
struct StreamResetSenderTests {
    @Test(
        "a RST_STREAM(CANCEL) from the client or the server: CANCELLED, saying which side reset the stream",
        arguments: [true, false])
    func resetNamesItsSender(fromClient: Bool) throws {
        var conversation = GRPCConversation()
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", scheme: .http,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests")
        conversation.headers(head.headerFields, streamID: 1, endStream: false, fromClient: true)
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.getRequest().serializedBytes())
        conversation.data(framed, streamID: 1, endStream: true, fromClient: true)
        conversation.append(
            GRPCConversation.frame(type: 0x3, flags: 0, streamID: 1, payload: [0, 0, 0, 8]), fromClient: fromClient)
        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0) + decoder.finish()
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .cancelled)
        #expect(end.status.message == "the \(fromClient ? "client" : "server") reset the stream with CANCEL")
    }
}
