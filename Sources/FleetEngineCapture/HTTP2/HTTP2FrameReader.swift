/// Reads the HTTP/2 frames of one direction of a connection out of its reassembled byte stream,
/// without doing any I/O.
///
/// It is lenient where a passive observer must be: it takes the stream from wherever the capture
/// starts, and after bytes went missing (a TCP gap) or when the capture began in the middle of
/// the connection it finds the next frame boundary by looking for two plausible frame headers in
/// a row (RFC 9113 section 4.1 layout, the fixed lengths of section 6, stream 0 or not as each
/// frame type requires). It is exact where the wire is: a frame whose padding or fixed length is
/// wrong is a `malformedFrame` error, after which reading goes on with the next frame, whose
/// boundary the frame's length field still gives.
///
/// When bytes go missing inside a frame whose header was read, the frame is reported lost
/// (``Event/lostFrame(_:)``, naming its type and stream) and reading goes on at its end, which the
/// header gives: no boundary has to be looked for. Only a gap that starts between frames, or runs
/// past the end of the frame it starts in, leaves the reader to look for one.
///
/// Memory is bounded by the largest frame (the length field allows 16 MiB) plus what was appended
/// and not yet read, and a buffer grown for a large frame is given back once the frame is read.
/// Bytes passed over while looking for a frame boundary are let go as the search moves on, so a
/// connection that is not HTTP/2 at all (TLS, another protocol) costs no more than one frame's
/// worth however long it runs; the run is still reported once, whole, as skipped. A caller that
/// bounds many readers together can make one let go of the frame it holds part of
/// (``giveUpPartialFrame()``).
public struct HTTP2FrameReader: Sendable {
    /// The client connection preface (RFC 9113 section 3.4).
    public static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// The length of a frame header (RFC 9113 section 4.1).
    public static let frameHeaderLength = 9

    /// What the reader found next in the stream.
    public enum Event: Sendable {
        /// The client connection preface, at the start of the stream: this direction is the client's.
        case preface
        /// A frame.
        case frame(CapturedHTTP2Frame)
        /// Bytes that belong to no frame the reader could find: the rest of a frame cut by a gap,
        /// or the middle of a frame at the start of a capture. Reading resumed after them.
        case skipped(streamOffset: Int64, length: Int64, byteOffset: Int64)
        /// A frame whose header was read and whose payload was given up: bytes of it are missing,
        /// the stream ended inside it, or ``giveUpPartialFrame()`` let it go. Reading goes on after
        /// its end.
        case lostFrame(LostHTTP2Frame)
    }

    /// Where a run of appended bytes came from, to give frames their input offset and time.
    private struct Mark: Sendable {
        var streamOffset: Int64
        var byteOffset: Int64
        var timestamp: CaptureTimestamp
    }

    private enum State: Sendable {
        /// At the real start of the stream: a client preface may come first.
        case atStart
        /// At a frame boundary.
        case frames
        /// Looking for a frame boundary.
        case resynchronizing
    }

    /// The largest frame length accepted while looking for a frame boundary; frames at a known
    /// boundary may be as long as their 24-bit length field says. Set it from the receiver's
    /// `SETTINGS_MAX_FRAME_SIZE` when one was seen (RFC 9113 section 6.5.2; 16,384 by default).
    public var maxResynchronizingFrameLength = 16_384

    /// The longest frame the receiver takes, when its SETTINGS were seen (RFC 9113 section 4.2: a
    /// longer frame is a FRAME_SIZE_ERROR); nil takes any length. A frame header at a boundary that
    /// declares more shows that the boundary is wrong (one found by searching after bytes went
    /// missing can be): it is reported, and the reader looks for the next boundary instead of
    /// taking the bytes that follow, up to 16 MiB of them, as one frame.
    public var maxFrameLength: Int?

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var bufferStreamOffset: Int64 = 0
    private var marks: [Mark] = []
    private var firstMark = 0
    private var state: State
    private var scanIndex = 0
    /// Where the run of bytes being passed over began, once part of it was let go from the buffer
    /// (its stream offset, and its offset in the input).
    private var skippedRunStart: (streamOffset: Int64, byteOffset: Int64)?
    /// What is left of a frame that was given up: that many of the next bytes are dropped as they
    /// come, and the next frame starts after them. The buffer is empty while this is above zero.
    private var bytesToSkip: Int64 = 0
    /// The buffer capacity kept when nothing is buffered; a larger one (grown for a large frame)
    /// is given back.
    static let retainedCapacity = 1 << 16

