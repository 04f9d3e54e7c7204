/// Puts the segments of one direction of one TCP connection back into the byte stream the sender
/// wrote, as a capture saw them: out of order, retransmitted, overlapping, or lost.
///
/// Feed it every segment the capture holds for the direction, in capture order, with
/// ``receive(_:)``, then call ``finish(at:)`` when the capture ends. The events it returns deliver
/// each byte once, in stream order, starting at stream offset 0:
///
/// - With the SYN seen, offset 0 is the byte after the SYN (sequence number ISN+1; RFC 9293
///   section 3.4: the SYN takes one sequence number). Data carried by the SYN itself starts there.
/// - Without it (the capture started mid-connection), the first segment that takes sequence space
///   (payload or FIN) sets offset 0. Bytes before it that arrive later cannot be told from
///   retransmissions and are dropped as lying before the start of the stream.
/// - Segments ahead of the next expected byte wait in a reorder buffer (at most
///   ``maxBufferedBytes`` payload bytes) and are released when the hole before them fills.
/// - Bytes already delivered or already buffered are dropped: a retransmission of old data
///   vanishes, and of two copies that overlap the one received first wins. Two copies differ only
///   when something rewrote the stream, and keeping the first means that bytes, once buffered or
///   delivered, are never taken back, so a consumer never sees a byte replaced.
/// - A FIN takes one sequence number after the data (RFC 9293 section 3.4) and closes the stream
///   once every byte before it was delivered; bytes past it are dropped. A RST closes it at once
///   (after flushing what was buffered, as ``finish(at:)`` does); data in a RST is diagnostic text,
///   not stream data (RFC 9293 section 3.5.3), and is ignored.
///
/// Lost packets neither stall decoding nor grow memory: when the buffer would hold more than
/// ``maxBufferedBytes`` payload bytes or more than ``maxBufferedSegments`` pieces, the missing
/// range before the earliest buffered segment is reported as a `.gap` and delivery goes on from
/// there. Sooner than that, when the other direction acknowledges bytes past a hole
/// (``acknowledged(_:at:)``), the receiver had them and the capture lost them: the hole is
/// reported at once, so one direction does not fall behind the other while it waits; acknowledged
/// bytes after the last captured one are reported when the capture ends. Buffered payloads are
/// slices of the segments' own storage: nothing is copied, on the
/// in-order path or off it. Whatever order a capture puts the segments in, placing one in the
/// buffer or taking one out costs about the same with a full buffer as with an empty one
/// (`ReorderBuffer` keeps them in short sorted runs).
///
/// Sequence numbers are 32 bits and wrap around; a segment is placed by its signed distance from
/// the next expected sequence number (RFC 9293 section 3.4, modular comparison), which holds while
/// the segments in flight span less than 2^31 bytes. Stream offsets are 64 bits and never wrap.
public struct TCPStreamReassembler: Sendable {
    /// The most payload bytes held back waiting for a hole to fill before a gap is reported.
    public let maxBufferedBytes: Int
    /// The most segments (or pieces of segments) held back waiting for a hole to fill.
    ///
    /// Each buffered piece costs more than its payload (and keeps the packet it came from alive),
    /// so tiny segments are bounded by their number too, not only by ``maxBufferedBytes``.
    public let maxBufferedSegments: Int
    /// How many payload bytes have been delivered in `.data` events (gaps do not count).
    public private(set) var deliveredBytes: Int64 = 0
    /// How many payload bytes wait in the reorder buffer now.
    public private(set) var bufferedBytes: Int = 0
    /// The sequence number of the SYN, when the stream started with one the capture holds.
    public private(set) var initialSequenceNumber: UInt32?
    /// Whether a FIN (after all the data before it) or a RST has ended the stream.
    public private(set) var isClosed = false

    /// Whether any segment has placed stream offset 0 yet.
    var hasStarted: Bool { origin != nil }

    /// The sequence number of the next byte to deliver (every byte before it was delivered or
    /// reported as a gap), once the stream has started.
    var nextSequenceNumber: UInt32? { origin.map { $0 &+ UInt32(truncatingIfNeeded: nextOffset) } }

