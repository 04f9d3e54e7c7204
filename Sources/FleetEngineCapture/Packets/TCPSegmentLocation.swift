/// The fields of a TCP segment found in a packet's bytes, with its payload as a range of byte
/// positions; ``PacketDecoder`` turns it into a ``TCPSegment``.
struct TCPSegmentLocation {
    var source: IPAddress
    var destination: IPAddress
    var sourcePort: UInt16
    var destinationPort: UInt16
    var sequenceNumber: UInt32
    var acknowledgmentNumber: UInt32
    var flags: TCPFlags
    /// Where the payload lies in the packet's bytes.
    var payload: Range<Int>
}
