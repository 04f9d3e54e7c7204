import FleetEngineCapture
import Testing

@Suite("Looking for a frame boundary: bytes passed over are let go, and their run is reported once, whole")
struct FrameBoundarySearchTests {
    static let chunk = [UInt8](repeating: 0xFF, count: 64_000)
    static let start = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 0)

    /// An empty SETTINGS frame and a PING: two plausible frame headers in a row.
    static let twoFrames: [UInt8] =
        [0, 0, 0, 0x4, 0, 0, 0, 0, 0] + [0, 0, 8, 0x6, 0, 0, 0, 0, 0] + [1, 2, 3, 4, 5, 6, 7, 8]

    /// The skipped run an event reports, if it is one.
    static func skipped(_ event: HTTP2FrameReader.Event?) -> (streamOffset: Int64, length: Int64, byteOffset: Int64)? {
        guard case .skipped(let streamOffset, let length, let byteOffset) = event else { return nil }
        return (streamOffset, length, byteOffset)
    }

    static func frame(_ event: HTTP2FrameReader.Event?) -> CapturedHTTP2Frame? {
        guard case .frame(let frame) = event else { return nil }
        return frame
    }

    /// Appends `count` chunks that hold no frame, the first at input offset `byteOffset`, reading
    /// after each; returns the most bytes the reader held after a read.
    static func appendRun(_ count: Int, to reader: inout HTTP2FrameReader, at byteOffset: Int64) throws -> Int {
        var mostHeld = 0
        for index in 0..<count {
            reader.append(chunk[...], byteOffset: byteOffset + Int64(index * chunk.count), timestamp: start)
            #expect(try reader.next() == nil)
            mostHeld = max(mostHeld, reader.bufferedByteCount)
        }
        return mostHeld
    }

    @Test("6.4 MB that hold no frame (a connection that is not HTTP/2): the reader holds a few bytes of it")
    func longRunIsLetGo() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: false)
        // Everything but the last bytes, which could still begin a frame header, is let go.
        #expect(try Self.appendRun(100, to: &reader, at: 1_000) < HTTP2FrameReader.frameHeaderLength)
        reader.append(Self.twoFrames[...], byteOffset: 6_401_000, timestamp: Self.start)
        let run = try #require(Self.skipped(try reader.next()))
        #expect(run.streamOffset == 0)
        #expect(run.length == 6_400_000)
        #expect(run.byteOffset == 1_000)
        let settings = try #require(Self.frame(try reader.next()))
        #expect(settings.type == .settings)
        #expect(settings.streamOffset == 6_400_000)
        #expect(settings.byteOffset == 6_401_000)
        #expect(Self.frame(try reader.next())?.type == .ping)
        #expect(try reader.next() == nil)
    }

    @Test("a run cut by missing bytes ends where the bytes do; reading goes on after the gap")
    func runThenGap() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: false)
        reader.append(Self.chunk[...], byteOffset: 0, timestamp: Self.start)
        reader.append(Self.chunk[...], byteOffset: 64_000, timestamp: Self.start)
        #expect(try reader.next() == nil)
        let run = try #require(Self.skipped(reader.skipMissingBytes(50)))
        #expect((run.streamOffset, run.length, run.byteOffset) == (0, 128_000, 0))
        reader.append(Self.twoFrames[...], byteOffset: 200_000, timestamp: Self.start)
        let settings = try #require(Self.frame(try reader.next()))
        #expect(settings.streamOffset == 128_050)
        #expect(settings.byteOffset == 200_000)
    }

    @Test("a run still open when the stream ends is reported whole by finish()")
    func runAtTheEnd() throws {
        var reader = HTTP2FrameReader(startsAtConnectionStart: false)
        _ = try Self.appendRun(10, to: &reader, at: 500)
        let run = try #require(Self.skipped(reader.finish()))
        #expect((run.streamOffset, run.length, run.byteOffset) == (0, 640_000, 500))
        #expect(reader.finish() == nil)
    }
}