    /// The sequence number of stream offset 0.
    private var origin: UInt32?
    /// The stream offset of the next byte to deliver; everything before it was delivered or gapped.
    private var nextOffset: Int64 = 0
    /// Segments after `nextOffset`, sorted by offset, never overlapping, never touching `nextOffset`.
    private var buffer = ReorderBuffer()
    /// Where the FIN sits (the offset just past the last data byte) and when it was captured.
    private var fin: (streamOffset: Int64, timestamp: CaptureTimestamp)?
    /// Whether ``finish(at:)`` ran; nothing is accepted after it.
    private var isFinished = false
    /// The furthest stream offset the other direction acknowledged (the receiver had every byte
    /// before it), and when: bytes up to it that the capture never held are missing from it.
    private var acknowledgedEnd: (streamOffset: Int64, timestamp: CaptureTimestamp)?

    /// A reassembler that holds back at most `maxBufferedBytes` out-of-order payload bytes (8 MiB
    /// unless told otherwise) in at most `maxBufferedSegments` pieces before it reports the bytes
    /// missing before them as a gap.
    public init(maxBufferedBytes: Int = 8 << 20, maxBufferedSegments: Int = 65_536) {
        self.maxBufferedBytes = max(0, maxBufferedBytes)
        self.maxBufferedSegments = max(0, maxBufferedSegments)
    }

    /// Takes one segment of this direction and returns what it makes deliverable.
    ///
    /// A segment with no payload and neither SYN, FIN nor RST (a bare ACK) changes nothing.
    /// Segments after the stream closed or after ``finish(at:)`` are ignored.
    public mutating func receive(_ segment: TCPSegment) -> [TCPStreamEvent] {
        guard !isClosed, !isFinished else { return [] }
        let flags = segment.flags
        let origin: UInt32
        if let known = self.origin {
            origin = known
        } else if flags.contains(.syn) {
            initialSequenceNumber = segment.sequenceNumber
            origin = segment.sequenceNumber &+ 1
        } else if !segment.payload.isEmpty || flags.contains(.fin) {
            origin = segment.sequenceNumber
        } else if flags.contains(.rst) {
            isClosed = true
            return [.closed(reset: true, timestamp: segment.timestamp)]
        } else {
            // A bare ACK (or a keep-alive) says nothing reliable about where the data starts.
            return []
        }
        self.origin = origin

        var events: [TCPStreamEvent] = []
        if flags.contains(.rst) {
            flushBuffer(gapTimestamp: segment.timestamp, into: &events)
            close(reset: true, timestamp: segment.timestamp, into: &events)
            return events
        }

        // RFC 9293 section 3.4: sequence numbers compare modulo 2^32, so the signed 32-bit distance
        // from the next expected sequence number places the segment relative to `nextOffset`.
        let expected = origin &+ UInt32(truncatingIfNeeded: nextOffset)
        var start = nextOffset + Int64(Int32(bitPattern: segment.sequenceNumber &- expected))
        if flags.contains(.syn) {
            start += 1
        }
        let end = start + Int64(segment.payload.count)
        if flags.contains(.fin), fin == nil, end >= nextOffset {
            fin = (end, segment.timestamp)
            trimBuffer(before: end)
        }

        accept(
            segment.payload, at: start, timestamp: segment.timestamp, byteOffset: segment.byteOffset,
            into: &events)
        // Lost packets must not stall the stream: give up on the oldest hole until the buffer fits.
        giveUpOldestHoles(
            downTo: maxBufferedBytes, segments: maxBufferedSegments, at: segment.timestamp, into: &events)
        closeIfFinReached(into: &events)
        return events
    }

    /// Gives up on holes, oldest first, until at most `limit` payload bytes wait in the reorder
    /// buffer: each hole is reported as a gap stamped `timestamp`, and the bytes after it are
    /// delivered. What ``receive(_:)`` does past ``maxBufferedBytes``, for a caller that bounds the
    /// buffers of many streams together (``TCPConnectionTable/maxBufferedBytes``).
    public mutating func releaseBuffered(downTo limit: Int, at timestamp: CaptureTimestamp) -> [TCPStreamEvent] {
        guard !isClosed, !isFinished else { return [] }
        var events: [TCPStreamEvent] = []
        giveUpOldestHoles(downTo: max(0, limit), segments: .max, at: timestamp, into: &events)
        closeIfFinReached(into: &events)
        return events
    }

