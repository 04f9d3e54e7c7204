import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Testing

@testable import FleetEngineCapture

@Suite("Calls left open hold bounded memory, however much their header blocks expand")
struct OpenCallMemoryTests {
    static let path = "/maps.fleetengine.v1.TripService/GetTrip"
    /// The value of the field the first request puts into HPACK's dynamic table.
    static let entryValue = [UInt8](repeating: UInt8(ascii: "a"), count: 4_000)
    /// How many times each later request names that entry.
    static let referencesPerBlock = 250

    /// A field's size as RFC 7541 section 4.1 counts it, which is how open calls are charged.
    static func size(name: String, value: String) -> Int { name.utf8.count + value.utf8.count + 32 }

    /// A request header block: the fields every request has, as literals kept out of the dynamic
    /// table, then either one 4,000-byte field put into it (`addsEntry`) or 250 one-byte references
    /// to that field, about a megabyte once decoded.
    static func requestBlock(addsEntry: Bool) -> (block: [UInt8], fieldBytes: Int) {
        var builder = HPACKBlockBuilder()
        builder.indexed(3)  // :method POST
        builder.indexed(6)  // :scheme http
        builder.literal(nameIndex: 4, value: Array(path.utf8), kind: .withoutIndexing)
        builder.literal(nameIndex: 1, value: Array("localhost".utf8), kind: .withoutIndexing)
        builder.literal(nameIndex: 31, value: Array("application/grpc".utf8), kind: .withoutIndexing)
        builder.literal(name: Array("te".utf8), value: Array("trailers".utf8), kind: .withoutIndexing)
        var fieldBytes =
            size(name: ":method", value: "POST") + size(name: ":scheme", value: "http")
            + size(name: ":path", value: path) + size(name: ":authority", value: "localhost")
            + size(name: "content-type", value: "application/grpc") + size(name: "te", value: "trailers")
        let entryBytes = "x-padding".utf8.count + entryValue.count + 32
        if addsEntry {
            builder.literal(name: Array("x-padding".utf8), value: entryValue, kind: .incrementalIndexing)
            fieldBytes += entryBytes
        } else {
            for _ in 0..<referencesPerBlock { builder.indexed(62) }
            fieldBytes += referencesPerBlock * entryBytes
        }
        return (builder.bytes, fieldBytes)
    }

    /// The client's bytes of a connection on which `streams` requests open and none ends: the
    /// first puts the large field into the dynamic table, the others name it.
    static func expandingRequests(streams: Int) -> [UInt8] {
        var conversation = GRPCConversation()
        for index in 0..<streams {
            let block = requestBlock(addsEntry: index == 0).block
            conversation.append(
                GRPCConversation.frame(type: 0x1, flags: 0x4, streamID: UInt32(1 + 2 * index), payload: block),
                fromClient: true)
        }
        return conversation.clientBytes
    }

    @Test("300 header blocks of 250 bytes that each decode to a megabyte: the oldest calls are given up")
    func expandingHeaderBlocks() throws {
        let streams = 300
        var decoder = HTTP2StreamDecoder()
        var records = decoder.receive(Self.expandingRequests(streams: streams)[...], fromClient: true, byteOffset: 0)
        records += decoder.finish()

        // Each later call holds about a megabyte; 64 MiB keeps this many of them open.
        let perCall = Self.requestBlock(addsEntry: false).fieldBytes + HTTP2ConnectionDecoder.callOverhead
        let keptOpen = CaptureOptions().maxOpenCallBytes / perCall
        #expect(keptOpen == 66)
        let givenUp = streams - keptOpen
        #expect(records.problems.count == givenUp)
        #expect(records.problems.allSatisfy { $0.error.code == CaptureError.Code.tooManyOpenCalls })
        #expect(records.problems.first?.error.message.contains("the oldest, stream 1, is given up") == true)
        // Every call ends once, the oldest first: those given up, then those the input ended in.
        let ends = records.callEnds
        let expectedStreams: [UInt32] = (0..<streams).map { UInt32(1 + 2 * $0) }
        #expect(ends.map(\.streamID) == expectedStreams)
        #expect(ends.allSatisfy { (end: CapturedCallEnd) in end.status.code == StatusCode.unavailable })
        #expect(ends.allSatisfy { $0.method == Self.path })
        #expect(ends.prefix(givenUp).allSatisfy { $0.status.message.contains("gave the call up") })
        #expect(ends.suffix(keptOpen).allSatisfy { $0.status.message.contains("the capture ended") })
    }

