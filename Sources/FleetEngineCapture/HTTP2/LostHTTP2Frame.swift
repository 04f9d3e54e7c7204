/// A frame whose header was read but whose payload the frame reader gave up: bytes of it went
/// missing from the capture, the input ended inside it, or it was let go to bound memory.
///
/// The header tells what was lost (the frame's type and stream) and where the next frame begins,
/// so the layer above can give up just what the frame belonged to, and reading goes on at the next
/// frame without looking for a boundary.
public struct LostHTTP2Frame: Sendable, Hashable {
    public var type: HTTP2FrameType
    public var flags: HTTP2FrameFlags
    /// The stream identifier, without the reserved bit.
    public var streamID: UInt32
    /// The frame's length field: the payload length on the wire.
    public var length: Int
    /// How many of the frame's bytes (its 9-byte header included) had been read when it was given up.
    public var bytesRead: Int
    /// Where the frame's 9-byte header starts in its direction's byte stream.
    public var streamOffset: Int64
    /// Where the frame's header starts in the input.
    public var byteOffset: Int64

    public init(
        type: HTTP2FrameType, flags: HTTP2FrameFlags, streamID: UInt32, length: Int, bytesRead: Int,
        streamOffset: Int64, byteOffset: Int64
    ) {
        self.type = type
        self.flags = flags
        self.streamID = streamID
        self.length = length
        self.bytesRead = bytesRead
        self.streamOffset = streamOffset
        self.byteOffset = byteOffset
    }

    /// The frame as a problem report names it: its type, length and stream.
    public var label: String {
        "\(type) frame of \(length) bytes on stream \(streamID) (at stream offset \(streamOffset))"
    }
}