    /// A reader for one direction.
    ///
    /// - Parameter startsAtConnectionStart: whether the first byte appended is the first byte the
    ///   endpoint sent on the connection (the capture saw the TCP handshake); otherwise the reader
    ///   first looks for a frame boundary.
    public init(startsAtConnectionStart: Bool) {
        state = startsAtConnectionStart ? .atStart : .resynchronizing
    }

    /// The stream offset of the next byte expected.
    public var endStreamOffset: Int64 { bufferStreamOffset + Int64(buffer.count) }

    /// Bytes appended and not yet read as frames (nor passed over): what a caller bounding many
    /// readers together counts. The buffer's memory is about this, plus up to 64 KiB read and not
    /// yet dropped, and growth room; the count is used rather than the allocator's capacity, which
    /// may differ from one run to the next, so that a bound on it gives up the same frames every
    /// time the same input is read.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Whether the reader is looking for a frame boundary: since it began (without the start of
    /// the stream), or since bytes went missing where the next frame's start was not known.
    public var isLookingForFrameBoundary: Bool { state == .resynchronizing }

    /// The buffer's capacity as the allocator gave it.
    var allocatedCapacity: Int { buffer.capacity }

    /// Appends the bytes that follow in the stream.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes of the stream.
    ///   - byteOffset: where the first of them is in the input.
    ///   - timestamp: when the packet that carried them was captured.
    public mutating func append(_ bytes: ArraySlice<UInt8>, byteOffset: Int64, timestamp: CaptureTimestamp) {
        var bytes = bytes
        var byteOffset = byteOffset
        if bytesToSkip > 0 {
            // The rest of a frame that was given up: dropped, not buffered.
            let dropped = Int(min(bytesToSkip, Int64(bytes.count)))
            bytes = bytes.dropFirst(dropped)
            byteOffset += Int64(dropped)
            bytesToSkip -= Int64(dropped)
            bufferStreamOffset += Int64(dropped)
        }
        guard !bytes.isEmpty else { return }
        compact()
        marks.append(Mark(streamOffset: endStreamOffset, byteOffset: byteOffset, timestamp: timestamp))
        buffer.append(contentsOf: bytes)
    }

    /// Records that `length` bytes of the stream are missing here (a TCP gap). What was buffered
    /// of an incomplete frame is given up. When the frame's header was read and the gap ends inside
    /// the frame, the next frame starts where the header says; otherwise the reader looks for the
    /// next frame boundary.
    ///
    /// - Returns: the frame given up (``Event/lostFrame(_:)``) when its header was read, else the
    ///   bytes given up as a skipped run, if any.
    public mutating func skipMissingBytes(_ length: Int64) -> Event? {
        if bytesToSkip > 0 {
            // Inside a frame given up before: the gap takes some of what was to be dropped.
            let taken = min(bytesToSkip, length)
            bytesToSkip -= taken
            bufferStreamOffset += taken
            guard length > taken else { return nil }
            return loseSync(missing: length - taken)
        }
        guard let lost = partialFrame() else { return loseSync(missing: length) }
        let rest = Int64(Self.frameHeaderLength + lost.length - lost.bytesRead)
        dropBuffer()
        if length <= rest {
            bytesToSkip = rest - length
            bufferStreamOffset += length
        } else {
            bufferStreamOffset += rest
            _ = loseSync(missing: length - rest)
        }
        return .lostFrame(lost)
    }

    /// Lets go of the frame whose start is buffered, to free its memory: its remaining bytes are
    /// dropped as they come, and reading goes on after it. When the reader is looking for a frame
    /// boundary, what it holds is given up as skipped and the search goes on after it.
    ///
    /// - Returns: the frame given up, or the bytes skipped; nil when nothing was buffered.
    public mutating func giveUpPartialFrame() -> Event? {
        skipMissingBytes(0)
    }

    /// The next preface, frame or skipped run, or nil when more bytes are needed.
    ///
    /// - Throws: `malformedFrame` for a frame whose padding or fixed-size payload breaks RFC 9113;
    ///   the frame is consumed, so the next call reads on after it.
    public mutating func next() throws(CaptureError) -> Event? {
        let event = try nextEvent()
        if event == nil, readIndex == buffer.count, buffer.capacity > Self.retainedCapacity {
            // Everything was read: a buffer grown for a large frame is given back.
            dropBuffer()
        }
        return event
    }

