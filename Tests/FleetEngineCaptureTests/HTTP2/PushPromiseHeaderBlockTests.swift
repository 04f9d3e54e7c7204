import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("PUSH_PROMISE field blocks keep the server's HPACK table in step")
struct PushPromiseHeaderBlockTests {
    /// RFC 9113 section 6.6 / RFC 7541 section 2.2: a PUSH_PROMISE carries a field block that the
    /// receiver decodes with the sender's HPACK context, so an entry it adds is in the table for
    /// the sender's later blocks. Here the server's PUSH_PROMISE adds `content-type:
    /// application/grpc` (index 62), and its response HEADERS name index 62.
    @Test(
        "a PUSH_PROMISE's field block updates the server's HPACK table: the response headers that name its entry decode"
    )
    func pushPromiseFieldBlockUpdatesTheTable() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let contentType = Array("application/grpc".utf8)
        let authority = Array("example.com".utf8)
        // :method GET (2), :scheme https (7), :path / (4), :authority as a literal without
        // indexing (name index 1), then content-type with incremental indexing (name index 31):
        // the one entry the block adds.
        let promised: [UInt8] =
            [0x00, 0x00, 0x00, 0x02]  // promised stream 2
            + [0x82, 0x87, 0x84] + [0x01, UInt8(authority.count)] + authority
            + [0x5F, 0x10] + contentType
        conversation.append(
            GRPCConversation.frame(type: 0x5, flags: 0x4, streamID: 1, payload: promised), fromClient: false)
        // Response headers: :status 200 (static 8), then content-type from the dynamic table (62).
        conversation.append(
            GRPCConversation.frame(type: 0x1, flags: 0x4, streamID: 1, payload: [0x88, 0xBE]), fromClient: false)
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 3).serializedBytes())
        conversation.data(framed, streamID: 1, endStream: false, fromClient: false)
        let grpcStatus = Array("grpc-status".utf8)
        conversation.append(
            GRPCConversation.frame(
                type: 0x1, flags: 0x5, streamID: 1,
                payload: [0x00, UInt8(grpcStatus.count)] + grpcStatus + [0x01, UInt8(ascii: "0")]),
            fromClient: false)

        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0) + decoder.finish()
        #expect(records.problems.isEmpty, "\(records.problems.map(\.error.message))")
        #expect(records.callEnds.first?.status.code == .ok)
        #expect(records.messages.filter { $0.direction == .response }.count == 1)
    }

    @Test("a PUSH_PROMISE continued by a CONTINUATION frame, in an interleaved stream: its entry is there too")
    func pushPromiseWithContinuationInterleaved() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let contentType = Array("application/grpc".utf8)
        // The promised stream and :method GET, :scheme https, :path /; then, in a CONTINUATION,
        // content-type with incremental indexing (name index 31), the entry the block adds.
        conversation.append(
            GRPCConversation.frame(type: 0x5, flags: 0, streamID: 1, payload: [0, 0, 0, 2, 0x82, 0x87, 0x84]),
            fromClient: false)
        conversation.append(
            GRPCConversation.frame(type: 0x9, flags: 0x4, streamID: 1, payload: [0x5F, 0x10] + contentType),
            fromClient: false)
        conversation.append(
            GRPCConversation.frame(type: 0x1, flags: 0x4, streamID: 1, payload: [0x88, 0xBE]), fromClient: false)
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 3).serializedBytes())
        conversation.data(framed, streamID: 1, endStream: false, fromClient: false)
        conversation.headers(
            GRPCConversation.trailerFields(CallStatus(code: .ok)), streamID: 1, endStream: true, fromClient: false)

        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receiveInterleaved(conversation.interleavedBytes[...], byteOffset: 0) + decoder.finish()
        #expect(records.problems.isEmpty, "\(records.problems.map(\.error.message))")
        #expect(records.callEnds.map(\.status.code) == [.ok])
        #expect(records.messages.filter { $0.direction == .response }.count == 1)
    }
}
