import Testing

@testable import FleetEngineWire

@Suite("GRPCMessageDeframer's memory: room for a message ahead of its bytes, but never far beyond the bytes read")
struct GRPCMessageDeframerMemoryTests {
    static func prefix(length: Int) -> [UInt8] {
        [0, UInt8(length >> 24 & 0xff), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
    }

    @Test("a message's first 16 KiB make room for all of it, so the rest is appended without growing the buffer")
    func reservesForTheMessage() throws {
        let payload = (0..<18_045).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let stream = Self.prefix(length: payload.count) + payload
        var deframer = GRPCMessageDeframer()
        deframer.append(stream[..<16_384])
        let capacity = deframer.allocatedCapacity
        #expect(capacity >= stream.count)
        #expect(deframer.bufferCapacity == stream.count)
        deframer.append(stream[16_384...])
        #expect(deframer.allocatedCapacity == capacity)
        #expect(deframer.bufferCapacity == stream.count)
        #expect(try deframer.next() == GRPCMessage(payload: payload))
    }

    @Test("bytes from a sequence that can be read only once all reach the message")
    func singlePassSequence() throws {
        let stream = Self.prefix(length: 3) + [7, 8, 9] + Self.prefix(length: 0)
        var deframer = GRPCMessageDeframer()
        var iterator = stream.makeIterator()
        deframer.append(AnySequence { AnyIterator { iterator.next() } })
        #expect(try deframer.next() == GRPCMessage(payload: [7, 8, 9]))
        #expect(try deframer.next() == GRPCMessage(payload: []))
        #expect(try deframer.next() == nil)
    }

    @Test("a bare prefix that promises 4 MiB holds a few bytes, not the 4 MiB nor the 64 KiB cap", arguments: [1, 5])
    func barePrefix(piece: Int) throws {
        var deframers = [GRPCMessageDeframer](repeating: GRPCMessageDeframer(), count: 1_000)
        let bytes = Self.prefix(length: GRPCMessageDeframer.defaultMaxMessageSize)
        for index in deframers.indices {
            for start in stride(from: 0, to: bytes.count, by: piece) {
                deframers[index].append(bytes[start..<min(start + piece, bytes.count)])
            }
        }
        let held = deframers.reduce(0) { $0 + $1.allocatedCapacity }
        #expect(held <= 1_000 * 64)
        // What the deframers are charged for: the five bytes each holds, and four times that ahead.
        #expect(deframers.allSatisfy { $0.bufferCapacity == (piece == 5 ? 20 : 5) })
        #expect(try deframers[0].next() == nil)
    }

    @Test("the room a large message took is let go once it has been read, so what the deframer is charged covers it")
    func largeMessageRoomIsLetGo() throws {
        // A small message, then a 4 MiB one, then the start of a third, in 16 KiB DATA frames: the
        // large message is not alone in the buffer, so it is copied out rather than handed over.
        let stream =
            Self.prefix(length: 3) + [1, 2, 3] + Self.prefix(length: 4 << 20) + [UInt8](repeating: 0x2A, count: 4 << 20)
            + Self.prefix(length: 10)
        var deframer = GRPCMessageDeframer()
        var messages = 0
        for start in stride(from: 0, to: stream.count, by: 16_384) {
            deframer.append(stream[start..<min(start + 16_384, stream.count)])
            while try deframer.next() != nil { messages += 1 }
        }
        deframer.append([0x2A])
        #expect(messages == 2)
        #expect(deframer.bufferedByteCount == 6)
        #expect(
            deframer.allocatedCapacity <= max(deframer.bufferCapacity, GRPCMessageDeframer.maxReservation),
            "holds \(deframer.allocatedCapacity) bytes, charged for \(deframer.bufferCapacity)")
    }

    @Test("after a framing fault the bytes that follow are not kept, and every next() reports the same fault")
    func bytesAfterAFaultAreDropped() throws {
        var deframer = GRPCMessageDeframer()
        deframer.append(Self.prefix(length: 1) + [9] + [2, 0, 0, 0, 1, 7])
        #expect(try deframer.next() == GRPCMessage(payload: [9]))
        #expect(throws: WireError(.invalidCompressedFlag)) { try deframer.next() }
        let charged = deframer.bufferCapacity
        // A reader that goes on feeding the stream (the capture decoder does, frame after frame)
        // must not make the deframer hold all of it.
        for _ in 0..<16 {
            deframer.append([UInt8](repeating: 0, count: 64 * 1024))
        }
        #expect(deframer.bufferCapacity == charged)
        #expect(deframer.allocatedCapacity <= GRPCMessageDeframer.maxReservation)
        let error = try #require(throws: WireError(.invalidCompressedFlag)) { try deframer.next() }
        #expect(error.byteOffset == 6)
        #expect(throws: WireError(.invalidCompressedFlag)) { try deframer.finish() }
    }
}
