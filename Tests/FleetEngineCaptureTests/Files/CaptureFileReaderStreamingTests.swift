import Testing

@testable import FleetEngineCapture

@Suite("CaptureFileReader: streaming input")
struct CaptureFileReaderStreamingTests {
    /// One piece of a capture built for these tests: where it starts and ends, and whether it
    /// holds a packet.
    struct Unit {
        var start: Int
        var end: Int
        var isPacket: Bool
    }

    /// A capture with every kind of unit the reader handles, and its units in order.
    static func capture(format: CaptureWriter.Format, seed: UInt64 = 1) -> (bytes: [UInt8], units: [Unit]) {
        var random = CaptureTestRandomGenerator(seed: seed)
        var units: [Unit] = []
        var writer: CaptureWriter
        func record(_ writer: CaptureWriter, isPacket: Bool, _ units: inout [Unit]) {
            units.append(Unit(start: units.last?.end ?? 0, end: writer.bytes.count, isPacket: isPacket))
        }
        func packet(_ random: inout CaptureTestRandomGenerator) -> [UInt8] {
            (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        func timestamp(_ index: Int) -> CaptureTimestamp {
            CaptureTimestamp(seconds: 1_700_000_000 + Int64(index), nanoseconds: UInt32(index) * 1_000)
        }
        switch format {
        case .pcap:
            writer = CaptureWriter(format: format, linkType: .ethernet)
            record(writer, isPacket: false, &units)
            for index in 0..<12 {
                writer.append(packet: packet(&random), timestamp: timestamp(index))
                record(writer, isPacket: true, &units)
            }
        case .pcapng(let bigEndian):
            writer = CaptureWriter(format: format, interfaces: [])
            record(writer, isPacket: false, &units)
            writer.addInterface(.init(linkType: .ethernet))
            record(writer, isPacket: false, &units)
            writer.addInterface(.init(linkType: .raw, timestampResolution: .binary(20), timestampOffset: 3))
            record(writer, isPacket: false, &units)
            for index in 0..<6 {
                writer.append(packet: packet(&random), timestamp: timestamp(index), interface: index % 2)
                record(writer, isPacket: true, &units)
            }
            writer.appendBlock(type: 0x0000_0BAD, body: packet(&random))
            record(writer, isPacket: false, &units)
            writer.appendSimplePacket(packet(&random))
            record(writer, isPacket: true, &units)
            writer.beginSection(bigEndian: !bigEndian)
            record(writer, isPacket: false, &units)
            writer.addInterface(.init(linkType: .linuxSLL, timestampResolution: .nanoseconds))
            record(writer, isPacket: false, &units)
            for index in 6..<10 {
                writer.append(packet: packet(&random), timestamp: timestamp(index))
                record(writer, isPacket: true, &units)
            }
        }
        return (writer.bytes, units)
    }

    static let formats: [CaptureWriter.Format] = [
        .pcap(nanosecond: false, bigEndian: false), .pcap(nanosecond: true, bigEndian: true),
        .pcapng(bigEndian: false), .pcapng(bigEndian: true),
    ]

    @Test("one byte at a time, random chunks and all at once give identical packets", arguments: formats)
    func chunkingDoesNotChangePackets(format: CaptureWriter.Format) throws {
        let (bytes, units) = Self.capture(format: format)
        let whole = CaptureReaderHarness.read(bytes)
        #expect(whole.error == nil)
        #expect(whole.packets.count == units.filter(\.isPacket).count)
        #expect(whole.packets.map(\.byteOffset).allSatisfy { $0 > 0 })

        let byteByByte = CaptureReaderHarness.read(bytes, chunkSizes: [1])
        #expect(byteByByte.error == nil)
        #expect(byteByByte.summaries == whole.summaries)

        var random = CaptureTestRandomGenerator(seed: 42)
        for _ in 0..<20 {
            let sizes = (0..<8).map { _ in Int.random(in: 1...700, using: &random) }
            let chunked = CaptureReaderHarness.read(bytes, chunkSizes: sizes)
            #expect(chunked.error == nil)
            #expect(chunked.summaries == whole.summaries)
        }
    }

    @Test(
        "a capture cut at any byte gives the packets before the cut, then truncatedCapture where the cut unit starts",
        arguments: formats)
    func cutAtEveryOffset(format: CaptureWriter.Format) {
        let (bytes, units) = Self.capture(format: format)
        let all = CaptureReaderHarness.read(bytes).summaries
        for cut in 0...bytes.count {
            let outcome = CaptureReaderHarness.read(Array(bytes[0..<cut]))
            let complete = units.filter { $0.end <= cut }
            #expect(outcome.summaries == Array(all.prefix(complete.filter(\.isPacket).count)), "cut at \(cut)")
            let atBoundary = cut > 0 && (complete.last?.end ?? 0) == cut
            if atBoundary {
                #expect(outcome.error == nil, "cut at \(cut)")
            } else {
                #expect(outcome.error == CaptureError(.truncatedCapture), "cut at \(cut)")
                #expect(outcome.error?.byteOffset == Int64(complete.last?.end ?? 0), "cut at \(cut)")
            }
        }
    }

    @Test("finish names the part the input ended in")
    func truncationMessages() {
        var writer = CaptureWriter(format: .pcap)
        writer.append(packet: Array(repeating: 1, count: 30))
        let bytes = writer.bytes
        #expect(
            CaptureReaderHarness.read(Array(bytes[0..<10])).error?.message
                == "the input ended after 10 bytes, inside the capture file header")
        #expect(
            CaptureReaderHarness.read(Array(bytes[0..<30])).error?.message
                == "the input ended 6 bytes into a 16-byte pcap record header")
        #expect(
            CaptureReaderHarness.read(Array(bytes[0..<50])).error?.message
                == "the input ended 26 bytes into a pcap record of 30 bytes")
    }

    @Test("finish reads packets still buffered before deciding where the input ends")
    func finishWithUnreadPackets() throws {
        var writer = CaptureWriter(format: .pcapng, linkType: .raw)
        writer.append(packet: [1, 2])
        var reader = CaptureFileReader()
        reader.append(writer.bytes)
        try reader.finish()
        reader.append(writer.bytes[0..<30])
        #expect(throws: CaptureError(.truncatedCapture)) { try reader.finish() }
    }

    @Test("the buffer holds no more than a chunk and about one record, however long the capture")
    func memoryStaysBounded() throws {
        var random = CaptureTestRandomGenerator(seed: 7)
        var writer = CaptureWriter(format: .pcapng, linkType: .ethernet)
        for index in 0..<3_000 {
            let size = Int.random(in: 40...1_500, using: &random)
            writer.append(packet: Array(repeating: UInt8(truncatingIfNeeded: index), count: size))
        }
        let bytes = writer.bytes
        let chunkSize = 4_096
        let largestBlock = 28 + 1_500 + 4
        var reader = CaptureFileReader()
        var count = 0
        var largestBuffer = 0
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            bytes.withUnsafeBytes { raw in
                reader.append(UnsafeRawBufferPointer(rebasing: raw[start..<min(start + chunkSize, raw.count)]))
            }
            largestBuffer = max(largestBuffer, reader.buffer.count)
            while try reader.nextPacket() != nil { count += 1 }
            #expect(reader.unconsumedByteCount < largestBlock)
        }
        try reader.finish()
        #expect(count == 3_000)
        #expect(largestBuffer <= chunkSize + 2 * largestBlock)
        #expect(reader.bytesConsumed == Int64(bytes.count))
    }

    @Test("corrupted captures give typed errors or packets, never a crash")
    func corruptedCapturesNeverCrash() {
        var random = CaptureTestRandomGenerator(seed: 99)
        let allowed: Set<CaptureError.Code> = [.notACapture, .truncatedCapture, .malformedRecord]
        for (index, format) in Self.formats.enumerated() {
            let (original, _) = Self.capture(format: format, seed: UInt64(index))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                if Bool.random(using: &random) {
                    bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
                }
                let outcome = CaptureReaderHarness.read(bytes, chunkSizes: [Int.random(in: 1...500, using: &random)])
                if let error = outcome.error {
                    #expect(allowed.contains(error.code))
                    #expect((0...Int64(bytes.count)).contains(error.byteOffset ?? -1))
                }
                for packet in outcome.packets {
                    do {
                        _ = try PacketDecoder.tcpSegment(in: packet)
                    } catch {
                        #expect(error.code == .malformedPacket || error.code == .unsupportedLinkType)
                    }
                }
            }
        }
    }
}
