import FleetEngineCapture
import Testing

@Suite("TCP connection table")
struct TCPConnectionTableTests {
    typealias Traffic = TCPTestTraffic

    static let client = Traffic.client
    static let server = Traffic.server
    static let otherClient = TCPEndpoint(address: .v4(0x0A00_0003), port: 50_001)

    /// A segment of the test connections, `time` seconds in.
    static func segment(
        _ source: TCPEndpoint, _ destination: TCPEndpoint, _ sequenceNumber: UInt32, _ text: String = "",
        _ flags: TCPFlags = .ack, time: Int = 0
    ) -> TCPSegment {
        Traffic.segment(sequenceNumber, Array(text.utf8), flags: flags, from: source, to: destination, time: time)
    }

    /// The text each (connection, sender) delivered, and the order events came in, in short.
    struct Summary {
        var text: [String: String] = [:]
        var log: [String] = []

        mutating func read(_ events: [TCPConnectionEvent]) {
            for event in events {
                switch event {
                case .opened(let connection):
                    log.append("opened \(connection)")
                case .data(let id, let from, let bytes, _, _, _):
                    text["\(id) \(from)", default: ""] += String(decoding: bytes, as: UTF8.self)
                case .gap(let id, let from, let streamOffset, let length, _):
                    log.append("gap \(id) \(from) \(streamOffset)+\(length)")
                case .closed(let id, let from, let reset, _):
                    log.append("closed \(id) \(from)\(reset ? " reset" : "")")
                case .ended(let id):
                    log.append("ended \(id)")
                case .passedOverAfterReset(let id, let from, let resetBy, let length, _, _):
                    log.append("passed over \(id) \(from) \(length) after reset by \(resetBy)")
                }
            }
        }
    }

