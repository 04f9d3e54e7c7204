/// What a ``TCPConnectionTable`` tells about the connections of a capture.
///
/// For each connection the events come as: `.opened` first, then its two directions' `.data`,
/// `.gap` and `.closed` events (each direction in stream order, as ``TCPStreamEvent`` describes),
/// and `.ended` last. Events of different connections interleave in capture order.
public enum TCPConnectionEvent: Hashable, Sendable {
    /// A connection's first segment was seen.
    case opened(TCPConnection)

    /// Payload bytes that `from` sent, at `streamOffset` of its direction's byte stream.
    ///
    /// `timestamp` and `byteOffset` are those of the segment that carried the bytes.
    case data(
        connectionID: Int, from: TCPEndpoint, bytes: ArraySlice<UInt8>, streamOffset: Int64,
        timestamp: CaptureTimestamp, byteOffset: Int64)

    /// `length` bytes that `from` sent at `streamOffset` that the capture does not hold.
    case gap(connectionID: Int, from: TCPEndpoint, streamOffset: Int64, length: Int64, timestamp: CaptureTimestamp)

    /// `from` finished sending (FIN, `reset` false) or aborted the connection (RST, `reset` true).
    case closed(connectionID: Int, from: TCPEndpoint, reset: Bool, timestamp: CaptureTimestamp)

    /// Nothing more will come of the connection: both directions closed, one was reset, a new
    /// SYN on the same endpoints replaced it, it was evicted as the least recently active one, or
    /// the capture ended. The table forgets it.
    case ended(connectionID: Int)

    /// `length` payload bytes that `from` sent on the connection after `resetBy` reset it, which
    /// are not delivered: they come after `.ended`, the one event that may.
    ///
    /// RFC 9293 section 3.10.7.4: a RST aborts the connection where it is received, but segments the
    /// other endpoint sent before it arrived are still on the wire, and a capture taken at the
    /// endpoint that reset holds them (a client's capture has its RST, then the response already in
    /// flight). Only bytes past those the connection delivered count; retransmissions do not.
    case passedOverAfterReset(
        connectionID: Int, from: TCPEndpoint, resetBy: TCPEndpoint, length: Int, timestamp: CaptureTimestamp,
        byteOffset: Int64)
}
