import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@testable import FleetEngineCapture

@Suite("Interleaved raw HTTP/2: each frame's sender from its stream, with state only for calls in progress")
struct InterleavedSenderTests {
    static func request(_ index: Int) -> GetTripRequest {
        var request = GetTripRequest()
        request.name = "providers/test-project/trips/trip-\(index)"
        return request
    }

    static func trip(_ index: Int) -> Trip {
        var trip = Trip()
        trip.name = "providers/test-project/trips/trip-\(index)"
        trip.remainingDistanceMeters = Int32(index)
        return trip
    }

    @Test("50 calls open at once: the answered streams are tracked while open, and none once all have ended")
    func stateFollowsOpenCalls() throws {
        let calls = 50
        let streams = (0..<calls).map { UInt32(2 * $0 + 1) }
        var conversation = GRPCConversation()
        for (index, stream) in streams.enumerated() {
            try conversation.request(Self.request(index), method: .getTrip, streamID: stream)
        }
        // Every call's response headers first, then each call's message and trailers.
        for stream in streams {
            conversation.headers(
                [(":status", "200"), ("content-type", "application/grpc")], streamID: stream, endStream: false,
                fromClient: false)
        }
        let allAnswered = conversation.interleavedBytes.count
        for (index, stream) in streams.enumerated() {
            conversation.data(
                try GRPCMessageFramer().frame(Self.trip(index).serializedBytes()), streamID: stream, endStream: false,
                fromClient: false)
            conversation.headers(
                GRPCConversation.trailerFields(CallStatus(code: .ok)), streamID: stream, endStream: true,
                fromClient: false)
        }

        var decoder = HTTP2StreamDecoder()
        let bytes = conversation.interleavedBytes
        var records = decoder.receiveInterleaved(bytes[..<allAnswered], byteOffset: 0)
        #expect(decoder.answeredStreams == Set(streams))
        records += decoder.receiveInterleaved(bytes[allAnswered...], byteOffset: Int64(allAnswered))
        #expect(decoder.answeredStreams.isEmpty)
        records += decoder.finish()

        #expect(records.problems.isEmpty)
        let requests = records.messages.filter { $0.direction == .request }
        let responses = records.messages.filter { $0.direction == .response }
        #expect(requests.compactMap { $0.message as? GetTripRequest } == (0..<calls).map(Self.request))
        #expect(responses.compactMap { $0.message as? Trip } == (0..<calls).map(Self.trip))
        #expect(responses.map(\.streamID) == streams)
        #expect(records.callEnds.map(\.streamID) == streams)
        #expect(records.callEnds.allSatisfy { $0.status.code == .ok })
    }

    @Test("calls one after another: nothing is kept for a stream once its call has ended")
    func sequentialCalls() throws {
        var conversation = GRPCConversation()
        for index in 0..<200 {
            let stream = UInt32(2 * index + 1)
            try conversation.request(Self.request(index), method: .getTrip, streamID: stream)
            try conversation.response(Self.trip(index), status: CallStatus(code: .ok), streamID: stream)
        }
        var decoder = HTTP2StreamDecoder()
        let records = decoder.receiveInterleaved(conversation.interleavedBytes[...], byteOffset: 0)
        #expect(decoder.answeredStreams.isEmpty)
        #expect(records.problems.isEmpty)
        #expect(records.callEnds.count == 200)
        #expect(records.messages.compactMap { $0.message as? Trip } == (0..<200).map(Self.trip))
    }

    @Test("a capture that starts after a request: the server's answer on that older stream is read as the server's")
    func answerToARequestBeforeTheCapture() throws {
        var conversation = GRPCConversation()
        try conversation.request(Self.request(1), method: .getTrip, streamID: 1)
        let start = conversation.interleavedBytes.count
        try conversation.request(Self.request(3), method: .getTrip, streamID: 3)
        try conversation.response(Self.trip(1), status: CallStatus(code: .ok), streamID: 1)
        try conversation.response(Self.trip(3), status: CallStatus(code: .notFound, message: "gone"), streamID: 3)

        var decoder = HTTP2StreamDecoder(startsAtConnectionStart: false)
        let records =
            decoder.receiveInterleaved(conversation.interleavedBytes[start...], byteOffset: Int64(start))
            + decoder.finish()

        // Stream 1's request is not in the input; its response headers, message and trailers are the
        // server's, on a stream below the one the client opened in the input.
        let answer = try #require(records.messages.first { $0.streamID == 1 })
        #expect(answer.direction == .response)
        #expect(answer.message as? Trip == Self.trip(1))
        let ends = Dictionary(uniqueKeysWithValues: records.callEnds.map { ($0.streamID, $0.status) })
        #expect(ends[1]?.code == .ok)
        #expect(ends[3]?.code == .notFound)
        #expect(ends[3]?.message == "gone")
        #expect(decoder.answeredStreams.isEmpty)
    }
}
