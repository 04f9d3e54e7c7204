import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// A server header block with END_STREAM that does not decode (here it names a dynamic-table entry
/// the decoder does not have, as in any capture that began mid-connection): the stream is over
/// (RFC 9113 section 5.1: END_STREAM closes the server's side), so the call ends there, with its
/// status unknown, as when the block is lost.
@Suite("A server header block with END_STREAM that does not decode ends its call")
struct UndecodableTrailersTests {
    @Test("undecodable trailers with END_STREAM end the call when they arrive, not at the end of the input")
    func undecodableTrailersEndTheCall() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        // Trailers-Only: :status 200 (static 8), then index 63, which the server's table lacks.
        conversation.append(
            GRPCConversation.frame(type: 0x1, flags: 0x5, streamID: 1, payload: [0x88, 0xBF]), fromClient: false)
        var decoder = HTTP2StreamDecoder()
        let beforeEnd =
            decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0)
        let atEnd = decoder.finish()
        #expect(beforeEnd.problems.map(\.error.code) == [.undecodableHeaderBlock])
        let end = try #require(beforeEnd.callEnds.first)
        #expect(beforeEnd.callEnds.count == 1)
        #expect(end.status.code == .unavailable)
        #expect(
            end.status.message
                == "the capture decoder gave the call up before it ended, as the header block that ended it does not "
                + "decode")
        #expect(atEnd.callEnds.isEmpty)
    }
}
