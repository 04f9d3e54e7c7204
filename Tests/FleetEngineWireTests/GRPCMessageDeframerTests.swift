import FleetEngineTestSupport
import FleetEngineWire
import Testing

@Suite("GRPCMessageDeframer")
struct GRPCMessageDeframerTests {
    @Test("returns the same messages however the stream is cut")
    func everyCut() {
        let payloads: [[UInt8]] = [[0x08, 0x96, 0x01], [], Array(0..<40), [0xff]]
        let stream = payloads.flatMap { grpcFramed($0) }
        let expected = payloads.map { GRPCMessage(payload: $0) }
        for cut in DeframerVerifier.cuts(of: stream) {
            let result = DeframerVerifier().deframe(cut)
            #expect(result.messages == expected, "\(cut)")
            #expect(result.error == nil, "\(cut)")
        }
    }

    @Test("keeps the Compressed-Flag of each message")
    func compressedFlag() {
        let stream = grpcFramed([1, 2], flag: 1) + grpcFramed([3], flag: 0) + grpcFramed([], flag: 1)
        let expected = [
            GRPCMessage(isCompressed: true, payload: [1, 2]),
            GRPCMessage(isCompressed: false, payload: [3]),
            GRPCMessage(isCompressed: true, payload: []),
        ]
        for cut in DeframerVerifier.cuts(of: stream) {
            #expect(DeframerVerifier().deframe(cut).messages == expected, "\(cut)")
        }
    }

