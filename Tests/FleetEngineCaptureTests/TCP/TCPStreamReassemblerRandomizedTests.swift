import FleetEngineCapture
import Testing

@Suite("TCP stream reassembly of shuffled, duplicated and lossy traffic")
struct TCPStreamReassemblerRandomizedTests {
    typealias Traffic = TCPTestTraffic
    typealias Gap = TCPTestTraffic.Gap

    /// A sender's stream cut into segments, some lost, some sent twice, some resent cut differently.
    struct Transmission {
        var content: [UInt8]
        var segments: [TCPSegment]
        /// Which stream offsets at least one captured segment carries.
        var received: [Bool]
        var finReceived: Bool

        init(
            seed: UInt64, length: Int, lossPercent: Int, maxSegment: Int = 200,
            generator: inout CaptureTestRandomGenerator
        ) {
            let content = Traffic.bytes(length, seed: UInt8(truncatingIfNeeded: seed))
            var received = Array(repeating: false, count: length)
            var finReceived = false
            // Start near the top of the sequence space now and then, so the wrap gets exercised.
            let isn: UInt32 =
                seed % 3 == 0 ? UInt32.max - UInt32(length / 2) : UInt32(truncatingIfNeeded: generator.next())
            var sent: [TCPSegment] = []
            func send(_ range: Range<Int>, fin: Bool) -> TCPSegment {
                Traffic.segment(
                    isn &+ 1 &+ UInt32(range.lowerBound), Array(content[range]), flags: fin ? [.ack, .fin] : .ack,
                    byteOffset: Int64(range.lowerBound))
            }
            func capture(_ segment: TCPSegment, covering range: Range<Int>, fin: Bool) {
                sent.append(segment)
                received.replaceSubrange(range, with: repeatElement(true, count: range.count))
                finReceived = finReceived || fin
            }
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 1...maxSegment, using: &generator))
                let fin = end == length
                let segment = send(start..<end, fin: fin)
                if Int.random(in: 0..<100, using: &generator) >= lossPercent {
                    capture(segment, covering: start..<end, fin: fin)
                }
                if Int.random(in: 0..<100, using: &generator) < 15 {
                    capture(segment, covering: start..<end, fin: fin)
                }
                start = end
            }
            for _ in 0..<(length / 300) {
                let lower = Int.random(in: 0..<length, using: &generator)
                let upper = min(length, lower + Int.random(in: 1...(2 * maxSegment), using: &generator))
                capture(send(lower..<upper, fin: false), covering: lower..<upper, fin: false)
            }
            sent.shuffle(using: &generator)
            self.content = content
            self.received = received
            self.finReceived = finReceived
            self.segments = [Traffic.segment(isn, flags: .syn)] + sent
        }

        /// The stream a reassembler with room for everything must produce.
        var expected: Traffic.Stream {
            var stream = Traffic.Stream()
            let end = finReceived ? received.count : (received.lastIndex(of: true).map { $0 + 1 } ?? 0)
            var offset = 0
            while offset < end {
                var runEnd = offset
                while runEnd < end, received[runEnd] == received[offset] { runEnd += 1 }
                if received[offset] {
                    stream.bytes += content[offset..<runEnd]
                } else {
                    stream.gaps.append(Gap(Int64(offset), Int64(runEnd - offset)))
                }
                offset = runEnd
            }
            stream.endOffset = Int64(end)
            stream.reset = finReceived ? false : nil
            return stream
        }
    }

    @Test(arguments: 0..<60)
    func shuffledDuplicatedAndLossyTrafficReassemblesToTheReceivedBytesAndGaps(seed: Int) {
        var generator = CaptureTestRandomGenerator(seed: UInt64(seed))
        let length = Int.random(in: 1...4000, using: &generator)
        let transmission = Transmission(
            seed: UInt64(seed), length: length, lossPercent: seed % 4 == 0 ? 0 : 10, generator: &generator)

        let stream = Traffic.reassemble(transmission.segments)

        #expect(stream == transmission.expected, "seed \(seed)")
    }

    @Test(arguments: 0..<12)
    func thousandsOfTinyShuffledSegmentsReassembleToTheReceivedBytesAndGaps(seed: Int) {
        // Segments of 1 to 6 bytes over up to 30,000 bytes: the reorder buffer holds thousands of
        // pieces at once, far more than one of its runs, so runs split, empty and refill.
        var generator = CaptureTestRandomGenerator(seed: UInt64(3000 + seed))
        let length = Int.random(in: 5_000...30_000, using: &generator)
        let transmission = Transmission(
            seed: UInt64(seed), length: length, lossPercent: seed % 3 == 0 ? 0 : 5, maxSegment: 6,
            generator: &generator)

        let stream = Traffic.reassemble(transmission.segments)

        #expect(stream == transmission.expected, "seed \(seed)")
    }

    @Test(arguments: 0..<30)
    func smallReorderBufferNeverHoldsMoreThanItsLimitAndDeliversOnlyTrueBytes(seed: Int) {
        var generator = CaptureTestRandomGenerator(seed: UInt64(1000 + seed))
        let length = Int.random(in: 500...6000, using: &generator)
        let transmission = Transmission(
            seed: UInt64(seed), length: length, lossPercent: 10, generator: &generator)
        let limit = Int.random(in: 0...600, using: &generator)

        var reassembler = TCPStreamReassembler(maxBufferedBytes: limit)
        var events: [TCPStreamEvent] = []
        var largestBuffer = 0
        for segment in transmission.segments {
            events += reassembler.receive(segment)
            largestBuffer = max(largestBuffer, reassembler.bufferedBytes)
        }
        events += reassembler.finish(at: nil)
        var stream = Traffic.Stream()
        Traffic.read(events, into: &stream)

        #expect(largestBuffer <= limit, "seed \(seed)")
        #expect(stream.isContiguous, "seed \(seed)")
        #expect(reassembler.deliveredBytes == Int64(stream.bytes.count))
        #expect(stream.endOffset == transmission.expected.endOffset || stream.reset == nil, "seed \(seed)")
        for event in events {
            guard case .data(let bytes, let streamOffset, _, let byteOffset) = event else { continue }
            let range = Int(streamOffset)..<Int(streamOffset) + bytes.count
            #expect(Array(bytes) == Array(transmission.content[range]), "seed \(seed) at \(streamOffset)")
            // The test puts each segment's stream offset in its byteOffset, so the two must agree.
            #expect(byteOffset == streamOffset, "seed \(seed) at \(streamOffset)")
        }
        // Whatever a small buffer gave up on is missing from the delivered bytes, never reordered.
        #expect(stream.bytes.count + Int(stream.gaps.reduce(0) { $0 + $1.length }) == Int(stream.endOffset))
    }

    @Test(arguments: 0..<20)
    func smallReorderBufferLosesNothingWhenNoSegmentIsMissing(seed: Int) {
        var generator = CaptureTestRandomGenerator(seed: UInt64(2000 + seed))
        let length = Int.random(in: 100...3000, using: &generator)
        let transmission = Transmission(
            seed: UInt64(seed), length: length, lossPercent: 0, generator: &generator)

        // Even with the whole stream shuffled, a buffer as large as the stream never gives up.
        let stream = Traffic.reassemble(transmission.segments, maxBufferedBytes: length)

        #expect(stream == transmission.expected, "seed \(seed)")
        #expect(stream.gaps == [])
    }
}
