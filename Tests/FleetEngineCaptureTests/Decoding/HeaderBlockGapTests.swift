import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@testable import FleetEngineCapture

@Suite("A gap that took frames of a header block is reported once, as the gap; the stream is read without it")
struct HeaderBlockGapTests {
    /// The client's bytes: the preface and SETTINGS, stream 1's GetTrip, stream 3's with its header
    /// block cut into 3-byte fragments (a HEADERS frame and CONTINUATION frames), then stream 5's;
    /// the server answers all three. Stream 3's block names only table entries stream 1's added, so
    /// losing it leaves the client's HPACK table as the sender's. `headerFrameEnds` are the
    /// client-stream offsets where each frame of stream 3's block ends.
    static func conversation() throws -> (conversation: GRPCConversation, headerFrameEnds: [Int]) {
        var conversation = GRPCConversation()
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", scheme: .https,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests")
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.getRequest().serializedBytes())
        conversation.headers(head.headerFields, streamID: 1, endStream: false, fromClient: true)
        conversation.data(framed, streamID: 1, endStream: true, fromClient: true)
        let start = conversation.clientBytes.count
        conversation.headers(head.headerFields, streamID: 3, endStream: false, fromClient: true, fragmentLength: 3)
        let end = conversation.clientBytes.count
        conversation.data(framed, streamID: 3, endStream: true, fromClient: true)
        conversation.headers(head.headerFields, streamID: 5, endStream: false, fromClient: true)
        conversation.data(framed, streamID: 5, endStream: true, fromClient: true)
        try conversation.answerWithTrips([1, 3, 5])
        var headerFrameEnds: [Int] = []
        var offset = start
        while offset < end {
            let bytes = conversation.clientBytes
            offset +=
                HTTP2FrameReader.frameHeaderLength
                + (Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]))
            headerFrameEnds.append(offset)
        }
        return (conversation, headerFrameEnds)
    }

    /// Decodes the conversation with the client's bytes from `lost.lowerBound` to `lost.upperBound`
    /// missing (one lost segment), and everything after `keptUpTo` (when given) not captured at all.
    static func decode(
        _ conversation: GRPCConversation, lost: Range<Int>, keptUpTo: Int? = nil
    ) throws -> [CaptureRecord] {
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_900, serverPort: 50_051)
        var packets = connection.handshake()
        let sent = keptUpTo ?? conversation.clientBytes.count
        let ends = [lost.lowerBound, lost.upperBound, sent].filter { $0 > 0 }
        let client = connection.send(Array(conversation.clientBytes[..<sent]), from: .client, endingAt: ends)
        packets += client.enumerated().filter { $0.offset != (lost.lowerBound > 0 ? 1 : 0) }.map(\.element)
        // The server's packets acknowledge all the client sent, lost bytes included.
        packets += connection.send(conversation.serverBytes, from: .server)
        var decoder = CaptureDecoder()
        return try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()
    }

    /// Which of stream 3's header frames the gap takes.
    enum LostPart: String, CaseIterable, CustomTestStringConvertible {
        /// Its CONTINUATION frames: the stream's DATA follows the gap, where a CONTINUATION is due.
        case continuations
        /// Its HEADERS frame and first CONTINUATION: a CONTINUATION follows the gap, with no block open.
        case headersAndFirstContinuation

        var testDescription: String { rawValue }

        func range(in frameEnds: [Int]) -> Range<Int> {
            switch self {
            case .continuations: frameEnds[0]..<frameEnds[frameEnds.count - 1]
            case .headersAndFirstContinuation: (frameEnds[0] - HTTP2FrameReader.frameHeaderLength - 3)..<frameEnds[1]
            }
        }
    }

    @Test(
        "frames of a header block lost: the gap is the one problem, and only that stream is read without headers",
        arguments: LostPart.allCases)
    func headerFramesLost(part: LostPart) throws {
        let (conversation, frameEnds) = try Self.conversation()
        #expect(frameEnds.count >= 3)
        let records = try Self.decode(conversation, lost: part.range(in: frameEnds))

        // Before, the frame after the gap added a malformed-frame line: "a DATA frame on stream 3
        // interrupted the header block of stream 3", or "a CONTINUATION frame ... follows no header block".
        #expect(!records.problems.contains { $0.error.code == .malformedFrame }, "\(records.problems)")
        #expect(records.problems.filter { $0.error.code == .truncatedCapture }.count == 1)
        #expect(records.callEnds.count == 3)
        for end in records.callEnds {
            #expect(end.status.code == .ok)
            #expect(end.method == "/maps.fleetengine.v1.TripService/GetTrip")
            #expect(end.methodInferred == (end.streamID == 3))
            #expect(end.requestMessageCount == 1)
            #expect(end.responseMessageCount == 1)
        }
    }

    @Test("the block's last frames lost and the client's bytes ending soon after: no 'never ended' line")
    func captureEndsAfterTheGap() throws {
        let (conversation, frameEnds) = try Self.conversation()
        let last = frameEnds[frameEnds.count - 1]
        // Five bytes of the DATA frame after the block come, and no more: the gap is known.
        let records = try Self.decode(conversation, lost: frameEnds[0]..<last, keptUpTo: last + 5)

        #expect(records.problems.filter { $0.error.code == .truncatedCapture }.count == 1, "\(records.problems)")
        #expect(!records.problems.contains { $0.error.message.contains("never ended") }, "\(records.problems)")
        #expect(!records.problems.contains { $0.error.message.contains("interrupted") })
    }

    @Test("a frame inside a header block, with no gap, is still reported")
    func interruptionWithoutAGapIsReported() throws {
        let (conversation, frameEnds) = try Self.conversation()
        var client = Array(conversation.clientBytes[..<frameEnds[1]])
        client += GRPCConversation.frame(type: 0x8, flags: 0, streamID: 0, payload: [0, 0, 0, 1])
        client += conversation.clientBytes[frameEnds[1]...]
        var decoder = HTTP2StreamDecoder()
        let records = decoder.receive(client[...], fromClient: true, byteOffset: 0) + decoder.finish()
        let interrupted = try #require(records.problems.first { $0.error.code == .malformedFrame })
        #expect(interrupted.error.message.contains("interrupted the header block of stream 3"))
    }
}