    @Test func twoInterleavedConnectionsAreReassembledSeparately() {
        let (client, server, other) = (Self.client, Self.server, Self.otherClient)
        let segments = [
            Self.segment(client, server, 100, "", .syn),
            Self.segment(other, server, 7000, "", .syn),
            Self.segment(server, client, 900, "", [.syn, .ack]),
            Self.segment(server, other, 3000, "", [.syn, .ack]),
            Self.segment(client, server, 101, "GET /a"),
            Self.segment(other, server, 7007, "/b"),
            Self.segment(other, server, 7001, "GET /b"),
            Self.segment(server, client, 901, "200 a"),
            Self.segment(server, other, 3001, "200 b"),
            Self.segment(client, server, 107, "", [.ack, .fin]),
            Self.segment(server, client, 906, "", [.ack, .fin]),
            Self.segment(client, server, 108),
            Self.segment(other, server, 7009, "", [.ack, .fin]),
        ]
        var table = TCPConnectionTable()
        var summary = Summary()
        for segment in segments {
            summary.read(table.receive(segment))
        }
        #expect(table.openConnectionCount == 1)
        summary.read(table.finish())

        #expect(
            summary.text == [
                "1 10.0.0.1:50000": "GET /a", "1 10.0.0.2:443": "200 a",
                "2 10.0.0.3:50001": "GET /b/b", "2 10.0.0.2:443": "200 b",
            ])
        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "opened #2 10.0.0.3:50001 -> 10.0.0.2:443",
                "closed 1 10.0.0.1:50000",
                "closed 1 10.0.0.2:443",
                "ended 1",
                "closed 2 10.0.0.3:50001",
                "ended 2",
            ])
        #expect(table.openConnectionCount == 0)
    }

    @Test func dataEventsNameTheConnectionTheSenderAndTheSegment() {
        var table = TCPConnectionTable()
        _ = table.receive(Self.segment(Self.client, Self.server, 10, "", .syn))
        var data = Self.segment(Self.client, Self.server, 11, "hi", time: 4)
        data.byteOffset = 66
        let events = table.receive(data)

        #expect(
            events == [
                .data(
                    connectionID: 1, from: Self.client, bytes: Array("hi".utf8)[...], streamOffset: 0,
                    timestamp: Traffic.time(4), byteOffset: 66)
            ])
    }

    @Test func initiatorIsTheSenderOfTheSYN() {
        var table = TCPConnectionTable()
        let events = table.receive(Self.segment(Self.server, Self.client, 5, "", .syn))

        #expect(
            events == [
                .opened(
                    TCPConnection(
                        id: 1, initiator: Self.server, firstSource: Self.server, firstDestination: Self.client))
            ])
    }

    @Test func initiatorIsThePeerOfTheSYNACKWhenTheSYNIsMissing() {
        var table = TCPConnectionTable()
        let events = table.receive(Self.segment(Self.server, Self.client, 5, "", [.syn, .ack]))

        let connection = TCPConnection(
            id: 1, initiator: Self.client, firstSource: Self.server, firstDestination: Self.client)
        #expect(events == [.opened(connection)])
        #expect(connection.responder == Self.server)
    }

    @Test func initiatorIsUnknownWhenTheCaptureStartsMidConnection() {
        var table = TCPConnectionTable()
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.server, Self.client, 5_000, "tail of a reply")))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 77, "next")))

        #expect(summary.log == ["opened #1 10.0.0.2:443 <-> 10.0.0.1:50000"])
        #expect(summary.text == ["1 10.0.0.2:443": "tail of a reply", "1 10.0.0.1:50000": "next"])
    }

    @Test func endpointPairIsReusedByANewConnectionAfterBothFINs() {
        let (client, server) = (Self.client, Self.server)
        var table = TCPConnectionTable()
        var summary = Summary()
        for segment in [
            Self.segment(client, server, 100, "", .syn),
            Self.segment(server, client, 900, "", [.syn, .ack]),
            Self.segment(client, server, 101, "one", [.ack, .fin]),
            Self.segment(server, client, 901, "", [.ack, .fin]),
            // The last ACK of the close arrives after the connection ended: it opens nothing.
            Self.segment(client, server, 105),
            Self.segment(client, server, 5000, "", .syn),
            Self.segment(server, client, 8000, "", [.syn, .ack]),
            Self.segment(client, server, 5001, "two"),
        ] {
            summary.read(table.receive(segment))
        }

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "closed 1 10.0.0.1:50000",
                "closed 1 10.0.0.2:443",
                "ended 1",
                "opened #2 10.0.0.1:50000 -> 10.0.0.2:443",
            ])
        #expect(summary.text == ["1 10.0.0.1:50000": "one", "2 10.0.0.1:50000": "two"])
    }

    @Test func lateRetransmissionAfterTheCloseOpensNoConnection() {
        let (client, server) = (Self.client, Self.server)
        var table = TCPConnectionTable()
        var summary = Summary()
        for segment in [
            Self.segment(client, server, 100, "", .syn),
            Self.segment(server, client, 900, "", [.syn, .ack]),
            Self.segment(client, server, 101, "one"),
            Self.segment(server, client, 901, "reply"),
            Self.segment(client, server, 104, "", [.ack, .fin]),
            Self.segment(server, client, 906, "", [.ack, .fin]),
            // Both directions closed: data repeated after that is a retransmission, not a
            // connection the capture joined midway.
            Self.segment(server, client, 901, "reply"),
            Self.segment(client, server, 101, "one"),
            // A SYN still opens the pair again.
            Self.segment(client, server, 7000, "", .syn),
            Self.segment(client, server, 7001, "two"),
        ] {
            summary.read(table.receive(segment))
        }

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "closed 1 10.0.0.1:50000",
                "closed 1 10.0.0.2:443",
                "ended 1",
                "opened #2 10.0.0.1:50000 -> 10.0.0.2:443",
            ])
        #expect(summary.text == ["1 10.0.0.1:50000": "one", "1 10.0.0.2:443": "reply", "2 10.0.0.1:50000": "two"])
    }

    @Test func synWithAnotherInitialSequenceNumberEndsTheOpenConnection() {
        var table = TCPConnectionTable()
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.client, Self.server, 100, "", .syn)))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 101, "old")))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 110, "lost before", time: 1)))
        // A retransmitted SYN repeats the sequence number and belongs to the same connection.
        summary.read(table.receive(Self.segment(Self.client, Self.server, 100, "", .syn)))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 90_000, "", .syn, time: 2)))

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "gap 1 10.0.0.1:50000 3+6",
                "ended 1",
                "opened #2 10.0.0.1:50000 -> 10.0.0.2:443",
            ])
        #expect(summary.text == ["1 10.0.0.1:50000": "oldlost before"])
    }

    @Test func synACKWithAnotherInitialSequenceNumberEndsTheOpenConnection() {
        var table = TCPConnectionTable()
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.client, Self.server, 100, "", .syn)))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 900, "", [.syn, .ack])))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 900, "", [.syn, .ack])))
        // The new connection's SYN is missing from the capture; its SYN-ACK gives it away.
        summary.read(table.receive(Self.segment(Self.server, Self.client, 40_000, "", [.syn, .ack])))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 40_001, "new")))

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "ended 1",
                "opened #2 10.0.0.1:50000 -> 10.0.0.2:443",
            ])
        #expect(summary.text == ["2 10.0.0.2:443": "new"])
    }

    @Test func resetEndsTheConnectionAfterFlushingTheOtherDirection() {
        var table = TCPConnectionTable()
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.client, Self.server, 100, "", .syn)))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 900, "", [.syn, .ack])))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 104, "late", time: 1)))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 901, "", [.rst, .ack], time: 2)))
        summary.read(table.receive(Self.segment(Self.server, Self.client, 901, "", [.rst], time: 3)))

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "closed 1 10.0.0.2:443 reset",
                "gap 1 10.0.0.1:50000 0+3",
                "ended 1",
            ])
        #expect(summary.text == ["1 10.0.0.1:50000": "late"])
    }

    @Test func openingOneConnectionTooManyEndsTheLeastRecentlyActiveWithItsDataFlushed() {
        let third = TCPEndpoint(address: .v6(0x2001_0DB8_0000_0000, 1), port: 40_000)
        let thirdServer = TCPEndpoint(address: .v6(0x2001_0DB8_0000_0000, 2), port: 443)
        var table = TCPConnectionTable(maxConnections: 2)
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.client, Self.server, 100, "", .syn)))
        summary.read(table.receive(Self.segment(Self.otherClient, Self.server, 500, "", .syn)))
        summary.read(table.receive(Self.segment(Self.otherClient, Self.server, 505, "buffered")))
        // Connection 1 becomes the most recently active, so connection 2 is the one to go.
        summary.read(table.receive(Self.segment(Self.client, Self.server, 101, "keep")))
        summary.read(table.receive(Self.segment(third, thirdServer, 1, "", .syn, time: 9)))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 105, "ing")))

        #expect(
            summary.log == [
                "opened #1 10.0.0.1:50000 -> 10.0.0.2:443",
                "opened #2 10.0.0.3:50001 -> 10.0.0.2:443",
                "gap 2 10.0.0.3:50001 0+4",
                "ended 2",
                "opened #3 [2001:db8::1]:40000 -> [2001:db8::2]:443",
            ])
        #expect(summary.text == ["1 10.0.0.1:50000": "keeping", "2 10.0.0.3:50001": "buffered"])
        #expect(table.openConnectionCount == 2)
    }

    @Test func evictedGapIsStampedWithTheSegmentThatForcedTheEviction() {
        var table = TCPConnectionTable(maxConnections: 1)
        _ = table.receive(Self.segment(Self.client, Self.server, 100, "", .syn))
        _ = table.receive(Self.segment(Self.client, Self.server, 103, "x", time: 1))
        let events = table.receive(Self.segment(Self.otherClient, Self.server, 1, "", .syn, time: 5))

        #expect(
            events.prefix(3) == [
                .gap(connectionID: 1, from: Self.client, streamOffset: 0, length: 2, timestamp: Traffic.time(5)),
                .data(
                    connectionID: 1, from: Self.client, bytes: Array("x".utf8)[...], streamOffset: 2,
                    timestamp: Traffic.time(1), byteOffset: 0),
                .ended(connectionID: 1),
            ])
        #expect(events.count == 4)
    }

    @Test func finishEndsTheOpenConnectionsInTheOrderTheyOpened() {
        var table = TCPConnectionTable()
        var summary = Summary()
        summary.read(table.receive(Self.segment(Self.otherClient, Self.server, 1, "", .syn)))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 1, "", .syn)))
        summary.read(table.receive(Self.segment(Self.otherClient, Self.server, 2, "a", time: 3)))
        summary.read(table.receive(Self.segment(Self.client, Self.server, 4, "b", time: 4)))
        let finish = table.finish()
        summary.read(finish)

        #expect(
            summary.log == [
                "opened #1 10.0.0.3:50001 -> 10.0.0.2:443",
                "opened #2 10.0.0.1:50000 -> 10.0.0.2:443",
                "ended 1",
                "gap 2 10.0.0.1:50000 0+2",
                "ended 2",
            ])
        #expect(
            finish.contains(
                .gap(connectionID: 2, from: Self.client, streamOffset: 0, length: 2, timestamp: Traffic.time(4))))
        #expect(table.openConnectionCount == 0)
        #expect(table.finish() == [])
    }

    @Test func segmentsWithoutSYNOrPayloadOfAnUnknownConnectionAreIgnored() {
        var table = TCPConnectionTable()

        #expect(table.receive(Self.segment(Self.client, Self.server, 1)) == [])
        #expect(table.receive(Self.segment(Self.client, Self.server, 1, "", [.ack, .fin])) == [])
        #expect(table.receive(Self.segment(Self.client, Self.server, 1, "", .rst)) == [])
        #expect(table.openConnectionCount == 0)
    }
}
