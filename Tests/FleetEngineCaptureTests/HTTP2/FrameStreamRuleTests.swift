import FleetEngineCapture
import FleetEngineStatus
import FleetEngineWire
import Testing

@Suite("Frames on the wrong stream: RFC 9113's stream rules for each frame type")
struct FrameStreamRuleTests {
    /// A frame that breaks its type's stream rule (RFC 9113 sections 6.3, 6.4, 6.5, 6.7, 6.8), or
    /// a SETTINGS acknowledgment with a payload (section 6.5).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var type: UInt8
        var flags: UInt8 = 0
        var streamID: UInt32
        var payload: [UInt8]

        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "RST_STREAM on stream 0", type: 0x3, streamID: 0, payload: [0, 0, 0, 8]),
        Case(name: "PRIORITY on stream 0", type: 0x2, streamID: 0, payload: [0, 0, 0, 1, 16]),
        Case(name: "SETTINGS on stream 1", type: 0x4, streamID: 1, payload: [0, 1, 0, 0, 0, 0]),
        Case(name: "SETTINGS ACK with a payload", type: 0x4, flags: 0x1, streamID: 0, payload: [0, 1, 0, 0, 0, 0]),
        Case(name: "PING on stream 1", type: 0x6, streamID: 1, payload: [1, 2, 3, 4, 5, 6, 7, 8]),
        Case(name: "GOAWAY on stream 3", type: 0x7, streamID: 3, payload: [0, 0, 0, 1, 0, 0, 0, 0]),
    ]

    @Test(
        "a frame on a stream its type may not use is a malformed-frame problem at its offset, and nothing else",
        arguments: cases)
    func frameOnWrongStream(_ frame: Case) throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let offset = conversation.clientBytes.count
        conversation.append(
            GRPCConversation.frame(
                type: frame.type, flags: frame.flags, streamID: frame.streamID, payload: frame.payload),
            fromClient: true)
        try conversation.answerWithTrips([1])

        let records = HTTP2StreamDecoderTests.decodeTwoInputs(conversation)

        #expect(records.problems.map(\.error.code) == [.malformedFrame])
        #expect(records.problems.map(\.error.byteOffset) == [Int64(offset)])
        #expect(records.callEnds.map(\.streamID) == [1])
        #expect(records.callEnds.map(\.status.code) == [.ok])
        #expect(records.messages.map(\.streamID) == [1, 1])
    }
}
