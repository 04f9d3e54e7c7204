import FleetEngineCapture
import Testing

@Suite("TCP stream reassembly")
struct TCPStreamReassemblerTests {
    typealias Traffic = TCPTestTraffic
    typealias Gap = TCPTestTraffic.Gap

    @Test func inOrderSegmentsAreDeliveredAsTheirOwnSlicesFromTheByteAfterTheSYN() {
        var reassembler = TCPStreamReassembler()
        let first = Traffic.segment(1001, Array("hello".utf8), time: 1, byteOffset: 100)
        let second = Traffic.segment(1006, Array(" world".utf8), time: 2, byteOffset: 200)

        #expect(reassembler.receive(Traffic.segment(1000, flags: .syn)) == [])
        #expect(reassembler.initialSequenceNumber == 1000)
        let events = reassembler.receive(first) + reassembler.receive(second)

        #expect(
            events == [
                .data(first.payload, streamOffset: 0, timestamp: Traffic.time(1), byteOffset: 100),
                .data(second.payload, streamOffset: 5, timestamp: Traffic.time(2), byteOffset: 200),
            ])
        #expect(reassembler.deliveredBytes == 11)
        #expect(reassembler.bufferedBytes == 0)
        // The fast path hands out the segment's own storage rather than a copy.
        if case .data(let bytes, _, _, _) = events.first {
            let delivered = bytes.withUnsafeBufferPointer { $0.baseAddress }
            let received = first.payload.withUnsafeBufferPointer { $0.baseAddress }
            #expect(delivered == received)
        }
    }

    @Test func everyPermutationOfFiveSegmentsReassemblesToTheSameBytes() {
        let content = Traffic.bytes(40)
        let cuts = [0, 3, 11, 12, 30, 40]
        var segments = [TCPSegment]()
        for index in 0..<5 {
            let flags: TCPFlags = index == 4 ? [.ack, .fin] : .ack
            segments.append(
                Traffic.segment(UInt32(501 + cuts[index]), Array(content[cuts[index]..<cuts[index + 1]]), flags: flags))
        }
        let orders = Traffic.permutations(of: segments)
        #expect(orders.count == 120)
        for order in orders {
            let stream = Traffic.reassemble([Traffic.segment(500, flags: .syn)] + order, finish: false)
            #expect(stream == Traffic.Stream(bytes: content, gaps: [], reset: false, isContiguous: true, endOffset: 40))
        }
    }

    @Test func everyPermutationOfFourOverlappingSegmentsReassemblesToTheSameBytes() {
        let content = Traffic.bytes(30)
        let ranges = [0..<10, 5..<20, 8..<12, 15..<30]
        let segments = ranges.map { Traffic.segment(UInt32(7 + $0.lowerBound), Array(content[$0])) }
        for order in Traffic.permutations(of: segments) {
            let stream = Traffic.reassemble([Traffic.segment(6, flags: .syn)] + order)
            #expect(stream == Traffic.Stream(bytes: content, gaps: [], reset: nil, isContiguous: true, endOffset: 30))
        }
    }

    @Test func retransmissionsOfDeliveredDataAreDropped() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(99, flags: .syn))
        let first = reassembler.receive(Traffic.segment(100, Array("abcdef".utf8)))
        let again = reassembler.receive(Traffic.segment(100, Array("abcdef".utf8), time: 5))
        let part = reassembler.receive(Traffic.segment(102, Array("cd".utf8), time: 6))

        #expect(first.count == 1)
        #expect(again == [])
        #expect(part == [])
        #expect(reassembler.deliveredBytes == 6)
    }

    @Test func overlappingCopiesKeepTheBytesReceivedFirst() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        var stream = Traffic.Stream()
        Traffic.read(reassembler.receive(Traffic.segment(1, Array("aaaaa".utf8))), into: &stream)
        // Buffered out of order at offsets 10..<14: received before the copy that overlaps it.
        Traffic.read(reassembler.receive(Traffic.segment(11, Array("QQQQ".utf8), time: 1)), into: &stream)
        #expect(reassembler.bufferedBytes == 4)
        // Offsets 3..<13: 3 and 4 were delivered, 10..<13 are buffered; only 5..<10 are new.
        let overlapping = Traffic.segment(4, Array("xxzzzzzyyy".utf8), time: 2, byteOffset: 1000)
        let events = reassembler.receive(overlapping)
        Traffic.read(events, into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(15, Array("e".utf8), time: 3)), into: &stream)

        #expect(String(decoding: stream.bytes, as: UTF8.self) == "aaaaazzzzzQQQQe")
        #expect(
            events == [
                .data(Array("zzzzz".utf8)[...], streamOffset: 5, timestamp: Traffic.time(2), byteOffset: 1002),
                .data(Array("QQQQ".utf8)[...], streamOffset: 10, timestamp: Traffic.time(1), byteOffset: 0),
            ])
        #expect(reassembler.bufferedBytes == 0)
    }

    @Test func bufferedCopyWinsOverALaterSegmentThatSpansSeveralBufferedOnes() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        var stream = Traffic.Stream()
        Traffic.read(reassembler.receive(Traffic.segment(3, Array("BB".utf8))), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(7, Array("CC".utf8))), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(1, Array("aaaaaaaaaaa".utf8))), into: &stream)

        #expect(String(decoding: stream.bytes, as: UTF8.self) == "aaBBaaCCaaa")
        #expect(stream.isContiguous)
        #expect(reassembler.bufferedBytes == 0)
    }

    @Test func lostSegmentIsReportedAsAGapAtItsOffsetAndDeliveryContinuesAfterIt() {
        var reassembler = TCPStreamReassembler(maxBufferedBytes: 150)
        let content = Traffic.bytes(500)
        func part(_ range: Range<Int>, time: Int) -> TCPSegment {
            Traffic.segment(UInt32(5001 + range.lowerBound), Array(content[range]), time: time)
        }
        _ = reassembler.receive(Traffic.segment(5000, flags: .syn))
        #expect(reassembler.receive(part(0..<100, time: 1)).count == 1)
        // 100..<200 is lost.
        #expect(reassembler.receive(part(200..<300, time: 3)) == [])
        #expect(reassembler.bufferedBytes == 100)
        let events = reassembler.receive(part(300..<400, time: 4))
        let after = reassembler.receive(part(400..<500, time: 5))

        #expect(
            events == [
                .gap(streamOffset: 100, length: 100, timestamp: Traffic.time(4)),
                .data(content[200..<300], streamOffset: 200, timestamp: Traffic.time(3), byteOffset: 0),
                .data(content[300..<400], streamOffset: 300, timestamp: Traffic.time(4), byteOffset: 0),
            ])
        #expect(after == [.data(content[400..<500], streamOffset: 400, timestamp: Traffic.time(5), byteOffset: 0)])
        #expect(reassembler.deliveredBytes == 400)
        #expect(reassembler.bufferedBytes == 0)
    }

    @Test func bufferingOneByteOverTheLimitForcesAGapBeforeTheEarliestBufferedSegment() {
        var reassembler = TCPStreamReassembler(maxBufferedBytes: 10)
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        #expect(reassembler.receive(Traffic.segment(21, Traffic.bytes(4))) == [])
        #expect(reassembler.receive(Traffic.segment(11, Traffic.bytes(6))) == [])
        #expect(reassembler.bufferedBytes == 10)
        let events = reassembler.receive(Traffic.segment(31, [9], time: 7))

        // The earliest buffered segment (offset 10) goes first; the one at 20 still fits after it.
        #expect(
            events == [
                .gap(streamOffset: 0, length: 10, timestamp: Traffic.time(7)),
                .data(Traffic.bytes(6)[...], streamOffset: 10, timestamp: Traffic.time(0), byteOffset: 0),
            ])
        #expect(reassembler.bufferedBytes == 5)
    }

    @Test func bufferingOneSegmentOverTheSegmentLimitForcesAGap() {
        var reassembler = TCPStreamReassembler(maxBufferedBytes: 1000, maxBufferedSegments: 2)
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        #expect(reassembler.receive(Traffic.segment(3, [2])) == [])
        #expect(reassembler.receive(Traffic.segment(5, [4])) == [])
        let events = reassembler.receive(Traffic.segment(7, [6], time: 2))

        #expect(
            events == [
                .gap(streamOffset: 0, length: 2, timestamp: Traffic.time(2)),
                .data([2][...], streamOffset: 2, timestamp: Traffic.time(0), byteOffset: 0),
            ])
        #expect(reassembler.bufferedBytes == 2)
    }

    @Test func aFullBufferFedAtItsFrontAndInItsMiddleStillDeliversEveryByteOrReportsItsGap() {
        // Orders a hostile capture can choose: 2,400 one-byte pieces with holes between them wait
        // in a buffer that takes 2,500; then pieces arrive below all of them (each one landing at
        // the front of a full buffer, which then gives up its oldest hole) and into the holes in
        // the middle.
        let content = Traffic.bytes(30_000)
        var reassembler = TCPStreamReassembler(maxBufferedSegments: 2_500)
        var events = reassembler.receive(Traffic.segment(0, flags: .syn))
        var sent: [Int] = []
        func send(_ offset: Int) {
            sent.append(offset)
            events += reassembler.receive(
                Traffic.segment(UInt32(1 + offset), [content[offset]], byteOffset: Int64(offset)))
            #expect(reassembler.bufferedBytes <= 2_500)
        }
        for index in 0..<2_400 { send(20_001 + 2 * index) }
        #expect(reassembler.bufferedBytes == 2_400)
        for index in 0..<1_000 { send(10 + 2 * index) }
        for index in 0..<1_000 { send(21_002 + 2 * index) }
        events += reassembler.finish(at: Traffic.time(9))

        // Data and gaps tile the stream from 0 in order; every byte delivered is the sender's,
        // and every byte sent was delivered or lies in a gap that was reported.
        var cursor: Int64 = 0
        var delivered = [Bool](repeating: false, count: content.count)
        var gapped = [Bool](repeating: false, count: content.count)
        for event in events {
            switch event {
            case .data(let bytes, let streamOffset, _, let byteOffset):
                #expect(streamOffset == cursor)
                #expect(byteOffset == streamOffset)
                #expect(Array(bytes) == Array(content[Int(streamOffset)..<Int(streamOffset) + bytes.count]))
                for offset in Int(streamOffset)..<Int(streamOffset) + bytes.count { delivered[offset] = true }
                cursor += Int64(bytes.count)
            case .gap(let streamOffset, let length, _):
                #expect(streamOffset == cursor && length > 0)
                for offset in Int(streamOffset)..<Int(streamOffset + length) { gapped[offset] = true }
                cursor += length
            case .closed:
                Issue.record("no FIN or RST was sent")
            }
        }
        #expect(cursor == 24_800)
        #expect(sent.allSatisfy { delivered[$0] || gapped[$0] })
        // The pieces below the buffered ones and in its holes were not all given up on.
        #expect((0..<2_010).contains { delivered[$0] })
        #expect((21_002..<23_002).contains { delivered[$0] && $0 % 2 == 0 })
        #expect(reassembler.deliveredBytes == Int64(delivered.filter { $0 }.count))
    }

    @Test func finishReportsEachHoleAsAGapThenTheBufferedBytesAfterIt() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        _ = reassembler.receive(Traffic.segment(1, [1, 2], time: 1))
        _ = reassembler.receive(Traffic.segment(11, [3, 4, 5], time: 2))
        _ = reassembler.receive(Traffic.segment(20, [6], time: 3))
        let events = reassembler.finish(at: Traffic.time(9))

        #expect(
            events == [
                .gap(streamOffset: 2, length: 8, timestamp: Traffic.time(9)),
                .data([3, 4, 5][...], streamOffset: 10, timestamp: Traffic.time(2), byteOffset: 0),
                .gap(streamOffset: 13, length: 6, timestamp: Traffic.time(9)),
                .data([6][...], streamOffset: 19, timestamp: Traffic.time(3), byteOffset: 0),
            ])
        #expect(reassembler.finish(at: Traffic.time(10)) == [])
        #expect(reassembler.receive(Traffic.segment(21, [7])) == [])
    }

    @Test func finishWithoutATimeStampsEachGapWithTheSegmentAfterItAndClosesAtABufferedFIN() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        _ = reassembler.receive(Traffic.segment(6, [1, 2], time: 2))
        _ = reassembler.receive(Traffic.segment(10, flags: [.ack, .fin], time: 3))
        let events = reassembler.finish(at: nil)

        #expect(
            events == [
                .gap(streamOffset: 0, length: 5, timestamp: Traffic.time(2)),
                .data([1, 2][...], streamOffset: 5, timestamp: Traffic.time(2), byteOffset: 0),
                .gap(streamOffset: 7, length: 2, timestamp: Traffic.time(3)),
                .closed(reset: false, timestamp: Traffic.time(3)),
            ])
        #expect(reassembler.isClosed)
    }

    @Test func finishOfAStreamWithNothingPendingAndNoFINReportsNothing() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, [1, 2, 3]))
        #expect(reassembler.finish(at: Traffic.time(1)) == [])
        #expect(!reassembler.isClosed)
    }

    @Test func sequenceNumbersWrapAroundPastTwoToTheThirtyTwo() {
        let content = Traffic.bytes(30)
        let isn = UInt32.max - 5
        // Offsets 0..<10 take sequence numbers 2^32-5 ... 4, so the wrap falls inside the first segment.
        let segments = [0..<10, 10..<20, 20..<30].map {
            Traffic.segment(isn &+ 1 &+ UInt32($0.lowerBound), Array(content[$0]))
        }
        let inOrder = Traffic.reassemble([Traffic.segment(isn, flags: .syn)] + segments)
        let reversed = Traffic.reassemble([Traffic.segment(isn, flags: .syn)] + segments.reversed())

        #expect(inOrder == Traffic.Stream(bytes: content, gaps: [], reset: nil, isContiguous: true, endOffset: 30))
        #expect(reversed == inOrder)
    }

    @Test func streamOffsetsKeepGrowingPastTwoToTheThirtyTwo() {
        // With no buffer at all, each jump of 2^30 sequence numbers becomes a gap, so the stream
        // offset passes 2^32 (and the sequence numbers wrap) after a few segments.
        var reassembler = TCPStreamReassembler(maxBufferedBytes: 0)
        var stream = TCPTestTraffic.Stream()
        Traffic.read(reassembler.receive(Traffic.segment(0xF000_0000, [0])), into: &stream)
        for step in 1...5 {
            let sequenceNumber = UInt32(0xF000_0000) &+ UInt32(step) &* (1 << 30)
            Traffic.read(reassembler.receive(Traffic.segment(sequenceNumber, [UInt8(step)])), into: &stream)
        }

        #expect(stream.bytes == [0, 1, 2, 3, 4, 5])
        let step: Int64 = 1 << 30
        let gapOffsets: [Int64] = [1, step + 1, 2 * step + 1, 3 * step + 1, 4 * step + 1]
        #expect(stream.gaps.map(\.streamOffset) == gapOffsets)
        #expect(stream.gaps.map(\.length) == Array(repeating: step - 1, count: 5))
        #expect(stream.endOffset == 5 * step + 1)
        #expect(stream.isContiguous)
    }

    @Test func captureStartingMidConnectionCountsFromTheFirstSegmentAndDropsEarlierBytes() {
        var reassembler = TCPStreamReassembler()
        var stream = Traffic.Stream()
        // A bare ACK does not place offset 0: its sequence number may be a keep-alive's.
        Traffic.read(reassembler.receive(Traffic.segment(70_000)), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(80_000, [1, 2, 3, 4])), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(79_996, [9, 9, 9, 9])), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(79_998, [9, 9, 9, 9, 9, 9, 5, 6])), into: &stream)

        #expect(stream.bytes == [1, 2, 3, 4, 5, 6])
        #expect(stream.gaps == [])
        #expect(reassembler.initialSequenceNumber == nil)
    }

    @Test func dataCarriedByTheSYNStartsAtOffsetZero() {
        var reassembler = TCPStreamReassembler()
        let syn = Traffic.segment(41, Array("GET".utf8), flags: .syn, time: 1, byteOffset: 54)
        let events = reassembler.receive(syn)
        let next = reassembler.receive(Traffic.segment(45, Array(" /".utf8), time: 2, byteOffset: 154))

        #expect(events == [.data(syn.payload, streamOffset: 0, timestamp: Traffic.time(1), byteOffset: 54)])
        #expect(next == [.data(Array(" /".utf8)[...], streamOffset: 3, timestamp: Traffic.time(2), byteOffset: 154)])
    }

    @Test func finClosesOnlyOnceEveryByteBeforeItWasDelivered() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        let fin = reassembler.receive(Traffic.segment(4, [4, 5], flags: [.ack, .fin], time: 3))
        let fill = reassembler.receive(Traffic.segment(1, [1, 2, 3], time: 4))
        // The FIN took sequence number 6; a segment after it is not part of the stream.
        let late = reassembler.receive(Traffic.segment(7, [9], time: 5))

        #expect(fin == [])
        #expect(
            fill == [
                .data([1, 2, 3][...], streamOffset: 0, timestamp: Traffic.time(4), byteOffset: 0),
                .data([4, 5][...], streamOffset: 3, timestamp: Traffic.time(3), byteOffset: 0),
                .closed(reset: false, timestamp: Traffic.time(3)),
            ])
        #expect(late == [])
        #expect(reassembler.isClosed)
    }

    @Test func bytesBufferedPastALaterFINAreDropped() {
        let stream = Traffic.reassemble([
            Traffic.segment(0, flags: .syn),
            Traffic.segment(5, [5, 6, 7, 8]),
            Traffic.segment(4, [4, 5], flags: [.ack, .fin]),
            Traffic.segment(1, [1, 2, 3]),
        ])

        #expect(stream == Traffic.Stream(bytes: [1, 2, 3, 4, 5], gaps: [], reset: false, endOffset: 5))
    }

    @Test func rstFlushesWhatWasBufferedAndClosesWithReset() {
        var reassembler = TCPStreamReassembler()
        _ = reassembler.receive(Traffic.segment(0, flags: .syn))
        _ = reassembler.receive(Traffic.segment(1, [1]))
        _ = reassembler.receive(Traffic.segment(4, [4], time: 2))
        let events = reassembler.receive(Traffic.segment(5, Array("reason".utf8), flags: [.rst], time: 3))

        #expect(
            events == [
                .gap(streamOffset: 1, length: 2, timestamp: Traffic.time(3)),
                .data([4][...], streamOffset: 3, timestamp: Traffic.time(2), byteOffset: 0),
                .closed(reset: true, timestamp: Traffic.time(3)),
            ])
        #expect(reassembler.receive(Traffic.segment(5, [5])) == [])
        #expect(reassembler.finish(at: nil) == [])
    }

    @Test func rstAsTheFirstSegmentClosesAnEmptyStream() {
        var reassembler = TCPStreamReassembler()
        #expect(
            reassembler.receive(Traffic.segment(1, flags: [.rst, .ack], time: 1)) == [
                .closed(reset: true, timestamp: Traffic.time(1))
            ])
    }

    @Test(arguments: [false, true])
    func segmentSplitIntoOneByteSegmentsReassembles(reversed: Bool) {
        let content = Traffic.bytes(1000, seed: 3)
        var segments = content.indices.map { Traffic.segment(UInt32(1_000_001 + $0), [content[$0]]) }
        if reversed {
            segments.reverse()
        }
        let stream = Traffic.reassemble([Traffic.segment(1_000_000, flags: .syn)] + segments)

        #expect(stream == Traffic.Stream(bytes: content, gaps: [], reset: nil, endOffset: 1000))
    }
}
