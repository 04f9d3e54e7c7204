import FleetEngineCapture

/// A made-up TCP connection between a client and a server that produces the IP packets of its
/// handshake, data, FIN and RST, keeping both directions' sequence numbers (RFC 9293 section 3.4)
/// as a real connection would.
///
/// ```swift
/// var connection = SyntheticTCPConnection.ipv4()
/// var packets = connection.handshake()
/// packets += connection.send(Array("hello".utf8), from: .client, segmentSizes: [2, 3])
/// packets.append(connection.fin(from: .client))
/// let capture = CaptureWriter.file(of: packets, link: .ethernet, format: .pcapng)
/// ```
///
/// Every packet after the SYN acknowledges all that the other side has sent so far. The packets
/// are IP packets; wrap them with ``LinkLayer`` for a capture file.
struct SyntheticTCPConnection {
    /// Which end sends a packet.
    enum Side: Hashable {
        case client
        case server

        /// The other end.
        var peer: Side { self == .client ? .server : .client }
    }

    /// The end that opens the connection.
    let client: TCPEndpoint
    /// The end that accepts it.
    let server: TCPEndpoint
    /// The sequence number of the client's SYN.
    let clientInitialSequenceNumber: UInt32
    /// The sequence number of the server's SYN-ACK.
    let serverInitialSequenceNumber: UInt32
    /// Extension headers put into every IPv6 packet, between the IPv6 header and TCP.
    var ipv6ExtensionHeaders: [IPv6ExtensionHeader] = []

    /// The sequence number the client's next byte (or SYN/FIN) takes.
    private(set) var clientNextSequenceNumber: UInt32
    /// The sequence number the server's next byte (or SYN/FIN) takes.
    private(set) var serverNextSequenceNumber: UInt32

    /// A connection between two endpoints; the initial sequence numbers default to values near
    /// the top of the sequence space, so that tests of data crossing 2^32 come for free.
    init(
        client: TCPEndpoint,
        server: TCPEndpoint,
        clientInitialSequenceNumber: UInt32 = 0xFFFF_FF00,
        serverInitialSequenceNumber: UInt32 = 0x2000_0000
    ) {
        self.client = client
        self.server = server
        self.clientInitialSequenceNumber = clientInitialSequenceNumber
        self.serverInitialSequenceNumber = serverInitialSequenceNumber
        clientNextSequenceNumber = clientInitialSequenceNumber
        serverNextSequenceNumber = serverInitialSequenceNumber
    }

    /// A connection from 192.0.2.1 to 198.51.100.7 (RFC 5737 documentation addresses).
    static func ipv4(clientPort: UInt16 = 50_000, serverPort: UInt16 = 443) -> SyntheticTCPConnection {
        SyntheticTCPConnection(
            client: TCPEndpoint(address: IPPacket.ipv4Address(192, 0, 2, 1), port: clientPort),
            server: TCPEndpoint(address: IPPacket.ipv4Address(198, 51, 100, 7), port: serverPort)
        )
    }

    /// A connection from 2001:db8::1 to 2001:db8::2 (RFC 3849 documentation addresses).
    static func ipv6(clientPort: UInt16 = 50_000, serverPort: UInt16 = 443) -> SyntheticTCPConnection {
        SyntheticTCPConnection(
            client: TCPEndpoint(address: .v6(0x2001_0DB8_0000_0000, 1), port: clientPort),
            server: TCPEndpoint(address: .v6(0x2001_0DB8_0000_0000, 2), port: serverPort)
        )
    }

    /// The endpoint of `side`.
    func endpoint(of side: Side) -> TCPEndpoint {
        side == .client ? client : server
    }

    /// The sequence number `side`'s next byte takes.
    func nextSequenceNumber(of side: Side) -> UInt32 {
        side == .client ? clientNextSequenceNumber : serverNextSequenceNumber
    }

    /// The three packets of the handshake: SYN, SYN-ACK, ACK (RFC 9293 section 3.5).
    mutating func handshake() -> [[UInt8]] {
        let syn = segment(from: .client, flags: .syn, acknowledging: false)
        advance(.client, by: 1)
        let synAck = segment(from: .server, flags: [.syn, .ack])
        advance(.server, by: 1)
        return [syn, synAck, ack(from: .client)]
    }

    /// Data segments (flags ACK and PSH) carrying `bytes` from `side`, split at `segmentSizes`.
    ///
    /// The sizes are used in order; the bytes left after them go in one last segment, and a size
    /// that runs past the end is cut to what is left. No sizes: one segment. Empty bytes: none.
    mutating func send(_ bytes: [UInt8], from side: Side, segmentSizes: [Int] = []) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var start = 0
        var sizes = segmentSizes[...]
        while start < bytes.count {
            let size = min(max(sizes.popFirst() ?? bytes.count, 1), bytes.count - start)
            let payload = Array(bytes[start..<(start + size)])
            packets.append(segment(from: side, flags: [.ack, .psh], payload: payload))
            advance(side, by: UInt32(size))
            start += size
        }
        return packets
    }

    /// `bytes` from `side` in segments that end at each of `ends` (offsets into `bytes`), the rest
    /// in one more.
    mutating func send(_ bytes: [UInt8], from side: Side, endingAt ends: [Int]) -> [[UInt8]] {
        send(bytes, from: side, segmentSizes: zip(ends, [0] + ends).map { $0 - $1 })
    }

    /// A pure acknowledgment from `side` of everything the other side has sent.
    func ack(from side: Side) -> [UInt8] {
        segment(from: side, flags: .ack)
    }

    /// A FIN (with ACK) from `side`; the FIN takes one sequence number.
    mutating func fin(from side: Side) -> [UInt8] {
        let packet = segment(from: side, flags: [.fin, .ack])
        advance(side, by: 1)
        return packet
    }

    /// A RST (with ACK) from `side`.
    func rst(from side: Side) -> [UInt8] {
        segment(from: side, flags: [.rst, .ack])
    }

    /// A segment from `side` that changes no state: for retransmissions, overlaps and segments
    /// out of order. `sequenceNumber` defaults to `side`'s next one.
    func segment(
        from side: Side,
        flags: TCPFlags,
        sequenceNumber: UInt32? = nil,
        payload: [UInt8] = [],
        acknowledging: Bool = true
    ) -> [UInt8] {
        IPPacket.tcp(
            from: endpoint(of: side),
            to: endpoint(of: side.peer),
            sequenceNumber: sequenceNumber ?? nextSequenceNumber(of: side),
            acknowledgmentNumber: acknowledging ? nextSequenceNumber(of: side.peer) : 0,
            flags: flags,
            payload: payload,
            ipv6ExtensionHeaders: ipv6ExtensionHeaders
        )
    }

    private mutating func advance(_ side: Side, by count: UInt32) {
        switch side {
        case .client: clientNextSequenceNumber &+= count
        case .server: serverNextSequenceNumber &+= count
        }
    }
}
