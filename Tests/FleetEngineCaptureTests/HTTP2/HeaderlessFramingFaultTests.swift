import FleetEngineCapture
import FleetEngineWire
import Testing

/// A stream whose header blocks the capture does not hold is read message by message from its DATA
/// alone; once a message prefix is wrong, no boundary after it can be found again.
@Suite("A framing fault on a stream read without its headers is reported once")
struct HeaderlessFramingFaultTests {
    @Test("a bad Compressed-Flag, then more DATA on the stream: one problem, not one per frame")
    func oneProblemPerFault() throws {
        var conversation = GRPCConversation()
        let start = conversation.clientBytes.count
        // Flag 2 is neither 0 nor 1 (gRPC PROTOCOL-HTTP2, "Length-Prefixed-Message").
        conversation.data([0x02, 0x00, 0x00, 0x00, 0x01, 0x08], streamID: 1, endStream: false, fromClient: true)
        for _ in 0..<4 {
            conversation.data([0x00, 0x00, 0x00, 0x00, 0x00], streamID: 1, endStream: false, fromClient: true)
        }
        conversation.data([0x00], streamID: 1, endStream: true, fromClient: true)
        var decoder = HTTP2StreamDecoder(startsAtConnectionStart: false)
        let records =
            decoder.receive(conversation.clientBytes[start...], fromClient: true, byteOffset: 0) + decoder.finish()
        let problems = records.problems.map { "\($0.error)" }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("flag") == true, "\(problems)")
        #expect(records.messages.isEmpty)
    }
}
