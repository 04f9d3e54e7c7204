import FleetEngineCapture
import Testing

/// RFC 9293 section 3.10.7.4: a RST aborts the connection at the endpoint that receives it;
/// segments the other endpoint sent before that are still on the wire, and a capture taken at
/// the endpoint that reset holds them. They are reported, not dropped without a word.
@Suite("TCP: bytes in flight after a RST are reported as passed over")
struct TCPResetInFlightTests {
    typealias Table = TCPConnectionTableTests
    static let (client, server) = (Table.client, Table.server)

    /// What the table makes of `segments`, in short.
    static func log(_ segments: [TCPSegment]) -> [String] {
        var table = TCPConnectionTable()
        var summary = Table.Summary()
        for segment in segments { summary.read(table.receive(segment)) }
        summary.read(table.finish())
        return summary.log
    }

    @Test("the server's bytes after the client's RST: the new ones are reported, a retransmission is not")
    func newBytesAfterResetAreReported() {
        let log = Self.log([
            Table.segment(Self.client, Self.server, 100, "", .syn),
            Table.segment(Self.server, Self.client, 900, "", [.syn, .ack]),
            Table.segment(Self.client, Self.server, 101, "GET /a"),
            Table.segment(Self.server, Self.client, 901, "abc"),
            Table.segment(Self.client, Self.server, 107, "", .rst),
            // A retransmission of "abc", delivered already; then "defg", in flight.
            Table.segment(Self.server, Self.client, 901, "abc"),
            Table.segment(Self.server, Self.client, 904, "defg"),
            // Overlapping what was reported: only the two bytes past it count.
            Table.segment(Self.server, Self.client, 906, "fghi"),
        ])
        #expect(
            Array(log.dropFirst()) == [
                "closed 1 \(Self.client) reset", "ended 1",
                "passed over 1 \(Self.server) 4 after reset by \(Self.client)",
                "passed over 1 \(Self.server) 2 after reset by \(Self.client)",
            ])
    }

    @Test("a SYN on the endpoints of a reset connection opens a new one: its bytes are read, not passed over")
    func newConnectionAfterResetIsRead() {
        let log = Self.log([
            Table.segment(Self.client, Self.server, 100, "", .syn),
            Table.segment(Self.client, Self.server, 101, "GET /a"),
            Table.segment(Self.server, Self.client, 901, "", .rst),
            Table.segment(Self.client, Self.server, 5000, "", .syn),
            Table.segment(Self.client, Self.server, 5001, "GET /b"),
        ])
        #expect(!log.contains { $0.hasPrefix("passed over") })
        #expect(log.filter { $0.hasPrefix("opened") }.count == 2)
    }
}
