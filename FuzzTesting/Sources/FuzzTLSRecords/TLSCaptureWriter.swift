/// Writes the capture an input plays: one TCP connection from 10.0.0.1:50000 to 10.0.0.2:443 over
/// raw IPv4 (link type 101), its SYN handshake, the segments the script cuts, and FINs; as a pcap
/// file, or as a pcapng file whose Decryption Secrets Block carries the key log.
struct TLSCaptureWriter {
    /// The IPv4 packets so far.
    private(set) var packets: [[UInt8]] = []
    /// The sequence number of each side's next byte: client, server.
    private var nextSequence: [UInt32] = [0x1000_0000, 0xFFFF_F000]

    private static let addresses: [UInt32] = [0x0A00_0001, 0x0A00_0002]
    private static let ports: [UInt16] = [50_000, 443]

    /// The SYN, SYN-ACK, ACK that open the connection.
    mutating func handshake() {
        append(fromServer: false, flags: 0x02, sequence: nextSequence[0], payload: [])
        nextSequence[0] &+= 1
        append(fromServer: true, flags: 0x12, sequence: nextSequence[1], payload: [])
        nextSequence[1] &+= 1
        append(fromServer: false, flags: 0x10, sequence: nextSequence[0], payload: [])
    }

    /// Bytes one side sends, as segments of `sizes` (the last size repeated), in `order`.
    enum Order {
        case inOrder
        /// Every segment but the first: the first is lost, a gap in the capture.
        case firstLost
        /// The first segment sent twice (a retransmission).
        case firstRepeated
        /// Last segment first.
        case reversed
    }

    ///
    /// After 64 segments the rest goes in segments of 16,000 bytes: every packet costs the decoder
    /// a trip through TCP, and a few dozen cuts are as many as a record needs.
    mutating func send(_ bytes: [UInt8], fromServer: Bool, sizes: (Int) -> Int, order: Order) {
        guard !bytes.isEmpty else { return }
        let side = fromServer ? 1 : 0
        var segments: [(sequence: UInt32, payload: ArraySlice<UInt8>)] = []
        var start = 0
        while start < bytes.count {
            // A segment stays well under IPv4's 64 KiB.
            let size = segments.count < 64 ? max(1, min(16_000, sizes(segments.count))) : 16_000
            let end = min(bytes.count, start + size)
            segments.append((nextSequence[side] &+ UInt32(start), bytes[start..<end]))
            start = end
        }
        nextSequence[side] &+= UInt32(bytes.count)
        switch order {
        case .inOrder: break
        case .firstLost: segments.removeFirst()
        case .firstRepeated: segments.insert(segments[0], at: 1)
        case .reversed: segments.reverse()
        }
        for segment in segments {
            append(fromServer: fromServer, flags: 0x18, sequence: segment.sequence, payload: segment.payload)
        }
    }

    /// Both sides' FINs.
    mutating func finish() {
        for side in 0..<2 {
            append(fromServer: side == 1, flags: 0x11, sequence: nextSequence[side], payload: [])
            nextSequence[side] &+= 1
        }
    }

    /// One IPv4 packet: a 20-byte header, a 20-byte TCP header acknowledging all the other side
    /// sent, and the payload. Checksums are left zero (the decoder does not check them).
    private mutating func append(fromServer: Bool, flags: UInt8, sequence: UInt32, payload: ArraySlice<UInt8>) {
        let side = fromServer ? 1 : 0
        let totalLength = 40 + payload.count
        var packet: [UInt8] = [0x45, 0, UInt8(totalLength >> 8), UInt8(totalLength & 0xFF), 0, 1, 0x40, 0, 64, 6, 0, 0]
        packet += be32(Self.addresses[side]) + be32(Self.addresses[1 - side])
        packet += be16(Self.ports[side]) + be16(Self.ports[1 - side]) + be32(sequence)
        packet += be32(flags & 0x02 != 0 && !fromServer ? 0 : nextSequence[1 - side])
        packet += [0x50, flags, 0xFF, 0xFF, 0, 0, 0, 0]
        packet += payload
        packets.append(packet)
    }

    /// A little-endian microsecond pcap of the packets.
    func pcap() -> [UInt8] {
        var file = le32(0xA1B2_C3D4) + le16(2) + le16(4) + le32(0) + le32(0) + le32(262_144) + le32(101)
        for (index, packet) in packets.enumerated() {
            file += le32(1_700_000_000 + UInt32(index / 1000)) + le32(UInt32(index % 1000) * 1000)
            file += le32(UInt32(packet.count)) + le32(UInt32(packet.count)) + packet
        }
        return file
    }

    /// A pcapng file: a Section Header Block, an Interface Description Block (RAW), a Decryption
    /// Secrets Block with `keyLog` (secrets type "TLSK", as `editcap --inject-secrets` writes it),
    /// then an Enhanced Packet Block per packet.
    func pcapng(keyLog: [UInt8]) -> [UInt8] {
        var file = block(0x0A0D_0D0A, le32(0x1A2B_3C4D) + le16(1) + le16(0) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF))
        file += block(1, le16(101) + le16(0) + le32(0))
        file += block(0x0A, le32(0x544C_534B) + le32(UInt32(keyLog.count)) + keyLog)
        for (index, packet) in packets.enumerated() {
            let time = UInt64(1_700_000_000_000_000) + UInt64(index) * 1000
            file += block(
                6,
                le32(0) + le32(UInt32(time >> 32)) + le32(UInt32(time & 0xFFFF_FFFF)) + le32(UInt32(packet.count))
                    + le32(UInt32(packet.count)) + packet)
        }
        return file
    }

    /// A pcapng block: type, total length, the body padded to 32 bits, total length again.
    private func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        let length = UInt32(12 + padded.count)
        return le32(type) + le32(length) + padded + le32(length)
    }
}

private func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
private func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}
private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
}
