import FleetEngineCapture
import Testing

@Suite("TCP reorder buffers: bounded for all connections together, each hole given up reported as a gap")
struct TCPReorderBoundTests {
    typealias Traffic = TCPTestTraffic
    typealias Gap = TCPTestTraffic.Gap

    static let server = Traffic.server

    static func client(_ index: Int) -> TCPEndpoint {
        TCPEndpoint(address: .v4(0x0A00_0001), port: UInt16(40_000 + index))
    }

    /// Connection `index`'s SYN, then 100 bytes at stream offset 100: a hole of 100 bytes before them.
    static func segmentsWithAHole(_ index: Int) -> [TCPSegment] {
        [
            Traffic.segment(1_000, flags: .syn, from: client(index), to: server, time: index),
            Traffic.segment(
                1_101, Traffic.bytes(100, seed: UInt8(index)), from: client(index), to: server, time: index),
        ]
    }

    /// Per connection, the stream its client sent as the events tell it, and when each gap came.
    struct Streams {
        var streams: [Int: Traffic.Stream] = [:]
        var gapsBeforeTheEnd: Set<Int> = []

        mutating func read(_ events: [TCPConnectionEvent], finishing: Bool = false) {
            for event in events {
                switch event {
                case .data(let id, _, let bytes, let streamOffset, let timestamp, let byteOffset):
                    Traffic.read(
                        [.data(bytes, streamOffset: streamOffset, timestamp: timestamp, byteOffset: byteOffset)],
                        into: &streams[id, default: Traffic.Stream()])
                case .gap(let id, _, let streamOffset, let length, let timestamp):
                    Traffic.read(
                        [.gap(streamOffset: streamOffset, length: length, timestamp: timestamp)],
                        into: &streams[id, default: Traffic.Stream()])
                    if !finishing { gapsBeforeTheEnd.insert(id) }
                default:
                    break
                }
            }
        }
    }

    @Test("20 connections each waiting on a hole, room for 10: the later ones give up their holes at once")
    func laterConnectionsGiveUpTheirHoles() {
        var table = TCPConnectionTable(maxBufferedBytes: 1_000)
        var streams = Streams()
        for index in 0..<20 {
            for segment in Self.segmentsWithAHole(index) {
                streams.read(table.receive(segment))
                #expect(table.bufferedBytes <= 1_000)
            }
        }
        #expect(table.bufferedBytes == 1_000)
        // Connections 11 to 20 (ids) went over the bound with their own segment and reported their
        // hole then; the first ten still wait.
        #expect(streams.gapsBeforeTheEnd == Set(11...20))
        streams.read(table.finish(), finishing: true)
        #expect(table.bufferedBytes == 0)
        // Nothing is lost: every connection delivers its 100 bytes after a gap of 100.
        for id in 1...20 {
            let stream = streams.streams[id]
            #expect(stream?.gaps == [Gap(0, 100)])
            #expect(stream?.bytes == Traffic.bytes(100, seed: UInt8(id - 1)))
            #expect(stream?.isContiguous == true)
        }
    }

    @Test("a connection that ends gives back what it buffered: the next hole fits without a gap")
    func endedConnectionsFreeTheirShare() {
        var table = TCPConnectionTable(maxBufferedBytes: 1_000)
        var streams = Streams()
        for index in 0..<10 {
            for segment in Self.segmentsWithAHole(index) { streams.read(table.receive(segment)) }
        }
        #expect(table.bufferedBytes == 1_000)
        streams.read(
            table.receive(Traffic.segment(1_201, flags: [.ack, .rst], from: Self.client(0), to: Self.server, time: 30)))
        #expect(table.bufferedBytes == 900)
        for segment in Self.segmentsWithAHole(10) { streams.read(table.receive(segment)) }
        #expect(table.bufferedBytes == 1_000)
        // Only the reset connection reported its hole before the end.
        #expect(streams.gapsBeforeTheEnd == [1])
    }

    @Test("releasing a buffer down to a limit gives up the oldest holes first, and keeps the rest waiting")
    func releaseOldestHolesFirst() {
        var reassembler = TCPStreamReassembler()
        var stream = Traffic.Stream()
        let content = Traffic.bytes(60)
        _ = reassembler.receive(Traffic.segment(1_000, flags: .syn))
        // Holes at 0..<10 and 30..<40; bytes 10..<30 and 40..<60 wait.
        Traffic.read(reassembler.receive(Traffic.segment(1_011, Array(content[10..<30]))), into: &stream)
        Traffic.read(reassembler.receive(Traffic.segment(1_041, Array(content[40..<60]))), into: &stream)
        #expect(reassembler.bufferedBytes == 40)
        Traffic.read(reassembler.releaseBuffered(downTo: 25, at: Traffic.time(9)), into: &stream)
        #expect(stream.gaps == [Gap(0, 10)])
        #expect(stream.bytes == Array(content[10..<30]))
        #expect(reassembler.bufferedBytes == 20)
        // The second hole fills, and the stream goes on.
        Traffic.read(reassembler.receive(Traffic.segment(1_031, Array(content[30..<40]))), into: &stream)
        #expect(stream.bytes == Array(content[10..<60]))
        #expect(reassembler.bufferedBytes == 0)
        #expect(stream.isContiguous)
    }
}
