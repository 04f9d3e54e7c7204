import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Foundation
import Testing

@Suite("Raw HTTP/2 streams to gRPC calls: every message back as it was sent, every status typed")
struct HTTP2StreamDecoderTests {
    static let name = "providers/test-project/trips/trip-1"

    static func trip(points: Int = 1_000) -> Trip {
        var trip = Trip()
        trip.name = name
        trip.tripStatus = .enrouteToPickup
        trip.remainingDistanceMeters = 1_250
        trip.route = (0..<points).map { index in
            var point = LatLng()
            point.latitude = 37.4 + Double(index) * 1e-5
            point.longitude = -122.08 - Double(index) * 1e-5
            return point
        }
        return trip
    }

    static func getRequest() -> GetTripRequest {
        var request = GetTripRequest()
        request.name = name
        return request
    }

    /// A GetTrip that succeeds and one that fails with details, on streams 1 and 3.
    static func conversation() throws -> GRPCConversation {
        var conversation = GRPCConversation()
        try conversation.request(getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(trip(), status: CallStatus(code: .ok), streamID: 1)
        try conversation.request(getRequest(), method: .getTrip, streamID: 3)
        var retry = RetryInfo()
        var delay = ProtobufDuration()
        delay.seconds = 2
        retry.retryDelay = delay
        try conversation.response(
            Trip?.none, status: CallStatus(code: .unavailable, message: "try later", details: [.retryInfo(retry)]),
            streamID: 3)
        return conversation
    }

    static func decodeTwoInputs(_ conversation: GRPCConversation, cutAt cut: Int? = nil) -> [CaptureRecord] {
        var decoder = HTTP2StreamDecoder()
        var records: [CaptureRecord] = []
        for (bytes, fromClient) in [(conversation.clientBytes, true), (conversation.serverBytes, false)] {
            let split = min(cut ?? bytes.count, bytes.count)
            records += decoder.receive(bytes[..<split], fromClient: fromClient, byteOffset: 0)
            records += decoder.receive(bytes[split...], fromClient: fromClient, byteOffset: Int64(split))
        }
        return records + decoder.finish()
    }

    @Test("a GetTrip and a failed GetTrip: both requests, the trip, and both statuses with their details")
    func twoCalls() throws {
        let records = Self.decodeTwoInputs(try Self.conversation())
        #expect(records.problems.isEmpty)
        let messages = records.messages
        #expect(messages.map(\.streamID) == [1, 3, 1])
        #expect(messages.map(\.direction) == [.request, .request, .response])
        #expect(messages.allSatisfy { $0.method == "/maps.fleetengine.v1.TripService/GetTrip" && !$0.methodInferred })
        #expect(messages[0].message as? GetTripRequest == Self.getRequest())
        #expect(messages[2].message as? Trip == Self.trip())
        #expect(messages[2].typeName == "maps.fleetengine.v1.Trip")
        let ends = records.callEnds
        #expect(ends.map(\.streamID) == [1, 3])
        #expect(ends[0].status.code == .ok)
        #expect(ends[0].error == nil)
        #expect(ends[1].status.code == .unavailable)
        #expect(ends[1].status.message == "try later")
        #expect(ends[1].error?.retryDelay == .seconds(2))
        #expect(ends[1].responseMessageCount == 0)
    }

    @Test("the same records whatever byte the input is cut at")
    func everyCut() throws {
        let conversation = try Self.conversation()
        let whole = Self.decodeTwoInputs(conversation).map { String(decoding: $0.jsonLine, as: UTF8.self) }
        let longest = max(conversation.clientBytes.count, conversation.serverBytes.count)
        for cut in stride(from: 0, through: longest, by: 7) {
            let pieces = Self.decodeTwoInputs(conversation, cutAt: cut).map {
                String(decoding: $0.jsonLine, as: UTF8.self)
            }
            #expect(pieces == whole, "cut at \(cut)")
        }
    }

    @Test("both directions interleaved in one input read the same as two inputs")
    func interleaved() throws {
        let conversation = try Self.conversation()
        var decoder = HTTP2StreamDecoder()
        let records = decoder.receiveInterleaved(conversation.interleavedBytes[...], byteOffset: 0) + decoder.finish()
        #expect(records.problems.isEmpty)
        let trips = records.messages.compactMap { $0.message as? Trip }
        #expect(trips == Self.decodeTwoInputs(conversation).messages.compactMap { $0.message as? Trip })
        #expect(trips.count == 1)
        #expect(records.callEnds.map(\.status.code) == [.ok, .unavailable])
    }

    @Test("padding, a header block in CONTINUATION frames, and a message across many DATA frames")
    func framingVariants() throws {
        var conversation = GRPCConversation()
        conversation.maxFrameLength = 1_000
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", userAgent: "capture-tests")
        conversation.headers(
            head.headerFields, streamID: 1, endStream: false, fromClient: true, fragmentLength: 10, padding: 7)
        conversation.data(
            try GRPCMessageFramer().frame(Self.getRequest().serializedBytes()), streamID: 1, endStream: true,
            fromClient: true,
            padding: 3)
        try conversation.response(Self.trip(), status: CallStatus(code: .ok), streamID: 1)
        let records = Self.decodeTwoInputs(conversation)
        #expect(records.problems.isEmpty)
        #expect(records.messages.map { $0.message as? GetTripRequest }.first == Self.getRequest())
        #expect(records.messages.last?.message as? Trip == Self.trip())
        #expect(records.callEnds.map(\.status.code) == [.ok])
    }

    @Test("gzip and deflate messages come back decompressed", arguments: [MessageEncoding.gzip, .deflate])
    func compressed(encoding: MessageEncoding) throws {
        var conversation = GRPCConversation()
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 1, encoding: encoding)
        try conversation.response(Self.trip(), status: CallStatus(code: .ok), streamID: 1, encoding: encoding)
        let records = Self.decodeTwoInputs(conversation)
        #expect(records.problems.isEmpty)
        #expect(records.messages.first?.message as? GetTripRequest == Self.getRequest())
        #expect(records.messages.last?.message as? Trip == Self.trip())
    }

