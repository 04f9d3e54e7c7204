/// One end of a TCP connection: an address and a port.
public struct TCPEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var address: IPAddress
    public var port: UInt16

    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `address:port`, with an IPv6 address in brackets (`[::1]:443`).
    public var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }
}

/// The control bits of a TCP header (RFC 9293 section 3.1) that reassembly cares about.
public struct TCPFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let fin = TCPFlags(rawValue: 0x01)
    public static let syn = TCPFlags(rawValue: 0x02)
    public static let rst = TCPFlags(rawValue: 0x04)
    public static let psh = TCPFlags(rawValue: 0x08)
    public static let ack = TCPFlags(rawValue: 0x10)
}

/// One TCP segment out of a captured packet: who sent it to whom, where its payload goes in the
/// sender's byte stream, and the payload.
public struct TCPSegment: Sendable {
    public var source: TCPEndpoint
    public var destination: TCPEndpoint
    /// The sequence number of the first payload byte (of the SYN itself when ``flags`` has it).
    public var sequenceNumber: UInt32
    public var acknowledgmentNumber: UInt32
    public var flags: TCPFlags
    /// The payload, without the headers (and without any link-layer trailer or IP padding).
    public var payload: ArraySlice<UInt8>
    /// When the packet was captured.
    public var timestamp: CaptureTimestamp
    /// The byte offset in the capture file of the payload's first byte.
    public var byteOffset: Int64

    public init(
        source: TCPEndpoint, destination: TCPEndpoint, sequenceNumber: UInt32, acknowledgmentNumber: UInt32,
        flags: TCPFlags, payload: ArraySlice<UInt8>, timestamp: CaptureTimestamp, byteOffset: Int64
    ) {
        self.source = source
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.acknowledgmentNumber = acknowledgmentNumber
        self.flags = flags
        self.payload = payload
        self.timestamp = timestamp
        self.byteOffset = byteOffset
    }
}
