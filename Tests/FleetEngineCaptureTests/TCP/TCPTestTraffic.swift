import FleetEngineCapture

/// Builds the TCP segments and reads back the stream events of the TCP reassembly tests.
enum TCPTestTraffic {
    static let client = TCPEndpoint(address: .v4(0x0A00_0001), port: 50_000)
    static let server = TCPEndpoint(address: .v4(0x0A00_0002), port: 443)

    /// A capture time `second` seconds into the test capture.
    static func time(_ second: Int) -> CaptureTimestamp {
        CaptureTimestamp(seconds: 1_700_000_000 + Int64(second), nanoseconds: 0)
    }

    /// A segment from `source` to `destination` carrying `payload` at `sequenceNumber`.
    static func segment(
        _ sequenceNumber: UInt32, _ payload: [UInt8] = [], flags: TCPFlags = .ack, from source: TCPEndpoint = client,
        to destination: TCPEndpoint = server, time second: Int = 0, byteOffset: Int64 = 0,
        acknowledging acknowledgment: UInt32 = 0
    ) -> TCPSegment {
        TCPSegment(
            source: source, destination: destination, sequenceNumber: sequenceNumber,
            acknowledgmentNumber: acknowledgment,
            flags: flags, payload: payload[...], timestamp: time(second), byteOffset: byteOffset)
    }

    /// `count` bytes that differ from their neighbours, so a misplaced byte shows.
    static func bytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
    }

    /// What a run of stream events amounts to.
    struct Stream: Equatable, CustomStringConvertible {
        /// The delivered bytes, concatenated.
        var bytes: [UInt8] = []
        /// The gaps as (stream offset, length).
        var gaps: [Gap] = []
        /// nil while open; false after a FIN, true after a RST.
        var reset: Bool?
        /// Whether every event started where the previous one ended and nothing followed `.closed`.
        var isContiguous = true
        /// The stream offset after the last data or gap.
        var endOffset: Int64 = 0

        var description: String {
            "Stream(\(bytes.count) bytes, gaps: \(gaps), reset: \(String(describing: reset)), "
                + "contiguous: \(isContiguous), end: \(endOffset))"
        }
    }

    struct Gap: Equatable, CustomStringConvertible {
        var streamOffset: Int64
        var length: Int64

        init(_ streamOffset: Int64, _ length: Int64) {
            self.streamOffset = streamOffset
            self.length = length
        }

        var description: String { "\(streamOffset)+\(length)" }
    }

    /// Adds `events` to `stream`, checking that they tile the stream.
    static func read(_ events: [TCPStreamEvent], into stream: inout Stream) {
        for event in events {
            if stream.reset != nil {
                stream.isContiguous = false
            }
            switch event {
            case .data(let bytes, let streamOffset, _, _):
                if streamOffset != stream.endOffset || bytes.isEmpty {
                    stream.isContiguous = false
                }
                stream.bytes += bytes
                stream.endOffset = streamOffset + Int64(bytes.count)
            case .gap(let streamOffset, let length, _):
                if streamOffset != stream.endOffset || length <= 0 {
                    stream.isContiguous = false
                }
                stream.gaps.append(Gap(streamOffset, length))
                stream.endOffset = streamOffset + length
            case .closed(let reset, _):
                stream.reset = reset
            }
        }
    }

    /// Feeds `segments` to a fresh reassembler, finishes it, and reads what came out.
    static func reassemble(_ segments: [TCPSegment], maxBufferedBytes: Int = 8 << 20, finish: Bool = true) -> Stream {
        var reassembler = TCPStreamReassembler(maxBufferedBytes: maxBufferedBytes)
        var stream = Stream()
        for segment in segments {
            read(reassembler.receive(segment), into: &stream)
        }
        if finish {
            read(reassembler.finish(at: nil), into: &stream)
        }
        return stream
    }

    /// Every ordering of `elements` (Heap's algorithm).
    static func permutations<Element>(of elements: [Element]) -> [[Element]] {
        var result: [[Element]] = []
        var current = elements
        func generate(_ count: Int) {
            guard count > 1 else {
                result.append(current)
                return
            }
            for index in 0..<count {
                generate(count - 1)
                if index < count - 1 {
                    current.swapAt(count % 2 == 0 ? index : 0, count - 1)
                }
            }
        }
        generate(elements.count)
        return result
    }
}
