import Testing

@testable import FleetEngineCapture

@Suite("A frame cut by missing bytes, or given up, is named, and reading goes on at its end")
struct LostFrameTests {
    static let start = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 0)
    /// Where the stream's first byte is in the input.
    static let base: Int64 = 5_000

    /// A DATA frame of `length` payload bytes, all `fill`.
    static func dataFrame(streamID: UInt8, length: Int, fill: UInt8) -> [UInt8] {
        [UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), 0x0, 0, 0, 0, 0, streamID]
            + [UInt8](repeating: fill, count: length)
    }

    /// A 20,000-byte DATA frame on stream 1, then a 30,000-byte one on stream 3: longer than a
    /// reader looking for a frame boundary accepts (16,384 unless SETTINGS said more).
    static let first = dataFrame(streamID: 1, length: 20_000, fill: 0xA1)
    static let second = dataFrame(streamID: 3, length: 30_000, fill: 0xB3)

    static func lost(_ event: HTTP2FrameReader.Event?) -> LostHTTP2Frame? {
        guard case .lostFrame(let frame) = event else { return nil }
        return frame
    }

    static func frame(_ event: HTTP2FrameReader.Event?) -> CapturedHTTP2Frame? {
        guard case .frame(let frame) = event else { return nil }
        return frame
    }

    /// Appends `bytes[range]` as if read at their place in the input.
    static func append(_ bytes: [UInt8], _ range: Range<Int>, at streamOffset: Int, to reader: inout HTTP2FrameReader) {
        reader.append(bytes[range], byteOffset: base + Int64(streamOffset), timestamp: start)
    }

    @Test("a gap inside a frame whose header was read: that frame is lost, and the next is read where it starts")
    func gapInsideAFrame() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        let stream = Self.first + Self.second
        Self.append(stream, 0..<5_009, at: 0, to: &reader)
        #expect(try reader.next() == nil)
        let lost = try #require(Self.lost(reader.skipMissingBytes(10_000)))
        #expect(
            lost
                == LostHTTP2Frame(
                    type: .data, flags: [], streamID: 1, length: 20_000, bytesRead: 5_009, streamOffset: 0,
                    byteOffset: Self.base))
        #expect(reader.bufferedByteCount == 0)
        Self.append(stream, 15_009..<stream.count, at: 15_009, to: &reader)
        // No boundary is looked for: the 30,000-byte frame is read at once, where the lost one ended.
        let next = try #require(Self.frame(try reader.next()))
        #expect(next.streamID == 3)
        #expect(next.length == 30_000)
        #expect(next.streamOffset == 20_009)
        #expect(next.byteOffset == Self.base + 20_009)
        #expect(next.payload.allSatisfy { $0 == 0xB3 })
        #expect(try reader.next() == nil)
    }

    @Test("a gap that runs past the end of the frame it starts in: the frame is lost, then a boundary is looked for")
    func gapPastTheFrameEnd() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        Self.append(Self.first, 0..<109, at: 0, to: &reader)
        #expect(try reader.next() == nil)
        // The rest of the frame (19,900 bytes) and 50 bytes after it are missing.
        let lost = try #require(Self.lost(reader.skipMissingBytes(19_950)))
        #expect(lost.streamID == 1)
        #expect(lost.bytesRead == 109)
        let garbage = [UInt8](repeating: 0xFF, count: 30)
        let frames = FrameBoundarySearchTests.twoFrames
        reader.append((garbage + frames)[...], byteOffset: Self.base + 20_059, timestamp: Self.start)
        let run = try #require(FrameBoundarySearchTests.skipped(try reader.next()))
        #expect(run.streamOffset == 20_059)
        #expect(run.length == 30)
        #expect(Self.frame(try reader.next())?.type == .settings)
        #expect(Self.frame(try reader.next())?.type == .ping)
    }

    @Test("a frame given up is dropped as the rest of it comes, in pieces; the frame after it is read exactly")
    func giveUpPartialFrame() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        let stream = Self.first + Self.second
        Self.append(stream, 0..<1_009, at: 0, to: &reader)
        #expect(try reader.next() == nil)
        let lost = try #require(Self.lost(reader.giveUpPartialFrame()))
        #expect(lost.streamID == 1)
        #expect(lost.bytesRead == 1_009)
        #expect(reader.bufferedByteCount == 0)
        // The rest of the first frame and the start of the second, in three appends.
        for range in [1_009..<8_000, 8_000..<20_000, 20_000..<20_100] {
            Self.append(stream, range, at: range.lowerBound, to: &reader)
            #expect(try reader.next() == nil)
        }
        #expect(reader.bufferedByteCount == 91)
        Self.append(stream, 20_100..<stream.count, at: 20_100, to: &reader)
        let next = try #require(Self.frame(try reader.next()))
        #expect(next.streamID == 3)
        #expect(next.streamOffset == 20_009)
        #expect(next.byteOffset == Self.base + 20_009)
        #expect(next.payload.count == 30_000)
        // Nothing is left to give up.
        #expect(reader.giveUpPartialFrame() == nil)
    }

    @Test("a gap inside the rest of a frame given up only shortens what is dropped")
    func gapWhileDroppingTheRest() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        let stream = Self.first + Self.second
        Self.append(stream, 0..<100, at: 0, to: &reader)
        #expect(try reader.next() == nil)
        #expect(Self.lost(reader.giveUpPartialFrame()) != nil)
        #expect(reader.skipMissingBytes(5_000) == nil)
        Self.append(stream, 5_100..<stream.count, at: 5_100, to: &reader)
        #expect(Self.frame(try reader.next())?.streamOffset == 20_009)
    }

    @Test("the input ending inside a frame reports that frame, with how much of it was read")
    func endInsideAFrame() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        Self.append(Self.first, 0..<12_345, at: 0, to: &reader)
        #expect(try reader.next() == nil)
        let lost = try #require(Self.lost(reader.finish()))
        #expect(lost.length == 20_000)
        #expect(lost.bytesRead == 12_345)
        #expect(lost.label == "DATA frame of 20000 bytes on stream 1 (at stream offset 0)")
    }

    @Test("a frame header longer than the receiver takes is a lost boundary: reported, and the next one found")
    func frameLongerThanTheReceiverTakes() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        reader.maxFrameLength = 16_384
        // A DATA header declaring 100,000 bytes, 20 bytes of something, then two real frames.
        let bogus: [UInt8] = [0x01, 0x86, 0xA0, 0x0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0x55, count: 20)
        reader.append((bogus + FrameBoundarySearchTests.twoFrames)[...], byteOffset: Self.base, timestamp: Self.start)
        #expect(throws: CaptureError(.malformedFrame)) { try reader.next() }
        #expect(reader.isLookingForFrameBoundary)
        let run = try #require(FrameBoundarySearchTests.skipped(try reader.next()))
        #expect(run.streamOffset == 0)
        #expect(run.length == 29)
        #expect(run.byteOffset == Self.base)
        #expect(Self.frame(try reader.next())?.type == .settings)
        #expect(Self.frame(try reader.next())?.type == .ping)
    }

    @Test("a buffer grown for a 4 MB frame is given back once the frame is read")
    func memoryGivenBack() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: true)
        let large = Self.dataFrame(streamID: 1, length: 4_000_000, fill: 0x2A)
        var offset = 0
        var frames = 0
        while offset < large.count {
            let end = min(offset + 65_000, large.count)
            Self.append(large, offset..<end, at: offset, to: &reader)
            while let event = try reader.next() {
                if Self.frame(event) != nil { frames += 1 }
            }
            offset = end
        }
        #expect(frames == 1)
        #expect(reader.allocatedCapacity <= HTTP2FrameReader.retainedCapacity)
        #expect(reader.bufferedByteCount == 0)
    }
}
