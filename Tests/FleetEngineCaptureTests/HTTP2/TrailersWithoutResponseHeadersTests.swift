import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// gRPC PROTOCOL-HTTP2 "Responses": the status is the trailers' `grpc-status`. A capture that
/// began after a call's response headers (tcpdump started while a call was in progress, or the
/// response HEADERS frame was lost) still holds the trailers whole.
@Suite("Trailers whose response headers the capture does not hold: read as trailers")
struct TrailersWithoutResponseHeadersTests {
    /// The server's bytes of a GetTrip from just after its response headers: a trip, then
    /// trailers with `trailers`.
    static func serverBytesAfterHead(trailers: [(name: String, value: String)]) throws -> ArraySlice<UInt8> {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        conversation.headers(LostFrameCaptureTests.head, streamID: 1, endStream: false, fromClient: false)
        let serverStart = conversation.serverBytes.count
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 3).serializedBytes())
        conversation.data(framed, streamID: 1, endStream: false, fromClient: false)
        conversation.headers(trailers, streamID: 1, endStream: true, fromClient: false)
        return conversation.serverBytes[serverStart...]
    }

    @Test(
        "a capture that begins after the response headers: the call ends with the trailers' grpc-status, not INTERNAL")
    func trailersGiveTheStatus() throws {
        let bytes = try Self.serverBytesAfterHead(
            trailers: GRPCConversation.trailerFields(CallStatus(code: .notFound, message: "no such trip")))
        var decoder = HTTP2StreamDecoder(startsAtConnectionStart: false)
        let records = decoder.receive(bytes, fromClient: false, byteOffset: 0) + decoder.finish()
        #expect(records.messages.count == 1)
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .notFound)
        #expect(end.status.message == "no such trip")
    }

    @Test(
        "trailers without grpc-status and without response headers: UNKNOWN as any trailers without it, saying the headers are missing too"
    )
    func trailersWithoutStatusSayTheHeadersAreMissing() throws {
        let bytes = try Self.serverBytesAfterHead(trailers: [(name: "grpc-message", value: "gone")])
        var decoder = HTTP2StreamDecoder(startsAtConnectionStart: false)
        let records = decoder.receive(bytes, fromClient: false, byteOffset: 0) + decoder.finish()
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .unknown)
        #expect(
            end.status.message
                == "the response headers are missing, and the trailers that ended the stream have no grpc-status "
                + "(grpc-message: gone)")
    }
}