    private mutating func nextEvent() throws(CaptureError) -> Event? {
        switch state {
        case .atStart:
            let available = min(bufferedByteCount, Self.clientPreface.count)
            let matches = buffer[readIndex..<(readIndex + available)].elementsEqual(Self.clientPreface[0..<available])
            if matches {
                guard available == Self.clientPreface.count else { return nil }
                readIndex += available
                state = .frames
                return .preface
            }
            state = .frames
            return try nextEvent()
        case .resynchronizing:
            if let skipped = resynchronize() { return skipped }
            // Found a boundary right where the bytes start, or need more bytes to find one.
            return state == .frames ? try readFrame() : nil
        case .frames:
            return try readFrame()
        }
    }

    /// Ends the stream: what is left is an incomplete frame.
    ///
    /// - Returns: the incomplete frame, when its header was read, else the incomplete bytes as a
    ///   skipped run, if any.
    public mutating func finish() -> Event? {
        skipMissingBytes(0)
    }

    /// The frame whose header is buffered and whose end is not, when the reader is at a frame
    /// boundary.
    private func partialFrame() -> LostHTTP2Frame? {
        guard state == .frames, bufferedByteCount >= Self.frameHeaderLength else { return nil }
        let header = FrameHeader(buffer, at: readIndex)
        let streamOffset = bufferStreamOffset + Int64(readIndex)
        return LostHTTP2Frame(
            type: header.type, flags: header.flags, streamID: header.streamID, length: header.length,
            bytesRead: bufferedByteCount, streamOffset: streamOffset,
            byteOffset: inputOffset(ofStreamOffset: streamOffset))
    }

    /// `missing` bytes are lost where the buffered ones end, and where the next frame starts is
    /// unknown: what is buffered is given up, and the reader looks for a frame boundary.
    private mutating func loseSync(missing: Int64) -> Event? {
        let skipped = skippedRun(upTo: endStreamOffset)
        dropBuffer()
        bufferStreamOffset += missing
        state = .resynchronizing
        return skipped
    }

