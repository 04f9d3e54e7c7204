import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@testable import FleetEngineCapture

@Suite("Frames lost to a gap or to the memory bound give up what they belonged to, and nothing is read wrongly")
struct LostFrameCaptureTests {
    static let head = [(name: ":status", value: "200"), (name: "content-type", value: "application/grpc")]

    @Test(
        "a header block lost to a gap (cut inside its frame, or the whole frame): later blocks that name older entries are marked uncertain",
        arguments: [11, 0])
    func lostTrailers(cutInto: Int) throws {
        var conversation = GRPCConversation()
        for streamID: UInt32 in [1, 3, 5] {
            try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: streamID)
        }
        try conversation.response(HTTP2StreamDecoderTests.trip(points: 5), status: CallStatus(code: .ok), streamID: 1)
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 5).serializedBytes())
        conversation.headers(Self.head, streamID: 5, endStream: false, fromClient: false)
        conversation.data(framed, streamID: 5, endStream: false, fromClient: false)
        // Stream 3's Trailers-Only block adds `grpc-status: 5` and its message to the server's
        // dynamic table; stream 5's trailers then name both by index (62 and 63), where a decoder
        // that missed the block has `grpc-status: 0` and `content-type`.
        let lostBlockStart = conversation.serverBytes.count
        try conversation.response(
            Trip?.none, status: CallStatus(code: .notFound, message: "no such trip"), streamID: 3)
        let lostBlockEnd = conversation.serverBytes.count
        conversation.headers(
            GRPCConversation.trailerFields(CallStatus(code: .notFound, message: "no such trip")), streamID: 5,
            endStream: true, fromClient: false)
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_400, serverPort: 50_051)
        var packets = connection.handshake() + connection.send(conversation.clientBytes, from: .client)
        // The server's bytes up to `cutInto` bytes into stream 3's HEADERS frame, the rest of that
        // frame (lost), and stream 5's trailers: right where the bytes after the gap begin.
        let server = connection.send(
            conversation.serverBytes, from: .server,
            segmentSizes: [lostBlockStart + cutInto, lostBlockEnd - lostBlockStart - cutInto])
        packets += [server[0], server[2]]
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        let ends = records.callEnds
        #expect(ends.map(\.streamID).sorted() == [1, 3, 5])
        let first = try #require(ends.first { $0.streamID == 1 })
        #expect(first.status.code == .ok)
        #expect(!first.headersUncertain)
        // Stream 5's trailers name entries 62 and 63, which here are `grpc-status: 0` and
        // `content-type`, not what the lost block added: the OK status they give is marked
        // uncertain, on the call and in its JSON line, and the messages read before stay certain.
        let fifth = try #require(ends.first { $0.streamID == 5 })
        #expect(fifth.headersUncertain)
        let line = String(decoding: CaptureRecord.callEnd(fifth).jsonLine, as: UTF8.self)
        #expect(line.contains(#""headersUncertain":true"#))
        #expect(records.messages.filter { $0.streamID == 5 }.allSatisfy { !$0.headersUncertain })
        let third = try #require(ends.first { $0.streamID == 3 })
        #expect(third.status.code == .unavailable)
        let gap = try #require(records.problems.first { $0.streamID == nil && $0.error.code == .truncatedCapture })
        if cutInto > 0 {
            // The frame's header was read: the frame is named, its call given up, and reading goes
            // on where it ended.
            #expect(third.status.message.contains("the header block that ended it is missing from the capture"))
            let lost = try #require(records.problems.first { $0.streamID == 3 })
            #expect(lost.error.code == .truncatedCapture)
            #expect(lost.error.message.hasPrefix("bytes of the HEADERS frame of "))
            #expect(lost.error.message.hasSuffix(HTTP2ConnectionDecoder.uncertainTableNote))
            #expect(gap.error.message.hasSuffix("decoding goes on from the next frame"))
        } else {
            // Nothing says which frames the gap held: the call ends with the capture.
            #expect(third.status.message.contains("the capture ended before the call did"))
            #expect(gap.error.message.hasSuffix(HTTP2ConnectionDecoder.uncertainTableNote))
        }
    }

    @Test("a lost request that added an HPACK entry: the next requests are read with the older entries moved")
    func lostRequestAddedAnEntry() throws {
        var conversation = GRPCConversation()
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", scheme: .https,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests")
        let framed = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.getRequest().serializedBytes())
        var requestEnds: [Int] = []
        for streamID: UInt32 in [1, 3, 5, 7] {
            // Stream 3's request also carries a field the others do not: the encoder adds it to its
            // table, in front of the entries the first request added.
            let extra = streamID == 3 ? [(name: "x-trace", value: "abc")] : []
            conversation.headers(head.headerFields + extra, streamID: streamID, endStream: false, fromClient: true)
            conversation.data(framed, streamID: streamID, endStream: true, fromClient: true)
            requestEnds.append(conversation.clientBytes.count)
        }
        try conversation.answerWithTrips([1, 3, 5, 7])
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_700, serverPort: 50_051)
        var packets = connection.handshake()
        // One segment per request; stream 3's is lost.
        let client = connection.send(conversation.clientBytes, from: .client, endingAt: requestEnds)
        packets += [client[0], client[2], client[3]]
        packets += connection.send(conversation.serverBytes, from: .server)
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()

        for streamID: UInt32 in [5, 7] {
            let end = try #require(records.callEnds.first { $0.streamID == streamID })
            #expect(end.method == "/maps.fleetengine.v1.TripService/GetTrip")
            #expect(!end.methodInferred)
            #expect(end.headersUncertain)
            #expect(end.status.code == .ok)
        }
        #expect(!records.problems.contains { $0.error.code == .malformedFrame })
        let moved = try #require(records.problems.first { $0.error.message.contains("blocks the capture lost added") })
        #expect(moved.streamID == 5)
        #expect(moved.error.message.contains("1 places further on"))
    }

    /// The packets of `count` connections, each with one GetTrip whose response is one DATA frame
    /// of about 300 KB; the server's bytes of all connections interleave, 60,000 bytes at a time.
    static func largeResponses(connections count: Int) throws -> (packets: [[UInt8]], trip: Trip) {
        let trip = HTTP2StreamDecoderTests.trip(points: 13_000)
        var connections: [SyntheticTCPConnection] = []
        var serverPackets: [[[UInt8]]] = []
        var packets: [[UInt8]] = []
        for index in 0..<count {
            var conversation = GRPCConversation(clientMaxFrameSize: 1 << 20)
            conversation.maxFrameLength = 1 << 20
            try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
            try conversation.response(trip, status: CallStatus(code: .ok), streamID: 1)
            var connection = SyntheticTCPConnection.ipv4(clientPort: UInt16(51_000 + index), serverPort: 50_051)
            packets += connection.handshake() + connection.send(conversation.clientBytes, from: .client)
            let sizes = [Int](repeating: 60_000, count: conversation.serverBytes.count / 60_000)
            serverPackets.append(connection.send(conversation.serverBytes, from: .server, segmentSizes: sizes))
            connections.append(connection)
        }
        for round in 0..<(serverPackets.map(\.count).max() ?? 0) {
            for perConnection in serverPackets where round < perConnection.count {
                packets.append(perConnection[round])
            }
        }
        return (packets, trip)
    }

    @Test("six connections each receiving a 300 KB frame at once, with 1 MiB for frames: the largest are given up")
    func partialFramesBoundedAcrossConnections() throws {
        let limit = 1 << 20
        let (packets, trip) = try Self.largeResponses(connections: 6)
        let file = CaptureWriter.file(of: packets)
        var decoder = CaptureDecoder(options: CaptureOptions(maxPartialFrameBytes: limit))
        var records: [CaptureRecord] = []
        var mostHeld = 0
        var offset = 0
        while offset < file.count {
            let end = min(offset + 40_000, file.count)
            records += try decoder.decode(file[offset..<end])
            mostHeld = max(mostHeld, decoder.partialFrameBytes)
            #expect(decoder.partialFrameBytes == decoder.bufferedByFrameReaders)
            offset = end
        }
        records += try decoder.finish()
        #expect(mostHeld <= limit)

        let givenUp = records.problems.filter { $0.error.code == .tooManyOpenCalls }
        #expect(!givenUp.isEmpty)
        #expect(givenUp.allSatisfy { $0.error.message.contains("the frames still arriving held more than 1048576") })
        #expect(givenUp.allSatisfy { $0.error.message.hasSuffix("; its call is given up") })
        // Every call ends once: those given up as such, the others with the trip, read exactly.
        let ends = records.callEnds
        #expect(ends.count == 6)
        let givenUpConnections = Set(givenUp.compactMap { $0.connection?.id })
        #expect(givenUpConnections.count == givenUp.count)
        for end in ends {
            if givenUpConnections.contains(end.connection.id) {
                #expect(end.status.code == .unavailable)
                #expect(end.status.message.contains("to bound the memory of frames still arriving"))
            } else {
                #expect(end.status.code == .ok)
                let response = records.messages.first {
                    $0.connection.id == end.connection.id && $0.direction == .response
                }
                let isTheTrip = (response?.message as? Trip) == trip
                #expect(isTheTrip)
            }
        }
        #expect(givenUp.count < 6)
    }

    @Test(
        "packets dropped at random from six connections under a 1 MiB frame bound: the count of what frames hold stays exact, every call ends once",
        arguments: [UInt64(1), 2, 3, 4])
    func randomLossUnderTheBound(seed: UInt64) throws {
        let limit = 1 << 20
        var (packets, _) = try Self.largeResponses(connections: 6)
        var generator = CaptureTestRandomGenerator(seed: seed)
        // Keep each connection's handshake (the first 24 packets are 6 × (3 + 1)); drop a tenth of the rest.
        packets = Array(packets[..<24]) + packets[24...].filter { _ in Int.random(in: 0..<10, using: &generator) != 0 }
        let file = CaptureWriter.file(of: packets)
        var decoder = CaptureDecoder(options: CaptureOptions(maxPartialFrameBytes: limit))
        var records: [CaptureRecord] = []
        var offset = 0
        while offset < file.count {
            let end = min(offset + Int.random(in: 1..<50_000, using: &generator), file.count)
            records += try decoder.decode(file[offset..<end])
            #expect(decoder.partialFrameBytes == decoder.bufferedByFrameReaders)
            #expect(decoder.partialFrameBytes <= limit)
            offset = end
        }
        records += try decoder.finish()
        #expect(decoder.partialFrameBytes == 0)
        let ends = records.callEnds.map { "\($0.connection.id) \($0.streamID)" }
        #expect(ends.count == 6)
        #expect(Set(ends).count == ends.count)
    }

    @Test("without a bound reached, the same six connections all read exactly")
    func partialFramesUnderTheBound() throws {
        let (packets, trip) = try Self.largeResponses(connections: 6)
        var decoder = CaptureDecoder()
        let records = try decoder.decode(CaptureWriter.file(of: packets)) + decoder.finish()
        #expect(records.problems.isEmpty)
        #expect(records.callEnds.count == 6)
        #expect(records.callEnds.allSatisfy { $0.status.code == .ok })
        let trips = records.messages.filter { $0.direction == .response }.map { $0.message as? Trip }
        let allTheTrip = trips.count == 6 && trips.allSatisfy { $0 == trip }
        #expect(allTheTrip)
        #expect(decoder.partialFrameBytes == 0)
    }

    @Test("a frame header longer than the server's SETTINGS allow does not swallow the request after it")
    func frameLongerThanTheServerTakes() throws {
        var conversation = GRPCConversation()
        // The client's preface and SETTINGS, then a DATA header declaring 5,000,000 bytes on
        // stream 1 (more than the 16,384 the server's SETTINGS leave it), then a whole GetTrip.
        let start = conversation.clientBytes.count
        conversation.append([0x4C, 0x4B, 0x40, 0x0, 0, 0, 0, 0, 1], fromClient: true)
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 3)
        try conversation.answerWithTrips([3])
        let serverSettings = GRPCConversation().serverBytes.count
        var decoder = HTTP2StreamDecoder()
        var records = decoder.receive(conversation.serverBytes[..<serverSettings], fromClient: false, byteOffset: 0)
        records += decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
        records += decoder.receive(
            conversation.serverBytes[serverSettings...], fromClient: false, byteOffset: Int64(serverSettings))
        records += decoder.finish()

        let end = try #require(records.callEnds.first { $0.streamID == 3 })
        #expect(end.status.code == .ok)
        #expect(end.method == "/maps.fleetengine.v1.TripService/GetTrip")
        #expect(records.messages.filter { $0.streamID == 3 }.count == 2)
        let bogus = try #require(records.problems.first { $0.error.code == .malformedFrame })
        #expect(bogus.error.message.contains("declares 5000000 bytes, more than the 16384 its receiver takes"))
        #expect(bogus.error.byteOffset == Int64(start))
    }

    @Test("raw HTTP/2 that ends inside a frame: the frame is named, with how much of it came")
    func rawInputEndsInsideAFrame() throws {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        let cut = conversation.clientBytes.count - 3
        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receive(conversation.clientBytes[..<cut], fromClient: true, byteOffset: 0) + decoder.finish()
        let problem = try #require(records.problems.first { $0.error.code == .truncatedCapture })
        #expect(problem.streamID == 1)
        #expect(problem.error.message.hasPrefix("the sender's bytes end inside the DATA frame of "))
        #expect(!records.problems.contains { $0.error.message.contains("belong to no frame") })
    }
}
