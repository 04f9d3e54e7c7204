/// One HTTP/2 frame read out of a captured byte stream.
///
/// For DATA, HEADERS and PUSH_PROMISE the ``payload`` is what the frame carries for the layer
/// above: padding (and the padding length byte) removed, and for HEADERS the priority fields
/// removed (RFC 9113 sections 6.1, 6.2, 6.6), so the payload is the data or the header block
/// fragment (after the promised stream id, for PUSH_PROMISE).
public struct CapturedHTTP2Frame: Sendable {
    public var type: HTTP2FrameType
    public var flags: HTTP2FrameFlags
    /// The stream identifier, without the reserved bit.
    public var streamID: UInt32
    /// The frame's payload, as described above.
    public var payload: ArraySlice<UInt8>
    /// The frame's length field: the payload length on the wire, padding included (the amount
    /// flow control counts, for DATA).
    public var length: Int
    /// Where the frame's 9-byte header starts in its direction's byte stream.
    public var streamOffset: Int64
    /// Where the frame's header starts in the input (the capture file, or the `--h2` file).
    public var byteOffset: Int64
    /// When the packet that completed the frame was captured.
    public var timestamp: CaptureTimestamp

    public init(
        type: HTTP2FrameType, flags: HTTP2FrameFlags, streamID: UInt32, payload: ArraySlice<UInt8>, length: Int,
        streamOffset: Int64, byteOffset: Int64, timestamp: CaptureTimestamp
    ) {
        self.type = type
        self.flags = flags
        self.streamID = streamID
        self.payload = payload
        self.length = length
        self.streamOffset = streamOffset
        self.byteOffset = byteOffset
        self.timestamp = timestamp
    }
}