    /// Takes the acknowledgment number of a segment the other direction sent (RFC 9293 section
    /// 3.4: the receiver has every byte before it) and returns what it makes deliverable.
    ///
    /// A hole the reorder buffer waits on, wholly before that point, holds bytes the receiver got
    /// and the capture did not: no retransmission will fill it, so it is reported as a gap at
    /// once (stamped `timestamp`) and the bytes after it are delivered, instead of waiting for the
    /// buffer to fill or the capture to end. An acknowledgment that does not pass a hole delivers
    /// nothing; the furthest one is kept, for ``finish(at:)`` to report acknowledged bytes the
    /// capture never held after the last it did.
    public mutating func acknowledged(_ acknowledgment: UInt32, at timestamp: CaptureTimestamp) -> [TCPStreamEvent] {
        guard !isClosed, !isFinished, let origin else { return [] }
        let expected = origin &+ UInt32(truncatingIfNeeded: nextOffset)
        let distance = Int64(Int32(bitPattern: acknowledgment &- expected))
        guard distance > 0 else { return [] }
        let acknowledgedEnd = nextOffset + distance
        if acknowledgedEnd > self.acknowledgedEnd?.streamOffset ?? 0 {
            self.acknowledgedEnd = (acknowledgedEnd, timestamp)
        }
        guard !buffer.isEmpty else { return [] }
        var events: [TCPStreamEvent] = []
        while let first = buffer.first, first.streamOffset <= acknowledgedEnd {
            skip(to: first.streamOffset, timestamp: timestamp, into: &events)
            drain(into: &events)
        }
        closeIfFinReached(into: &events)
        return events
    }

    /// ``receive(_:)`` for a stream whose reorder buffer shares a bound with others': `shared` is
    /// what all of them hold, kept in step with this one. When this segment takes it past `limit`,
    /// this stream gives up its oldest holes until it fits; before the segment it fitted, so what
    /// this stream holds covers the excess.
    mutating func receive(
        _ segment: TCPSegment, sharedBuffered shared: inout Int, sharedLimit limit: Int
    ) -> [TCPStreamEvent] {
        let before = bufferedBytes
        var events = receive(segment)
        shared += bufferedBytes - before
        if shared > limit {
            let held = bufferedBytes
            events += releaseBuffered(downTo: held - (shared - limit), at: segment.timestamp)
            shared += bufferedBytes - held
        }
        return events
    }

    /// Ends the stream at the end of the capture: reports each hole still open as a gap and
    /// delivers the buffered bytes after it, repeatedly, then the FIN if one was received.
    ///
    /// Nothing received is lost silently. The gaps carry `timestamp` (the end of the capture),
    /// or, when it is nil, the capture time of the segment (or FIN) right after each gap. A stream
    /// that saw no FIN or RST gets no `.closed` event: the capture ended, the connection did not.
    ///
    /// Bytes after the last one captured that the other direction acknowledged were sent and
    /// received, and the capture lost them: they are a gap too (stamped `timestamp`, or the time of
    /// the acknowledgment). An acknowledgment just one past the data is not taken for a lost byte,
    /// since a lost FIN reads the same (RFC 9293 section 3.4: a FIN takes one sequence number);
    /// one further on counts every sequence number as a byte, so a FIN lost with data makes it one
    /// more than the bytes lost.
    public mutating func finish(at timestamp: CaptureTimestamp?) -> [TCPStreamEvent] {
        guard !isClosed, !isFinished else { return [] }
        var events: [TCPStreamEvent] = []
        flushBuffer(gapTimestamp: timestamp, into: &events)
        if let fin, fin.streamOffset > nextOffset {
            skip(to: fin.streamOffset, timestamp: timestamp ?? fin.timestamp, into: &events)
        } else if fin == nil, let acknowledgedEnd, acknowledgedEnd.streamOffset - nextOffset >= 2 {
            skip(to: acknowledgedEnd.streamOffset, timestamp: timestamp ?? acknowledgedEnd.timestamp, into: &events)
        }
        closeIfFinReached(into: &events)
        isFinished = true
        return events
    }

    /// Delivers or buffers `bytes`, which start at stream offset `start`, keeping the copy of any
    /// byte that was received first.
    private mutating func accept(
        _ bytes: ArraySlice<UInt8>, at start: Int64, timestamp: CaptureTimestamp, byteOffset: Int64,
        into events: inout [TCPStreamEvent]
    ) {
        var bytes = bytes
        var start = start
        var byteOffset = byteOffset
        if let fin, start + Int64(bytes.count) > fin.streamOffset {
            bytes = bytes.prefix(Int(max(0, min(Int64(bytes.count), fin.streamOffset - start))))
        }
        if start < nextOffset {
            let old = Int(min(Int64(bytes.count), nextOffset - start))
            bytes = bytes.dropFirst(old)
            start += Int64(old)
            byteOffset += Int64(old)
        }
        guard !bytes.isEmpty else { return }
        if start == nextOffset, buffer.isEmpty {
            deliver(bytes, timestamp: timestamp, byteOffset: byteOffset, into: &events)
            return
        }
        insert(bytes, at: start, timestamp: timestamp, byteOffset: byteOffset)
        drain(into: &events)
    }

