import CLibFuzzer
import CaptureFuzzing
import FleetEngineCapture

/// One libFuzzer run: the input is HTTP/2 as a passive observer sees it, decoded to gRPC records
/// through ``HTTP2StreamDecoder`` (frame reading, HPACK, the gRPC layer and the codec), or read
/// frame by frame with ``HTTP2FrameReader`` across TCP gaps; every record is printed as a JSON
/// line.
///
/// Byte 0 chooses how the rest is read:
///
/// - bit 0: the streams begin at the connection's start (else the reader looks for a frame
///   boundary first);
/// - bits 1-3, modulo 5: 0, the rest is the client's stream, in chunks; 1, the rest is a list of
///   pieces, each a header byte (bit 7: sent by the server; bits 0-6: length minus one) and its
///   bytes, each piece going to its direction (so both directions interleave at any byte); 2, the
///   rest holds both directions' frames interleaved whole, in chunks; 3, the same all at once;
///   4, a list of pieces fed to one ``HTTP2FrameReader``: a header byte with bit 7 set is a gap
///   (`skipMissingBytes`) of bits 0-6 plus one bytes, except 0xFF, which gives up the frame in
///   progress (`giveUpPartialFrame`), else bits 0-6 plus one bytes follow it;
/// - bit 4: a 100-byte message size limit, to reach the oversized-message paths;
/// - bit 5: a method override (`CaptureOptions.methodOverride`).
///
/// Chunk sizes come from a hash of the input, so a replay cuts it the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let control = input.first else { return 0 }
    let bytes = Array(input.dropFirst())[...]
    let startsAtConnectionStart = control & 1 != 0
    var options = CaptureOptions()
    if control & 0x10 != 0 { options.maxMessageSize = 100 }
    if control & 0x20 != 0 { options.methodOverride = "/maps.fleetengine.v1.TripService/GetTrip" }
    var decoder = HTTP2StreamDecoder(options: options, startsAtConnectionStart: startsAtConnectionStart)
    var records: [CaptureRecord] = []
    var chunkSizes = ChunkSizes(seed: ChunkSizes.hash(input))

    switch (Int(control >> 1) & 7) % 5 {
    case 0:
        for (chunk, offset) in chunks(of: bytes, sizes: &chunkSizes) {
            records += decoder.receive(chunk, fromClient: true, byteOffset: offset)
        }
    case 1:
        var offsets: [Bool: Int64] = [true: 0, false: 0]
        for (isServer, piece) in pieces(of: bytes) {
            records += decoder.receive(piece, fromClient: !isServer, byteOffset: offsets[isServer, default: 0])
            offsets[isServer, default: 0] += Int64(piece.count)
        }
    case 2:
        for (chunk, offset) in chunks(of: bytes, sizes: &chunkSizes) {
            records += decoder.receiveInterleaved(chunk, byteOffset: offset)
        }
    case 3:
        records += decoder.receiveInterleaved(bytes, byteOffset: 0)
    default:
        readFrames(bytes, startsAtConnectionStart: startsAtConnectionStart)
        return 0
    }
    records += decoder.finish()
    for record in records {
        _ = record.jsonLine
    }
    return 0
}

/// `bytes` cut into chunks of `sizes`, each with its offset.
func chunks(of bytes: ArraySlice<UInt8>, sizes: inout ChunkSizes) -> [(ArraySlice<UInt8>, Int64)] {
    var chunks: [(ArraySlice<UInt8>, Int64)] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
        let end = min(bytes.endIndex, start + sizes.next())
        chunks.append((bytes[start..<end], Int64(start - bytes.startIndex)))
        start = end
    }
    return chunks
}

/// The pieces of `bytes`: a header byte (bit 7 and a length in bits 0-6, plus one), then that many
/// bytes (fewer for the last piece if the input ends).
func pieces(of bytes: ArraySlice<UInt8>) -> [(flag: Bool, bytes: ArraySlice<UInt8>)] {
    var pieces: [(Bool, ArraySlice<UInt8>)] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
        let header = bytes[start]
        let end = min(bytes.endIndex, start + 1 + Int(header & 0x7F) + 1)
        pieces.append((header & 0x80 != 0, bytes[(start + 1)..<end]))
        start = end
    }
    return pieces
}

/// Feeds one ``HTTP2FrameReader`` the pieces of `bytes` and its gaps, and checks that what it reads lies in the stream in order, without overlapping.
func readFrames(_ bytes: ArraySlice<UInt8>, startsAtConnectionStart: Bool) {
    var reader = HTTP2FrameReader(startsAtConnectionStart: startsAtConnectionStart)
    var streamEnd: Int64 = 0
    var eventsEnd: Int64 = 0
    func check(_ event: HTTP2FrameReader.Event) {
        let start: Int64
        let length: Int64
        switch event {
        case .preface:
            start = 0
            length = Int64(HTTP2FrameReader.clientPreface.count)
        case .frame(let frame):
            start = frame.streamOffset
            length = Int64(HTTP2FrameReader.frameHeaderLength + frame.length)
            if frame.payload.count > frame.length {
                fail("a \(frame.type) frame of \(frame.length) bytes has a \(frame.payload.count)-byte payload")
            }
        case .skipped(let streamOffset, let skippedLength, _):
            start = streamOffset
            length = skippedLength
        case .lostFrame(let frame):
            // What was read of it lies in the stream; the rest of it is dropped as it comes.
            start = frame.streamOffset
            length = Int64(frame.bytesRead)
            if frame.bytesRead < HTTP2FrameReader.frameHeaderLength
                || frame.bytesRead >= HTTP2FrameReader.frameHeaderLength + frame.length
            {
                fail("a lost frame of \(frame.length) bytes had \(frame.bytesRead) bytes read")
            }
        }
        if start < eventsEnd || length < 0 || start + length > streamEnd {
            fail(
                "\(event) lies at \(start)..<\(start + length); the events before it end at \(eventsEnd), "
                    + "the stream at \(streamEnd)")
        }
        eventsEnd = start + length
        if case .lostFrame(let frame) = event {
            eventsEnd = start + Int64(HTTP2FrameReader.frameHeaderLength + frame.length)
        }
    }
    func drain() {
        while true {
            let event: HTTP2FrameReader.Event?
            do throws(CaptureError) {
                event = try reader.next()
            } catch {
                guard error.code == .malformedFrame else {
                    fail("next() threw an undocumented \(error.code): \(error)")
                }
                continue
            }
            guard let event else { return }
            check(event)
        }
    }
    var start = bytes.startIndex
    while start < bytes.endIndex {
        let header = bytes[start]
        let count = Int(header & 0x7F) + 1
        start += 1
        if header == 0xFF {
            if let lost = reader.giveUpPartialFrame() { check(lost) }
        } else if header & 0x80 != 0 {
            let length = Int64(count)
            if let skipped = reader.skipMissingBytes(length) { check(skipped) }
            streamEnd += length
            eventsEnd = max(eventsEnd, streamEnd)
        } else {
            let piece = bytes[start..<min(bytes.endIndex, start + count)]
            start = piece.endIndex
            reader.append(piece, byteOffset: streamEnd, timestamp: CaptureTimestamp(seconds: 0, nanoseconds: 0))
            streamEnd += Int64(piece.count)
        }
        drain()
        if reader.endStreamOffset != streamEnd {
            fail("the reader's stream ends at \(reader.endStreamOffset), not \(streamEnd)")
        }
    }
    if let leftover = reader.finish() { check(leftover) }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzHTTP2Frames_main")
public func fuzzHTTP2FramesMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