    @Test("returns a zero-length message as soon as its prefix is complete")
    func zeroLengthMessage() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append([0, 0, 0, 0])
        #expect(try deframer.next() == nil)
        deframer.append([0])
        #expect(try deframer.next() == GRPCMessage(payload: []))
        #expect(try deframer.next() == nil)
        try deframer.finish()
    }

    @Test("an empty stream holds no messages and ends cleanly")
    func emptyStream() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append([])
        #expect(try deframer.next() == nil)
        try deframer.finish()
        #expect(deframer.bufferedByteCount == 0)
    }

    @Test("tracks the stream offset of each message across many appends")
    func offsets() throws {
        var deframer = GRPCMessageDeframer()
        var offsets: [Int] = []
        // 100 messages of 7 bytes each, fed 3 bytes at a time, so buffered bytes are dropped often.
        let stream = (0..<100).flatMap { grpcFramed([UInt8($0), 0]) }
        for start in stride(from: 0, to: stream.count, by: 3) {
            deframer.append(stream[start..<min(start + 3, stream.count)])
            while try deframer.next() != nil {
                offsets.append(try #require(deframer.lastMessageOffset))
            }
        }
        #expect(offsets == (0..<100).map { $0 * 7 })
        #expect(deframer.nextMessageOffset == 700)
        #expect(deframer.bufferedByteCount == 0)
    }

    @Test("accepts a message exactly at the size limit")
    func atLimit() {
        let stream = grpcFramed(Array(repeating: 7, count: 16))
        for cut in DeframerVerifier.cuts(of: stream) {
            let result = DeframerVerifier(maxMessageSize: 16).deframe(cut)
            #expect(result.messages == [GRPCMessage(payload: Array(repeating: 7, count: 16))], "\(cut)")
            #expect(result.error == nil, "\(cut)")
        }
    }

    @Test("refuses a message over the limit as soon as its prefix arrives")
    func overLimitBeforeBody() throws {
        var deframer = GRPCMessageDeframer(maxMessageSize: 16)
        deframer.append(grpcFramed([9, 9]))
        #expect(try deframer.next() == GRPCMessage(payload: [9, 9]))
        // Only the prefix of the second message: a 17-byte body is refused without waiting for it.
        deframer.append([0, 0, 0, 0, 17])
        let error = try #require(throws: WireError(.messageTooLarge)) { try deframer.next() }
        #expect(error.byteOffset == 7)
        #expect(error.message == "Message-Length is 17 bytes, more than the limit of 16 bytes")
        #expect(error.description == "message too large: " + error.message + " (message at byte offset 7)")
        // The fault stays: nothing after it starts on a known boundary.
        deframer.append(Array(repeating: 0, count: 17))
        #expect(throws: WireError(.messageTooLarge)) { try deframer.next() }
    }

    @Test("refuses the largest possible Message-Length under the default limit")
    func hugeLength() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append([0, 0xff, 0xff, 0xff, 0xff])
        let error = try #require(throws: WireError(.messageTooLarge)) { try deframer.next() }
        #expect(error.message == "Message-Length is 4294967295 bytes, more than the limit of 4194304 bytes")
    }

    @Test("reports an over-limit message at its offset however the stream is cut")
    func overLimitEveryCut() {
        let stream = grpcFramed([1]) + grpcFramed(Array(repeating: 0, count: 20))
        for cut in DeframerVerifier.cuts(of: stream) {
            let result = DeframerVerifier(maxMessageSize: 10).deframe(cut)
            #expect(result.messages == [GRPCMessage(payload: [1])], "\(cut)")
            #expect(result.error == WireError(.messageTooLarge), "\(cut)")
            #expect(result.error?.byteOffset == 6, "\(cut)")
        }
    }

    @Test("refuses a Compressed-Flag other than 0 or 1", arguments: [UInt8(2), 0x80, 0xff])
    func invalidFlag(flag: UInt8) throws {
        var deframer = GRPCMessageDeframer()
        deframer.append(grpcFramed([1, 2, 3]) + grpcFramed([4], flag: flag))
        #expect(try deframer.next() == GRPCMessage(payload: [1, 2, 3]))
        let error = try #require(throws: WireError(.invalidCompressedFlag)) { try deframer.next() }
        #expect(error.byteOffset == 8)
        #expect(error.message == "Compressed-Flag is \(flag); gRPC defines only 0 and 1")
    }

    @Test("says how many prefix bytes are missing when the stream ends inside a prefix")
    func truncatedPrefix() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append(grpcFramed([5, 6]) + [0, 0, 0])
        #expect(try deframer.next() == GRPCMessage(payload: [5, 6]))
        #expect(try deframer.next() == nil)
        let error = try #require(throws: WireError(.truncatedMessage)) { try deframer.finish() }
        #expect(error.byteOffset == 7)
        #expect(
            error.message == "stream ended 3 bytes into a message's 5-byte prefix; 2 bytes of the prefix are missing")
    }

    @Test("says how many payload bytes are missing when the stream ends inside a payload")
    func truncatedPayload() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append(Array(grpcFramed(Array(repeating: 1, count: 250)).prefix(105)))
        #expect(try deframer.next() == nil)
        let error = try #require(throws: WireError(.truncatedMessage)) { try deframer.finish() }
        #expect(error.byteOffset == 0)
        #expect(error.message == "stream ended after 100 of the message's 250 bytes; 150 bytes are missing")
    }

    @Test("reports truncation however the stream is cut")
    func truncatedEveryCut() {
        let stream = grpcFramed([1, 2, 3]) + Array(grpcFramed([4, 5, 6, 7]).dropLast())
        for cut in DeframerVerifier.cuts(of: stream) {
            let result = DeframerVerifier().deframe(cut)
            #expect(result.messages == [GRPCMessage(payload: [1, 2, 3])], "\(cut)")
            #expect(result.error == WireError(.truncatedMessage), "\(cut)")
            #expect(result.error?.byteOffset == 8, "\(cut)")
        }
    }

    @Test("finish checks the messages still buffered, without consuming them")
    func finishWithBufferedMessages() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append(grpcFramed([1]) + grpcFramed([2]))
        try deframer.finish()
        #expect(try deframer.next() == GRPCMessage(payload: [1]))
        deframer.append([0, 0, 0, 0, 9, 1])
        let error = try #require(throws: WireError(.truncatedMessage)) { try deframer.finish() }
        #expect(error.byteOffset == 12)
        #expect(try deframer.next() == GRPCMessage(payload: [2]))
    }
}
