import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCRequestReader")
struct GRPCRequestReaderTests {
    static func head(encoding: MessageEncoding = .identity) throws -> GRPCRequestHead {
        try GRPCRequestHead(
            method: .getTrip, authority: "localhost", scheme: .http, timeout: GRPCTimeout(.seconds(5)),
            encoding: encoding, metadata: ["authorization": "Bearer t"])
    }

    @Test("reads the head, the messages, then END_STREAM on an empty DATA frame")
    func emptyFinalData() throws {
        let head = try Self.head()
        var reader = GRPCRequestReader()
        #expect(reader.receiveHeaders(head.headerFields, endStream: false) == [.requestHead(head)])
        #expect(
            reader.receiveData(grpcFramed([1]) + grpcFramed([2, 3]), endStream: false)
                == [.message([1]), .message([2, 3])])
        #expect(reader.receiveData([UInt8](), endStream: true) == [.end])
        #expect(reader.isFinished)
        #expect(reader.head == head)
        #expect(reader.messageCount == 2)
        #expect(reader.receiveData(grpcFramed([4]), endStream: true) == [])
    }

    @Test("reads END_STREAM on the DATA frame that carries the last message, however the frames cut it")
    func everyCut() throws {
        let head = try Self.head()
        let payloads: [[UInt8]] = [[0x0A, 0x01, 0x74], [], [7, 7, 7]]
        let body = payloads.flatMap { grpcFramed($0) }
        for cut in DeframerVerifier.cuts(of: body) {
            var reader = GRPCRequestReader()
            var events = reader.receiveHeaders(head.headerFields, endStream: false)
            for (index, piece) in cut.pieces.enumerated() {
                events += reader.receiveData(piece, endStream: index == cut.pieces.count - 1)
            }
            #expect(events == [.requestHead(head)] + payloads.map { .message($0) } + [.end], "\(cut)")
        }
    }

    @Test("a request whose headers carry END_STREAM has no messages")
    func headersOnly() throws {
        let head = try Self.head()
        var reader = GRPCRequestReader()
        #expect(reader.receiveHeaders(head.headerFields, endStream: true) == [.requestHead(head), .end])
    }

    @Test("decompresses a gzip request")
    func gzip() throws {
        let head = try Self.head(encoding: .gzip)
        let body = try GRPCMessageFramer(encoding: .gzip).frame(Array("hello hello hello".utf8))
        var reader = GRPCRequestReader()
        _ = reader.receiveHeaders(head.headerFields, endStream: false)
        #expect(reader.receiveData(body, endStream: true) == [.message(Array("hello hello hello".utf8)), .end])
    }

    @Test("RST_STREAM ends the request; what follows is ignored")
    func reset() throws {
        var reader = GRPCRequestReader()
        _ = reader.receiveHeaders(try Self.head().headerFields, endStream: false)
        #expect(reader.receiveReset(.cancel) == [.reset(.cancel)])
        #expect(reader.receiveData(grpcFramed([1]), endStream: true) == [])
        #expect(reader.receiveReset(.cancel) == [])
    }

    @Test("DATA before the headers fails the request")
    func dataFirst() throws {
        var reader = GRPCRequestReader()
        let events = reader.receiveData([0, 0, 0, 0, 0], endStream: true)
        guard case .failed(let error) = events.first else {
            Issue.record("expected a failure: \(events)")
            return
        }
        #expect(error == WireError(.unexpectedFrame))
        #expect(error.message == "a DATA frame of 5 bytes arrived before the request headers")
    }

    @Test("an invalid head fails the request with the head's error")
    func invalidHead() {
        var reader = GRPCRequestReader()
        let events = reader.receiveHeaders([(":method", "GET")], endStream: false)
        #expect(events == [.failed(WireError(.invalidHeader))])
        #expect(reader.isFinished)
    }

    @Test("END_STREAM inside a message fails the request, naming the byte offset")
    func partialMessage() throws {
        var reader = GRPCRequestReader()
        _ = reader.receiveHeaders(try Self.head().headerFields, endStream: false)
        let events = reader.receiveData(grpcFramed([1]) + [0, 0, 0, 0, 9, 1, 2], endStream: true)
        #expect(events.first == .message([1]))
        guard case .failed(let error) = events.last else {
            Issue.record("expected a failure: \(events)")
            return
        }
        #expect(error == WireError(.truncatedMessage))
        #expect(error.byteOffset == 6)
        #expect(
            error.message
                == "the request ended inside a message: stream ended after 2 of the message's 9 bytes; 7 bytes are missing"
        )
    }

    @Test("trailers on a request, an oversized message and a lost connection each fail the request")
    func failures() throws {
        let fields = try Self.head().headerFields
        var trailers = GRPCRequestReader()
        _ = trailers.receiveHeaders(fields, endStream: false)
        #expect(trailers.receiveHeaders([("x", "1")], endStream: true) == [.failed(WireError(.unexpectedFrame))])

        var large = GRPCRequestReader(maxMessageSize: 4)
        _ = large.receiveHeaders(fields, endStream: false)
        let events = large.receiveData(grpcFramed([1, 2, 3, 4, 5]), endStream: false)
        guard case .failed(let error) = events.last else {
            Issue.record("expected a failure: \(events)")
            return
        }
        #expect(error == WireError(.messageTooLarge))
        #expect(error.message == "request message 1: Message-Length is 5 bytes, more than the limit of 4 bytes")

        var cut = GRPCRequestReader()
        _ = cut.receiveHeaders(fields, endStream: false)
        _ = cut.receiveData([0, 0, 0], endStream: false)
        guard case .failed(let lost) = cut.receiveEndOfConnection().last else {
            Issue.record("expected a failure")
            return
        }
        #expect(lost == WireError(.incompleteStream))
        #expect(
            lost.message
                == "the connection closed before the request ended (after 0 messages); 3 bytes of an unfinished "
                + "message were received")
    }

    @Test("a request that ends, is reset or fails lets go of its message buffer")
    func releasesBufferAtTheEnd() throws {
        let fields = try Self.head().headerFields
        let partial: [UInt8] = [0, 0, 0, 0, 100] + Array(repeating: 7, count: 60)

        var ended = GRPCRequestReader()
        _ = ended.receiveHeaders(fields, endStream: false)
        #expect(
            ended.receiveData(grpcFramed([1]) + grpcFramed([2, 3]), endStream: true)
                == [.message([1]), .message([2, 3]), .end])
        #expect(ended.bufferCapacity == 0)

        var reset = GRPCRequestReader()
        _ = reset.receiveHeaders(fields, endStream: false)
        _ = reset.receiveData(partial, endStream: false)
        #expect(reset.bufferCapacity >= partial.count)
        #expect(reset.receiveReset(.cancel) == [.reset(.cancel)])
        #expect(reset.bufferCapacity == 0)

        var failed = GRPCRequestReader()
        _ = failed.receiveHeaders(fields, endStream: false)
        _ = failed.receiveData(partial, endStream: false)
        #expect(failed.receiveHeaders([("x", "1")], endStream: true) == [.failed(WireError(.unexpectedFrame))])
        #expect(failed.bufferCapacity == 0)

        var lost = GRPCRequestReader()
        _ = lost.receiveHeaders(fields, endStream: false)
        _ = lost.receiveData(partial, endStream: false)
        #expect(lost.receiveEndOfConnection() == [.failed(WireError(.incompleteStream))])
        #expect(lost.bufferCapacity == 0)
    }
}
