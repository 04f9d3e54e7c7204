import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

/// Captures built here, packet by packet (`SyntheticTCPConnection`, `CaptureWriter`), around the
/// HTTP/2 bytes of two gRPC calls (`GRPCConversation`): whatever TCP did to the bytes, what comes
/// out must be what went in.
@Suite("Captures of our own: every message back as sent, across every segment split, reordering, duplication and loss")
struct CaptureExactnessTests {
    /// What a decoding gave, without times and ports: per message its stream, direction and value;
    /// per call end its stream, code and message.
    struct Outcome: Equatable {
        var messages: [String]
        var ends: [String]
        var problems: Int

        init(_ records: [CaptureRecord]) {
            messages = records.messages.map { message in
                "\(message.streamID) \(message.direction) \(message.method ?? "-") "
                    + (message.message.map { "\(AnyHashable($0).hashValue) \($0)" } ?? "none")
            }
            ends = records.callEnds.map { "\($0.streamID) \($0.status.code) \($0.status.message)" }
            problems = records.problems.count
        }
    }

    static func conversation(points: Int) throws -> GRPCConversation {
        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.response(
            HTTP2StreamDecoderTests.trip(points: points), status: CallStatus(code: .ok), streamID: 1)
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 3)
        try conversation.response(
            Trip?.none, status: CallStatus(code: .notFound, message: "no such trip"), streamID: 3)
        return conversation
    }

    /// The packets of the connection: handshake, the client's bytes, the server's bytes, FINs.
    static func packets(
        _ conversation: GRPCConversation, clientSegments: [Int] = [], serverSegments: [Int] = [],
        connection: SyntheticTCPConnection = .ipv4(clientPort: 50_312, serverPort: 50_051)
    ) -> [[UInt8]] {
        var connection = connection
        var packets = connection.handshake()
        packets += connection.send(conversation.clientBytes, from: .client, segmentSizes: clientSegments)
        packets += connection.send(conversation.serverBytes, from: .server, segmentSizes: serverSegments)
        packets.append(connection.fin(from: .client))
        packets.append(connection.fin(from: .server))
        return packets
    }

    static func decode(_ file: [UInt8]) throws -> [CaptureRecord] {
        var decoder = CaptureDecoder()
        return try decoder.decode(file) + decoder.finish()
    }

    /// The reference: the same bytes read straight as HTTP/2, with no packets in between.
    static func expected(_ conversation: GRPCConversation) -> Outcome {
        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0) + decoder.finish()
        return Outcome(records)
    }

    @Test("the client's and the server's bytes cut into two segments at every byte offset")
    func everySplit() throws {
        let conversation = try Self.conversation(points: 40)
        let expected = Self.expected(conversation)
        #expect(expected.messages.count == 3)
        #expect(expected.ends.count == 2)
        for cut in 1..<conversation.clientBytes.count {
            let file = CaptureWriter.file(of: Self.packets(conversation, clientSegments: [cut]))
            #expect(Outcome(try Self.decode(file)) == expected, "client cut at \(cut)")
        }
        for cut in 1..<conversation.serverBytes.count {
            let file = CaptureWriter.file(of: Self.packets(conversation, serverSegments: [cut]))
            #expect(Outcome(try Self.decode(file)) == expected, "server cut at \(cut)")
        }
    }

    @Test("an 18 KB trip in segments of every size from 1 to 1,460 bytes", arguments: [1, 7, 100, 536, 1_460])
    func segmentSizes(size: Int) throws {
        let conversation = try Self.conversation(points: 1_000)
        let sizes = [Int](repeating: size, count: 40_000 / size)
        let file = CaptureWriter.file(
            of: Self.packets(conversation, clientSegments: sizes, serverSegments: sizes))
        #expect(Outcome(try Self.decode(file)) == Self.expected(conversation))
    }

    @Test("segments shuffled and duplicated (retransmissions): the same messages", arguments: [1, 2, 3, 4, 5])
    func reorderedAndDuplicated(seed: UInt64) throws {
        let conversation = try Self.conversation(points: 300)
        var packets = Self.packets(
            conversation, clientSegments: [30, 30, 30, 30, 30, 30],
            serverSegments: [Int](repeating: 500, count: 40))
        var generator = CaptureTestRandomGenerator(seed: seed)
        // Keep the handshake first; shuffle and duplicate what follows, within a window so that the
        // out-of-order buffer is exercised without exceeding it.
        var body = Array(packets[3...])
        for index in stride(from: 0, to: body.count - 1, by: 2) where Bool.random(using: &generator) {
            body.swapAt(index, index + 1)
        }
        for _ in 0..<10 {
            // Duplicates may come after the FINs too, as late retransmissions do.
            let index = Int.random(in: 0..<body.count, using: &generator)
            body.insert(body[index], at: Int.random(in: index...body.count, using: &generator))
        }
        packets = Array(packets[..<3]) + body
        #expect(Outcome(try Self.decode(CaptureWriter.file(of: packets))) == Self.expected(conversation))
    }

    @Test(
        "a lost segment in the first response's DATA: the gap is reported, that call is given up, said so, and the second call still reads exactly"
    )
    func loss() throws {
        let conversation = try Self.conversation(points: 300)
        let serverSegments = [Int](repeating: 500, count: 40)
        var packets = Self.packets(conversation, serverSegments: serverSegments)
        // The handshake is 3 packets, the client's bytes 1; drop the server's third segment, inside
        // the first response's DATA.
        packets.remove(at: 3 + 1 + 2)
        let records = try Self.decode(CaptureWriter.file(of: packets))
        #expect(records.problems.contains { $0.error.code == .truncatedCapture })
        let ends = records.callEnds
        let second = try #require(ends.first { $0.streamID == 3 })
        #expect(second.status.code == .notFound)
        #expect(second.status.message == "no such trip")
        #expect(!records.messages.contains { $0.streamID == 1 && $0.direction == .response })
        // The frame the gap cut is named, and its call ends as one the capture lost.
        let first = try #require(ends.first { $0.streamID == 1 })
        #expect(first.status.code == .unavailable)
        #expect(first.status.message.contains("as part of its response is missing from the capture"))
        let cut = try #require(records.problems.first { $0.streamID == 1 })
        #expect(cut.error.code == .truncatedCapture)
        #expect(cut.error.message.hasPrefix("bytes of the DATA frame of "))
        #expect(cut.error.message.hasSuffix("; its call is given up"))
    }

    @Test(
        "after a gap, a DATA frame over 16 KiB is found again when the client's SETTINGS allowed such frames",
        arguments: [true, false])
    func largeFrameAfterGap(clientAllowsLargeFrames: Bool) throws {
        var conversation = GRPCConversation(clientMaxFrameSize: clientAllowsLargeFrames ? 1 << 20 : nil)
        conversation.maxFrameLength = 1 << 20
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 3)
        let large = HTTP2StreamDecoderTests.trip(points: 1_000)
        let head = [(name: ":status", value: "200"), (name: "content-type", value: "application/grpc")]
        let trailers = GRPCConversation.trailerFields(CallStatus(code: .ok))
        // Both responses start; the capture loses the first one's DATA from within its frame
        // header on (so where the next frame starts is not known), and the bytes after the gap
        // begin with the second one's DATA, one frame of about 18 KB.
        conversation.headers(head, streamID: 1, endStream: false, fromClient: false)
        conversation.headers(head, streamID: 3, endStream: false, fromClient: false)
        let small = try GRPCMessageFramer().frame(HTTP2StreamDecoderTests.trip(points: 40).serializedBytes())
        let lostStart = conversation.serverBytes.count + 4
        conversation.data(small, streamID: 1, endStream: false, fromClient: false)
        let lostEnd = conversation.serverBytes.count
        let framed = try GRPCMessageFramer().frame(large.serializedBytes())
        #expect(framed.count > 16_384)
        conversation.data(framed, streamID: 3, endStream: false, fromClient: false)
        conversation.headers(trailers, streamID: 3, endStream: true, fromClient: false)
        conversation.headers(trailers, streamID: 1, endStream: true, fromClient: false)

        var packets = Self.packets(conversation, serverSegments: [lostStart, lostEnd - lostStart])
        // Handshake (3), the client's bytes (1), then the server's: drop its second segment.
        packets.remove(at: 3 + 1 + 1)
        let records = try Self.decode(CaptureWriter.file(of: packets))
        #expect(records.problems.contains { $0.error.code == .truncatedCapture })
        let answers = records.messages.filter { $0.streamID == 3 && $0.direction == .response }
        if clientAllowsLargeFrames {
            #expect(answers.count == 1)
            // Compared outside #expect, which would print both trips' thousand points on failure.
            let isTheLargeTrip = (answers.first?.message as? Trip) == large
            #expect(isTheLargeTrip)
            #expect(records.callEnds.first { $0.streamID == 3 }?.status.code == .ok)
        } else {
            // A frame longer than the peer allowed is not taken for a boundary: the message is lost.
            #expect(answers.isEmpty)
        }
    }

    @Test(
        "every link type and file format gives the same records",
        arguments: [
            LinkLayer.ethernet, .ethernet(vlanTags: [.customer(7)]), .linuxSLL, .linuxSLL2, .raw, .null, .loop,
        ],
        [CaptureWriter.Format.pcap, .pcap(nanosecond: true, bigEndian: true), .pcapng])
    func linksAndFormats(link: LinkLayer, format: CaptureWriter.Format) throws {
        let conversation = try Self.conversation(points: 50)
        let file = CaptureWriter.file(of: Self.packets(conversation, serverSegments: [700]), link: link, format: format)
        #expect(Outcome(try Self.decode(file)) == Self.expected(conversation))
    }

    @Test("over IPv6, the connection is named with bracketed addresses")
    func ipv6() throws {
        let conversation = try Self.conversation(points: 50)
        let file = CaptureWriter.file(
            of: Self.packets(conversation, connection: .ipv6(clientPort: 50_312, serverPort: 50_051)), link: .ethernet)
        let records = try Self.decode(file)
        #expect(Outcome(records) == Self.expected(conversation))
        #expect(records.callEnds.first?.connection.description.hasPrefix("[") == true)
        #expect(records.callEnds.first?.connection.description.hasSuffix("]:50051") == true)
    }

    @Test("a capture that starts after the handshake and the first call: the second call's messages, method inferred")
    func startsMidConnection() throws {
        let conversation = try Self.conversation(points: 50)
        var second = conversation
        // Build the whole connection, then keep only what follows the first call's bytes.
        try second.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 5)
        try second.response(HTTP2StreamDecoderTests.trip(points: 7), status: CallStatus(code: .ok), streamID: 5)
        var connection = SyntheticTCPConnection.ipv4(clientPort: 50_312, serverPort: 50_051)
        _ = connection.handshake()
        _ = connection.send(conversation.clientBytes, from: .client)
        _ = connection.send(conversation.serverBytes, from: .server)
        var packets = connection.send(Array(second.clientBytes[conversation.clientBytes.count...]), from: .client)
        packets += connection.send(Array(second.serverBytes[conversation.serverBytes.count...]), from: .server)
        let records = try Self.decode(CaptureWriter.file(of: packets))
        let response = try #require(records.messages.first { $0.streamID == 5 && $0.direction == .response })
        #expect((response.message as? Trip)?.route.count == 7)
        #expect(response.methodInferred)
        #expect(response.method == "/maps.fleetengine.v1.TripService/GetTrip")
        // The server listens on the lower port; without a handshake that is how the client is told.
        #expect(records.callEnds.first?.connection.server?.port == 50_051)
    }
}