    /// Adds to the buffer the parts of `bytes` that no buffered segment already covers.
    private mutating func insert(
        _ bytes: ArraySlice<UInt8>, at start: Int64, timestamp: CaptureTimestamp, byteOffset: Int64
    ) {
        let end = start + Int64(bytes.count)
        var cursor = start
        while cursor < end {
            let next = buffer.firstSegment(endingAfter: cursor)
            if let next, next.streamOffset <= cursor {
                cursor = next.end
                continue
            }
            let pieceEnd = next.map { min(end, $0.streamOffset) } ?? end
            let lower = bytes.startIndex + Int(cursor - start)
            let upper = bytes.startIndex + Int(pieceEnd - start)
            let piece = ReorderBuffer.Segment(
                streamOffset: cursor, bytes: bytes[lower..<upper], timestamp: timestamp,
                byteOffset: byteOffset + (cursor - start))
            buffer.insert(piece)
            bufferedBytes += piece.bytes.count
            cursor = pieceEnd
        }
    }

    /// Delivers the buffered segments that continue the stream without a hole.
    private mutating func drain(into events: inout [TCPStreamEvent]) {
        while let first = buffer.first, first.streamOffset == nextOffset {
            let segment = buffer.removeFirst()
            bufferedBytes -= segment.bytes.count
            deliver(segment.bytes, timestamp: segment.timestamp, byteOffset: segment.byteOffset, into: &events)
        }
    }

    /// Reports the oldest hole as a gap and delivers what follows it, again and again, until the
    /// buffer holds at most `byteLimit` payload bytes in at most `segmentLimit` pieces.
    private mutating func giveUpOldestHoles(
        downTo byteLimit: Int, segments segmentLimit: Int, at timestamp: CaptureTimestamp,
        into events: inout [TCPStreamEvent]
    ) {
        while bufferedBytes > byteLimit || buffer.count > segmentLimit, let first = buffer.first {
            skip(to: first.streamOffset, timestamp: timestamp, into: &events)
            drain(into: &events)
        }
    }

    /// Reports every hole before a buffered segment as a gap and delivers the segments.
    private mutating func flushBuffer(gapTimestamp: CaptureTimestamp?, into events: inout [TCPStreamEvent]) {
        while let first = buffer.first {
            skip(to: first.streamOffset, timestamp: gapTimestamp ?? first.timestamp, into: &events)
            drain(into: &events)
        }
    }

    private mutating func deliver(
        _ bytes: ArraySlice<UInt8>, timestamp: CaptureTimestamp, byteOffset: Int64,
        into events: inout [TCPStreamEvent]
    ) {
        events.append(.data(bytes, streamOffset: nextOffset, timestamp: timestamp, byteOffset: byteOffset))
        nextOffset += Int64(bytes.count)
        deliveredBytes += Int64(bytes.count)
    }

    /// Gives up on the bytes from `nextOffset` up to `offset`.
    private mutating func skip(to offset: Int64, timestamp: CaptureTimestamp, into events: inout [TCPStreamEvent]) {
        guard offset > nextOffset else { return }
        events.append(.gap(streamOffset: nextOffset, length: offset - nextOffset, timestamp: timestamp))
        nextOffset = offset
    }

    /// Drops buffered bytes at or past `offset`, where a FIN says the stream ends.
    private mutating func trimBuffer(before offset: Int64) {
        while let last = buffer.last, last.end > offset {
            _ = buffer.removeLast()
            bufferedBytes -= last.bytes.count
            guard last.streamOffset < offset else { continue }
            var kept = last
            kept.bytes = last.bytes.prefix(Int(offset - last.streamOffset))
            buffer.insert(kept)
            bufferedBytes += kept.bytes.count
            return
        }
    }

    private mutating func closeIfFinReached(into events: inout [TCPStreamEvent]) {
        guard let fin, fin.streamOffset <= nextOffset else { return }
        close(reset: false, timestamp: fin.timestamp, into: &events)
    }

    private mutating func close(reset: Bool, timestamp: CaptureTimestamp, into events: inout [TCPStreamEvent]) {
        buffer.removeAll()
        bufferedBytes = 0
        isClosed = true
        events.append(.closed(reset: reset, timestamp: timestamp))
    }
}
