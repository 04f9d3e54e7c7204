/// What a ``TCPStreamReassembler`` tells about one direction of a TCP connection: bytes in stream
/// order, bytes known to be missing, or the end of the stream.
///
/// Stream offsets count from the first data byte of the direction (offset 0), in 64 bits, so they
/// keep growing where the 32-bit TCP sequence numbers wrap around. The events of one reassembler
/// tile the stream: each `.data` or `.gap` starts where the one before it ended.
public enum TCPStreamEvent: Hashable, Sendable {
    /// Payload bytes at `streamOffset`, each delivered once and in order.
    ///
    /// `timestamp` and `byteOffset` are those of the segment that carried the bytes (the byte
    /// offset of the first of them in the capture file), so a consumer can point at the packet.
    case data(ArraySlice<UInt8>, streamOffset: Int64, timestamp: CaptureTimestamp, byteOffset: Int64)

    /// `length` bytes at `streamOffset` that the capture does not hold (a packet the capture lost
    /// or that was never captured); the stream goes on after them.
    ///
    /// `timestamp` is when the reassembler gave up waiting for them: the capture time of the
    /// segment that overflowed the reorder buffer, or the time given to
    /// ``TCPStreamReassembler/finish(at:)``.
    case gap(streamOffset: Int64, length: Int64, timestamp: CaptureTimestamp)

    /// The stream ended: after a FIN once every byte before it was delivered (`reset` false), or on
    /// a RST (`reset` true). Nothing follows it.
    ///
    /// `timestamp` is the capture time of the FIN or RST segment.
    case closed(reset: Bool, timestamp: CaptureTimestamp)
}
