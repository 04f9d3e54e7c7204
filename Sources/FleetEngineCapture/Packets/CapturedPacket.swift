/// One packet as a capture file recorded it: when, on which link type, and its bytes from the
/// link-layer header on.
public struct CapturedPacket: Sendable {
    /// When it was captured.
    public var timestamp: CaptureTimestamp
    /// How its bytes start.
    public var linkType: LinkType
    /// The bytes captured (possibly fewer than were on the wire: see ``originalLength``).
    public var bytes: ArraySlice<UInt8>
    /// The packet's length on the wire.
    public var originalLength: Int
    /// The pcapng interface it was captured on (0 in pcap files).
    public var interfaceID: Int
    /// The byte offset in the capture file of the packet's first byte.
    public var byteOffset: Int64

    /// A packet from its parts.
    public init(
        timestamp: CaptureTimestamp, linkType: LinkType, bytes: ArraySlice<UInt8>, originalLength: Int,
        interfaceID: Int = 0, byteOffset: Int64
    ) {
        self.timestamp = timestamp
        self.linkType = linkType
        self.bytes = bytes
        self.originalLength = originalLength
        self.interfaceID = interfaceID
        self.byteOffset = byteOffset
    }
}