    /// Empties the buffer, and gives back its memory unless it is small; the stream offsets go on
    /// from its end.
    private mutating func dropBuffer() {
        bufferStreamOffset = endStreamOffset
        if buffer.capacity > Self.retainedCapacity {
            buffer = []
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        readIndex = 0
        scanIndex = 0
        marks.removeAll(keepingCapacity: true)
        firstMark = 0
    }

    // MARK: Frames

    private mutating func readFrame() throws(CaptureError) -> Event? {
        guard bufferedByteCount >= Self.frameHeaderLength else { return nil }
        let header = FrameHeader(buffer, at: readIndex)
        if let limit = maxFrameLength, header.length > limit {
            let byteOffset = inputOffset(ofStreamOffset: bufferStreamOffset + Int64(readIndex))
            state = .resynchronizing
            scanIndex = readIndex + 1
            throw CaptureError(
                code: .malformedFrame,
                message: "a \(header.type) frame header on stream \(header.streamID) declares \(header.length) bytes, "
                    + "more than the \(limit) its receiver takes (RFC 9113 section 4.2): the frame boundary is lost "
                    + "here, and the next one is looked for",
                byteOffset: byteOffset)
        }
        let total = Self.frameHeaderLength + header.length
        guard bufferedByteCount >= total else { return nil }
        let start = readIndex
        readIndex += total
        let streamOffset = bufferStreamOffset + Int64(start)
        let byteOffset = inputOffset(ofStreamOffset: streamOffset)
        let timestamp = self.timestamp(ofStreamOffset: streamOffset + Int64(total) - 1)
        let payloadStart = start + Self.frameHeaderLength
        let payload = try Self.payload(
            of: header, in: buffer[payloadStart..<(payloadStart + header.length)], byteOffset: byteOffset)
        return .frame(
            CapturedHTTP2Frame(
                type: header.type, flags: header.flags, streamID: header.streamID, payload: payload,
                length: header.length, streamOffset: streamOffset, byteOffset: byteOffset, timestamp: timestamp))
    }

    /// The payload the layer above wants: without padding and priority fields.
    private static func payload(
        of header: FrameHeader, in bytes: ArraySlice<UInt8>, byteOffset: Int64
    ) throws(CaptureError) -> ArraySlice<UInt8> {
        func malformed(_ problem: String) -> CaptureError {
            CaptureError(
                code: .malformedFrame,
                message: "\(header.type) frame on stream \(header.streamID) of \(header.length) bytes: \(problem)",
                byteOffset: byteOffset)
        }
        switch header.type {
        case .data, .headers, .pushPromise:
            var body = bytes
            if header.flags.contains(.padded) {
                guard let padLength = body.first else { throw malformed("PADDED without a pad length") }
                body = body.dropFirst()
                // RFC 9113 section 6.1: padding that is as long as the rest is a PROTOCOL_ERROR.
                guard Int(padLength) <= body.count else {
                    throw malformed("\(padLength) bytes of padding do not fit")
                }
                body = body.dropLast(Int(padLength))
            }
            if header.type == .headers, header.flags.contains(.priority) {
                guard body.count >= 5 else { throw malformed("PRIORITY without its 5 bytes") }
                body = body.dropFirst(5)
            }
            if header.type == .pushPromise {
                guard body.count >= 4 else { throw malformed("no promised stream id") }
                body = body.dropFirst(4)
            }
            if header.type != .data, header.streamID == 0 { throw malformed("stream 0 carries no header block") }
            if header.type == .data, header.streamID == 0 { throw malformed("DATA on stream 0") }
            return body
        case .rstStream, .windowUpdate:
            guard header.length == 4 else { throw malformed("the payload must be 4 bytes") }
            // Section 6.4: a RST_STREAM on stream 0 is a PROTOCOL_ERROR; read on, it would end a call
            // that never was.
            if header.type == .rstStream, header.streamID == 0 { throw malformed("it must be on a stream, not 0") }
            return bytes
        case .priority:
            guard header.length == 5 else { throw malformed("the payload must be 5 bytes") }
            // Section 6.3: PRIORITY on stream 0 is a PROTOCOL_ERROR.
            guard header.streamID != 0 else { throw malformed("it must be on a stream, not 0") }
            return bytes
        case .ping, .settings, .goAway:
            // Sections 6.5, 6.7 and 6.8: these belong to the connection; on a stream they are a
            // PROTOCOL_ERROR, and a SETTINGS read on would change the connection's limits.
            guard header.streamID == 0 else { throw malformed("it belongs to the connection, stream 0") }
            switch header.type {
            case .ping:
                guard header.length == 8 else { throw malformed("the payload must be 8 bytes") }
            case .settings:
                guard header.length % 6 == 0 else { throw malformed("the payload is not a multiple of 6 bytes") }
                // Section 6.5: an acknowledgment with a payload is a FRAME_SIZE_ERROR.
                if header.flags.contains(.ack), header.length != 0 {
                    throw malformed("an acknowledgment (ACK) must have no payload")
                }
            default:
                guard header.length >= 8 else { throw malformed("the payload is shorter than 8 bytes") }
            }
            return bytes
        default:
            return bytes
        }
    }

    // MARK: Finding a frame boundary

    private mutating func resynchronize() -> Event? {
        let lookahead = Self.frameHeaderLength
        scanIndex = max(scanIndex, readIndex)
        while scanIndex + lookahead <= buffer.count {
            if let header = plausibleHeader(at: scanIndex) {
                let next = scanIndex + lookahead + header.length
                if next + lookahead <= buffer.count {
                    if plausibleHeader(at: next) != nil { return foundBoundary() }
                } else if next == buffer.count {
                    // The candidate ends exactly where the bytes do, as a segment boundary often
                    // does: accept it.
                    return foundBoundary()
                } else {
                    // Wait for the bytes that decide it.
                    letGoOfPassedOverBytes()
                    return nil
                }
            }
            scanIndex += 1
        }
        letGoOfPassedOverBytes()
        return nil
    }

    private mutating func foundBoundary() -> Event? {
        state = .frames
        let skipped = skippedRun(upTo: bufferStreamOffset + Int64(scanIndex))
        readIndex = scanIndex
        return skipped
    }

    /// Every position before `scanIndex` was ruled out as a frame start: those bytes are marked
    /// read, so that ``compact()`` drops them, and the run they belong to is remembered.
    private mutating func letGoOfPassedOverBytes() {
        guard scanIndex > readIndex else { return }
        if skippedRunStart == nil {
            let start = bufferStreamOffset + Int64(readIndex)
            skippedRunStart = (start, inputOffset(ofStreamOffset: start))
        }
        readIndex = scanIndex
    }

    /// The run of bytes passed over from its start (let go already, or at `readIndex`) up to
    /// stream offset `end`, if it holds any; the run is over after this.
    private mutating func skippedRun(upTo end: Int64) -> Event? {
        defer { skippedRunStart = nil }
        if let run = skippedRunStart {
            return .skipped(streamOffset: run.streamOffset, length: end - run.streamOffset, byteOffset: run.byteOffset)
        }
        let start = bufferStreamOffset + Int64(readIndex)
        guard end > start else { return nil }
        return .skipped(streamOffset: start, length: end - start, byteOffset: inputOffset(ofStreamOffset: start))
    }

    /// The header at `index` when it could start a frame: a known type with its rules on length,
    /// flags and stream id, and a length no larger than ``maxResynchronizingFrameLength``.
    private func plausibleHeader(at index: Int) -> FrameHeader? {
        let header = FrameHeader(buffer, at: index)
        guard !header.reservedBitSet, header.length <= maxResynchronizingFrameLength else { return nil }
        let onStream = header.streamID != 0
        let flags = header.flags.rawValue
        switch header.type {
        case .data: return onStream && flags & ~0x09 == 0 ? header : nil
        case .headers: return onStream && flags & ~0x2D == 0 ? header : nil
        case .priority: return onStream && flags == 0 && header.length == 5 ? header : nil
        case .rstStream: return onStream && flags == 0 && header.length == 4 ? header : nil
        case .settings: return !onStream && flags & ~0x01 == 0 && header.length % 6 == 0 ? header : nil
        case .ping: return !onStream && flags & ~0x01 == 0 && header.length == 8 ? header : nil
        case .goAway: return !onStream && flags == 0 && header.length >= 8 ? header : nil
        case .windowUpdate: return flags == 0 && header.length == 4 ? header : nil
        case .continuation: return onStream && flags & ~0x04 == 0 ? header : nil
        default: return nil
        }
    }

    // MARK: Offsets and times

    private mutating func compact() {
        // Drop what was read once it is most of the buffer, so the buffer holds about one frame.
        guard readIndex > 0, readIndex >= buffer.count / 2 || readIndex > 1 << 16 else { return }
        buffer.removeSubrange(0..<readIndex)
        bufferStreamOffset += Int64(readIndex)
        scanIndex = max(0, scanIndex - readIndex)
        readIndex = 0
        while firstMark + 1 < marks.count, marks[firstMark + 1].streamOffset <= bufferStreamOffset {
            firstMark += 1
        }
        if firstMark > 32 {
            marks.removeSubrange(0..<firstMark)
            firstMark = 0
        }
    }

    private func mark(containing streamOffset: Int64) -> Mark? {
        guard firstMark < marks.count else { return nil }
        var index = marks.count - 1
        while index > firstMark, marks[index].streamOffset > streamOffset { index -= 1 }
        return marks[index]
    }

    private func inputOffset(ofStreamOffset streamOffset: Int64) -> Int64 {
        guard let mark = mark(containing: streamOffset) else { return streamOffset }
        return mark.byteOffset + (streamOffset - mark.streamOffset)
    }

    private func timestamp(ofStreamOffset streamOffset: Int64) -> CaptureTimestamp {
        mark(containing: streamOffset)?.timestamp ?? CaptureTimestamp(seconds: 0, nanoseconds: 0)
    }
}

/// The 9-byte frame header (RFC 9113 section 4.1).
private struct FrameHeader {
    var length: Int
    var type: HTTP2FrameType
    var flags: HTTP2FrameFlags
    var streamID: UInt32
    var reservedBitSet: Bool

    /// Reads the header at `index`; the caller makes sure 9 bytes are there.
    init(_ bytes: [UInt8], at index: Int) {
        length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        type = HTTP2FrameType(rawValue: bytes[index + 3])
        flags = HTTP2FrameFlags(rawValue: bytes[index + 4])
        let word =
            UInt32(bytes[index + 5]) << 24 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 8
            | UInt32(bytes[index + 8])
        streamID = word & 0x7FFF_FFFF
        reservedBitSet = word & 0x8000_0000 != 0
    }
}