    @Test("RST_STREAM from the server ends the call with the status gRPC maps its code to")
    func reset() throws {
        var conversation = GRPCConversation()
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 1)
        // REFUSED_STREAM (7).
        conversation.append(
            GRPCConversation.frame(type: 0x3, flags: 0, streamID: 1, payload: [0, 0, 0, 7]), fromClient: false)
        let ends = Self.decodeTwoInputs(conversation).callEnds
        #expect(ends.map(\.status.code) == [.unavailable])
    }

    @Test("a capture that starts after the header blocks: the DATA is still read, and the method inferred")
    func midConnection() throws {
        var conversation = GRPCConversation()
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(Self.trip(), status: CallStatus(code: .ok), streamID: 1)
        // A second call whose header blocks use the dynamic table entries of the first.
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 3)
        let clientStart = conversation.clientBytes.count
        let serverStart = conversation.serverBytes.count
        try conversation.response(Self.trip(points: 10), status: CallStatus(code: .ok), streamID: 3)
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 5)
        try conversation.response(Self.trip(points: 20), status: CallStatus(code: .ok), streamID: 5)

        var decoder = HTTP2StreamDecoder(startsAtConnectionStart: false)
        var records = decoder.receive(conversation.clientBytes[clientStart...], fromClient: true, byteOffset: 0)
        records += decoder.receive(conversation.serverBytes[serverStart...], fromClient: false, byteOffset: 0)
        records += decoder.finish()
        let request = try #require(records.messages.first { $0.streamID == 5 && $0.direction == .request })
        #expect(request.message as? GetTripRequest == Self.getRequest())
        #expect(request.method == "/maps.fleetengine.v1.TripService/GetTrip")
        let responses = records.messages.filter { $0.direction == .response }
        #expect(responses.map { ($0.message as? Trip)?.route.count } == [10, 20])
    }

    @Test("a VehicleService message is printed without a schema: field numbers, wire types and values")
    func schemaless() throws {
        var conversation = GRPCConversation()
        let path = try GRPCMethodPath(path: "/maps.fleetengine.v1.VehicleService/GetVehicle")
        var request = GetTripRequest()
        request.name = "providers/p/vehicles/v"
        try conversation.request(request, method: path, streamID: 1)
        try conversation.response(Trip?.none, status: CallStatus(code: .notFound), streamID: 1)
        let records = Self.decodeTwoInputs(conversation)
        let message = try #require(records.messages.first)
        #expect(message.message == nil)
        #expect(message.typeName == nil)
        let line = try #require(
            try JSONSerialization.jsonObject(with: Data(records[0].jsonLine)) as? [String: Any])
        let fields = try #require(line["message"] as? [[String: Any]])
        #expect(fields.count == 1)
        #expect(fields[0]["field"] as? Int == 3)
        #expect(fields[0]["wireType"] as? String == "len")
        #expect(fields[0]["string"] as? String == "providers/p/vehicles/v")
        #expect(records.callEnds.first?.status.code == .notFound)
    }

    @Test("padding longer than its frame: a malformed-frame problem at the frame's offset, and decoding goes on")
    func badPadding() throws {
        var conversation = GRPCConversation()
        let start = conversation.clientBytes.count
        conversation.append(
            GRPCConversation.frame(type: 0x0, flags: 0x8, streamID: 1, payload: [9, 1, 2]), fromClient: true)
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 3)
        try conversation.response(Self.trip(points: 3), status: CallStatus(code: .ok), streamID: 3)
        let records = Self.decodeTwoInputs(conversation)
        let problem = try #require(records.problems.first)
        #expect(problem.error.code == .malformedFrame)
        #expect(problem.error.byteOffset == Int64(start))
        #expect(records.callEnds.map(\.status.code) == [.ok])
    }

    @Test("a header block longer than 4 MiB: one problem, its other fragments passed over, the next call read")
    func oversizedHeaderBlock() throws {
        var conversation = GRPCConversation()
        let fragment = [UInt8](repeating: 0x40, count: 16_384)
        let start = conversation.clientBytes.count
        conversation.append(
            GRPCConversation.frame(type: 0x1, flags: 0, streamID: 1, payload: fragment), fromClient: true)
        // 300 CONTINUATION frames of 16 KiB: 4.9 MB in all, the last one ending the block.
        for index in 1...300 {
            conversation.append(
                GRPCConversation.frame(type: 0x9, flags: index == 300 ? 0x4 : 0, streamID: 1, payload: fragment),
                fromClient: true)
        }
        try conversation.request(Self.getRequest(), method: .getTrip, streamID: 3)
        try conversation.response(Self.trip(points: 3), status: CallStatus(code: .ok), streamID: 3)

        let records = Self.decodeTwoInputs(conversation)

        #expect(records.problems.count == 1)
        let problem = try #require(records.problems.first)
        #expect(problem.error.code == .undecodableHeaderBlock)
        #expect(problem.error.byteOffset == Int64(start))
        #expect(problem.error.message.contains("longer than 4194304 bytes"))
        #expect(records.messages.compactMap { $0.message as? GetTripRequest } == [Self.getRequest()])
        #expect(records.messages.compactMap { $0.message as? Trip } == [Self.trip(points: 3)])
        // Stream 1 is a call whose headers were lost and which never ended before the capture did.
        #expect(records.callEnds.map(\.status.code) == [.ok, .unavailable])
        #expect(records.callEnds.map(\.streamID) == [3, 1])
    }

    @Test("each record is one JSON object with the fields scripts read")
    func jsonLines() throws {
        let records = Self.decodeTwoInputs(try Self.conversation())
        let objects = try records.map { record in
            let line = record.jsonLine
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
            return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        }
        let message = objects[2]
        #expect(message["connection"] as? String == "client -> server")
        #expect(message["stream"] as? Int == 1)
        #expect(message["direction"] as? String == "response")
        #expect(message["method"] as? String == "/maps.fleetengine.v1.TripService/GetTrip")
        #expect(message["type"] as? String == "maps.fleetengine.v1.Trip")
        let trip = try #require(message["message"] as? [String: Any])
        #expect(trip["name"] as? String == Self.name)
        #expect(trip["tripStatus"] as? String == "ENROUTE_TO_PICKUP")
        let failed = try #require(objects.last)
        let status = try #require(failed["status"] as? [String: Any])
        #expect(status["code"] as? Int == 14)
        #expect(status["name"] as? String == "UNAVAILABLE")
        let error = try #require(failed["error"] as? [String: Any])
        #expect(error["name"] as? String == "UNAVAILABLE")
    }
}
