import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("CaptureOptions.maxMessageSize is the largest message the calls' readers take")
struct MaxMessageSizeTests {
    /// A GetTrip whose response is one trip of about `nameLength` bytes (its name), and OK.
    static func conversation(nameLength: Int) throws -> GRPCConversation {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        var trip = HTTP2StreamDecoderTests.trip(points: 3)
        trip.name = String(repeating: "t", count: nameLength)
        try conversation.response(trip, status: CallStatus(code: .ok), streamID: 1)
        return conversation
    }

    /// Decodes both directions of `conversation` with `options`.
    static func records(_ conversation: GRPCConversation, options: CaptureOptions) -> [CaptureRecord] {
        var decoder = HTTP2StreamDecoder(options: options)
        return decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0) + decoder.finish()
    }

    @Test("16 MiB by default, above the Wire layer's 4 MiB: a 5 MiB response is read, and the call is OK")
    func defaultTakesMessagesOverFourMiB() throws {
        #expect(CaptureOptions().maxMessageSize == 16 << 20)
        let records = Self.records(try Self.conversation(nameLength: 5 << 20), options: CaptureOptions())
        #expect(records.problems.isEmpty)
        #expect(records.callEnds.count == 1)
        #expect(records.callEnds.first?.status.code == .ok)
        #expect(records.messages.filter { $0.direction == .response }.count == 1)
    }

    @Test("a smaller limit is honoured too: a 64 KiB response over a 1 KiB limit is refused")
    func smallerLimitRefusesLongerMessages() throws {
        let records = Self.records(
            try Self.conversation(nameLength: 64 << 10), options: CaptureOptions(maxMessageSize: 1 << 10))
        #expect(records.messages.filter { $0.direction == .response }.isEmpty)
        #expect(records.callEnds.first?.status.code == .resourceExhausted)
    }
}
