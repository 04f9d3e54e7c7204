import FleetEngineCapture
import Foundation
import Testing

/// Captures written by tcpdump and editcap, checked against what tshark printed for them (see
/// Fixtures/README-loopback-captures.md).
@Suite("CaptureFileReader and PacketDecoder on real captures")
struct RealCaptureTests {
    struct Fixture: CustomTestStringConvertible, Sendable {
        var name: String
        var format: CaptureFileReader.Format
        var linkType: LinkType
        var packetCount: Int
        var testDescription: String { name }
    }

    static let fixtures = [
        Fixture(
            name: "loopback.pcap", format: .pcap(nanosecond: false, bigEndian: false), linkType: .ethernet,
            packetCount: 29),
        Fixture(name: "loopback.pcapng", format: .pcapng, linkType: .ethernet, packetCount: 29),
        Fixture(
            name: "loopback-nanosecond.pcap", format: .pcap(nanosecond: true, bigEndian: false), linkType: .ethernet,
            packetCount: 29),
        Fixture(
            name: "loopback-sll2.pcap", format: .pcap(nanosecond: false, bigEndian: false), linkType: .linuxSLL2,
            packetCount: 14),
    ]

    static func contents(of name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try [UInt8](Data(contentsOf: url))
    }

    @Test("each packet's timestamp, ports, sequence number and payload length match tshark's", arguments: fixtures)
    func matchesTShark(fixture: Fixture) throws {
        let bytes = try Self.contents(of: fixture.name)
        let expected = String(decoding: try Self.contents(of: fixture.name + ".tshark.tsv"), as: UTF8.self)
            .split(separator: "\n")
            .map { $0.split(separator: "\t").map(String.init) }

        var reader = CaptureFileReader()
        reader.append(bytes)
        var rows: [[String]] = []
        while let packet = try reader.nextPacket() {
            #expect(packet.linkType == fixture.linkType)
            let segment = try #require(try PacketDecoder.tcpSegment(in: packet))
            rows.append([
                segment.timestamp.description, String(segment.source.port), String(segment.destination.port),
                String(segment.sequenceNumber), String(segment.payload.count),
            ])
            #expect(segment.source.address.description == "127.0.0.1")
            #expect(segment.byteOffset + Int64(segment.payload.count) <= packet.byteOffset + Int64(packet.bytes.count))
        }
        try reader.finish()
        #expect(reader.format == fixture.format)
        #expect(rows.count == fixture.packetCount)
        #expect(rows == expected)
    }

    @Test("the three forms of the same capture give the same segments")
    func conversionsAgree() throws {
        func payloads(_ name: String) throws -> [[UInt8]] {
            try CaptureReaderHarness.packets(in: try Self.contents(of: name)).compactMap {
                packet throws(CaptureError) in
                try PacketDecoder.tcpSegment(in: packet).map { Array($0.payload) }
            }
        }
        let pcap = try payloads("loopback.pcap")
        let payloadBytes = pcap.map(\.count).reduce(0, +)
        // Six requests of 700 to 1450 bytes, each echoed back.
        #expect(payloadBytes == 2 * 6_450)
        #expect(try payloads("loopback.pcapng") == pcap)
        #expect(try payloads("loopback-nanosecond.pcap") == pcap)
    }
}
