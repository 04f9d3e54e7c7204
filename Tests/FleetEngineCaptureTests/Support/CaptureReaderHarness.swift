import FleetEngineCapture

/// Runs a ``CaptureFileReader`` over bytes held in memory, fed all at once or in chunks, and
/// collects what it gives, for tests.
enum CaptureReaderHarness {
    /// A captured packet with every field comparable, so that tests can compare whole packets.
    struct PacketSummary: Hashable, CustomStringConvertible {
        var timestamp: CaptureTimestamp
        var linkType: LinkType
        var bytes: [UInt8]
        var originalLength: Int
        var interfaceID: Int
        var byteOffset: Int64

        init(_ packet: CapturedPacket) {
            timestamp = packet.timestamp
            linkType = packet.linkType
            bytes = Array(packet.bytes)
            originalLength = packet.originalLength
            interfaceID = packet.interfaceID
            byteOffset = packet.byteOffset
        }

        var description: String {
            "\(timestamp) \(linkType) if\(interfaceID) @\(byteOffset) \(bytes.count)/\(originalLength) bytes"
        }
    }

    /// What reading a whole input gave: the packets before any error, and the error from
    /// `nextPacket()` or `finish()`, if there was one.
    struct Outcome {
        var packets: [CapturedPacket]
        var error: CaptureError?
        var summaries: [PacketSummary] { packets.map(PacketSummary.init) }
    }

    /// The packets of `bytes`, fed in chunks of the given sizes (used in turn, repeating; no
    /// sizes: all at once), draining packets after each chunk and calling `finish()` at the end.
    static func read(
        _ bytes: [UInt8],
        chunkSizes: [Int] = [],
        maxRecordLength: Int = 16 << 20
    ) -> Outcome {
        var reader = CaptureFileReader(maxRecordLength: maxRecordLength)
        var packets: [CapturedPacket] = []
        var start = 0
        var chunk = 0
        do {
            while start < bytes.count {
                let size = chunkSizes.isEmpty ? bytes.count : max(1, chunkSizes[chunk % chunkSizes.count])
                chunk += 1
                let end = min(bytes.count, start + size)
                reader.append(bytes[start..<end])
                start = end
                while let packet = try reader.nextPacket() { packets.append(packet) }
            }
            try reader.finish()
            return Outcome(packets: packets, error: nil)
        } catch {
            return Outcome(packets: packets, error: error)
        }
    }

    /// The packets of a capture expected to be whole; throws the reader's error otherwise.
    static func packets(in bytes: [UInt8]) throws(CaptureError) -> [CapturedPacket] {
        let outcome = read(bytes)
        if let error = outcome.error { throw error }
        return outcome.packets
    }
}