    @Test("the open calls never hold more than the limit, frame after frame")
    func limitHeldAfterEveryFrame() throws {
        let limit = 3 << 20
        var decoder = HTTP2ConnectionDecoder(
            connection: CapturedConnection(id: 1, client: nil, server: nil),
            options: CaptureOptions(maxOpenCallBytes: limit))
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        let start = CaptureTimestamp(seconds: 0, nanoseconds: 0)
        reader.append(Self.expandingRequests(streams: 40)[...], byteOffset: 0, timestamp: start)
        var records: [CaptureRecord] = []
        var frames = 0
        var mostHeld = 0
        while let event = try reader.next() {
            guard case .frame(let frame) = event else { continue }
            decoder.receive(frame, fromClient: true, into: &records)
            frames += 1
            mostHeld = max(mostHeld, decoder.heldBytes)
        }
        // SETTINGS and 40 HEADERS frames; never more than three megabyte-sized calls open at once.
        #expect(frames == 41)
        #expect(mostHeld <= limit)
        #expect(decoder.openCallCount == 3)
        #expect(records.problems.count == 37)
    }

    @Test("unfinished messages count: calls that each send part of a large message hold no more than the limit")
    func unfinishedMessages() throws {
        let limit = 8 << 20
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", scheme: .https,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests")
        // 400 requests, each a prefix promising a 1 MiB message and its first 16,000 bytes.
        var conversation = GRPCConversation()
        let part = [0, 0, 0x10, 0, 0] + [UInt8](repeating: 0x2A, count: 16_000)
        for index in 0..<400 {
            let streamID = UInt32(1 + 2 * index)
            conversation.headers(head.headerFields, streamID: streamID, endStream: false, fromClient: true)
            conversation.data(part, streamID: streamID, endStream: false, fromClient: true)
        }
        var decoder = HTTP2ConnectionDecoder(
            connection: CapturedConnection(id: 1, client: nil, server: nil),
            options: CaptureOptions(maxOpenCallBytes: limit))
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        reader.append(
            conversation.clientBytes[...], byteOffset: 0, timestamp: CaptureTimestamp(seconds: 0, nanoseconds: 0))
        var records: [CaptureRecord] = []
        var mostBuffered = 0
        while let event = try reader.next() {
            guard case .frame(let frame) = event else { continue }
            decoder.receive(frame, fromClient: true, into: &records)
            // What the open calls' buffers really hold, read from the buffers themselves.
            let buffered = decoder.calls.values.reduce(0) { $0 + $1.bufferedMessageBytes }
            #expect(decoder.heldMessageBytes == buffered)
            #expect(decoder.heldBytes <= limit)
            mostBuffered = max(mostBuffered, buffered)
        }
        // Each open call buffers at least the 16,005 bytes it was sent.
        #expect(mostBuffered <= limit)
        #expect(decoder.openCallCount * 16_005 <= limit)
        #expect(decoder.openCallCount > 0)
        #expect(records.problems.count == 400 - decoder.openCallCount)
        #expect(records.problems.allSatisfy { $0.error.code == CaptureError.Code.tooManyOpenCalls })
        #expect(records.problems.first?.error.message.contains("unfinished messages") == true)
    }

    @Test("calls opened by DATA alone, on stream after stream, are bounded by the same limit")
    func dataOnEndlessStreams() throws {
        var conversation = GRPCConversation()
        for index in 0..<5_000 {
            // A message prefix promising 100 bytes, never followed by them.
            conversation.data(
                [0, 0, 0, 0, 100], streamID: UInt32(1 + 2 * index), endStream: false, fromClient: true)
        }
        // Each call is charged its overhead and the buffer its five bytes wait in.
        var deframer = GRPCMessageDeframer()
        deframer.append([0, 0, 0, 0, 100])
        let calls = 100
        var decoder = HTTP2StreamDecoder(
            options: CaptureOptions(
                maxOpenCallBytes: calls * (HTTP2ConnectionDecoder.callOverhead + deframer.bufferCapacity)))
        var records = decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
        records += decoder.finish()
        #expect(records.problems.count == 5_000 - calls)
        #expect(records.callEnds.count == 5_000)
        #expect(records.callEnds.suffix(calls).allSatisfy { $0.status.message.contains("the capture ended") })
    }

    @Test("calls that end free what they held: thousands in a row under a limit of a few calls give none up")
    func endedCallsFreeTheirShare() throws {
        var conversation = GRPCConversation()
        for index in 0..<2_000 {
            let streamID = UInt32(1 + 2 * index)
            try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: streamID)
            try conversation.response(
                HTTP2StreamDecoderTests.trip(points: 2), status: CallStatus(code: .ok), streamID: streamID)
        }
        var decoder = HTTP2StreamDecoder(options: CaptureOptions(maxOpenCallBytes: 3 * 1_024 + 4_096))
        var records = decoder.receiveInterleaved(conversation.interleavedBytes[...], byteOffset: 0)
        records += decoder.finish()
        #expect(records.problems.isEmpty)
        #expect(records.callEnds.count == 2_000)
        #expect(records.callEnds.allSatisfy { $0.status.code == StatusCode.ok })
    }

    @Test("in a capture, the bound covers every connection, and the one that goes over gives up its own oldest calls")
    func boundAcrossConnections() throws {
        let head = try GRPCRequestHead(
            method: .getTrip, authority: "fleetengine.googleapis.com", scheme: .https,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests")
        let perCall =
            head.headerFields.reduce(0) { $0 + Self.size(name: $1.name, value: $1.value) }
            + HTTP2ConnectionDecoder.callOverhead
        // Two connections open requests that are never answered: three on the first, then five on
        // the second, against room for six.
        var packets: [[UInt8]] = []
        for (port, count) in [(UInt16(50_001), 3), (UInt16(50_002), 5)] {
            var conversation = GRPCConversation()
            for index in 0..<count {
                try conversation.request(
                    HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: UInt32(1 + 2 * index))
            }
            var connection = SyntheticTCPConnection.ipv4(clientPort: port, serverPort: 50_051)
            packets += connection.handshake()
            packets += connection.send(conversation.clientBytes, from: .client)
        }
        var decoder = CaptureDecoder(options: CaptureOptions(maxOpenCallBytes: 6 * perCall))
        let file = CaptureWriter.file(of: packets)
        var records = try decoder.decode(file)
        let problems = records.problems
        #expect(problems.map(\.streamID) == [1, 3])
        #expect(problems.allSatisfy { $0.error.code == CaptureError.Code.tooManyOpenCalls })
        #expect(problems.allSatisfy { $0.connection?.client?.port == 50_002 })
        records += try decoder.finish()
        let openAtEnd = records.callEnds.filter { $0.status.message.contains("the capture ended") }
        #expect(openAtEnd.count == 6)
        #expect(openAtEnd.filter { $0.connection.client?.port == 50_001 }.map(\.streamID) == [1, 3, 5])
        #expect(openAtEnd.filter { $0.connection.client?.port == 50_002 }.map(\.streamID) == [5, 7, 9])
    }
}
