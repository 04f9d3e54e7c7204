import ArgumentParser
import FleetEngineCapture
import FleetEngineWire
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips capture: JSON lines, summary and filters over a real capture")
struct CaptureCommandTests {
    /// tcpdump's capture of Google's TripServiceClient calling a grpcio server
    /// (Tests/FleetEngineCaptureTests/Fixtures, made by Scripts/make-capture-fixtures.py): 10 calls
    /// on one connection — GetTrip ×2, GetTrip NOT_FOUND, GetTrip INVALID_ARGUMENT, CreateTrip,
    /// UpdateTrip, SearchTrips, ReportBillableTrip, DeleteTrip, GetTrip NOT_FOUND.
    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetEngineCaptureTests/Fixtures/grpcio-tripservice.pcap").path

    static func run(_ arguments: [String]) throws -> [[String: Any]] {
        let command = try #require(try CommandRunner.parse(["capture"] + arguments) as? CaptureCommand)
        var output: [UInt8] = []
        try command.run(output: &output)
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("every message and every call end is one line with the contract's fields")
    func lines() throws {
        let lines = try Self.run([Self.capture])
        let messages = lines.filter { $0["message"] != nil }
        let ends = lines.filter { $0["status"] != nil }
        #expect(ends.count == 10)
        #expect(lines.allSatisfy { $0["problem"] == nil })
        for line in messages {
            #expect(line["connection"] is String)
            #expect(line["stream"] is Int)
            #expect(["request", "response"].contains(line["direction"] as? String))
            #expect((line["method"] as? String)?.hasPrefix("/maps.fleetengine.v1.TripService/") == true)
            let type = try #require(line["type"] as? String)
            #expect(type.hasPrefix("maps.fleetengine.v1.") || type == "google.protobuf.Empty")
        }
        let first = try #require(messages.first)
        #expect(first["type"] as? String == "maps.fleetengine.v1.GetTripRequest")
        #expect((first["message"] as? [String: Any])?["name"] as? String == "providers/test-project/trips/trip-small")
        let statuses = ends.compactMap { ($0["status"] as? [String: Any])?["name"] as? String }
        #expect(statuses == ["OK", "OK", "NOT_FOUND", "INVALID_ARGUMENT", "OK", "OK", "OK", "OK", "OK", "NOT_FOUND"])
        let failed = try #require(ends.first { $0["error"] != nil })
        #expect((failed["error"] as? [String: Any])?["code"] as? Int == 5)
    }

    @Test("every member a line can have is named by the command's help and by the README's contract")
    func documentedMembers() throws {
        // A request whose bytes do not decode as GetTripRequest, on a stream without headers.
        let message: [UInt8] = [0, 0, 0, 0, 2, 0x0a, 0xff]
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        bytes += [0, 0, UInt8(message.count), 0, 1, 0, 0, 0, 1] + message
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("undecodable-\(UUID()).h2").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines =
            try Self.run([Self.capture])
            + Self.run(["--h2", "--method", "/maps.fleetengine.v1.TripService/GetTrip", path])
        let members = Set(lines.flatMap(\.keys))
        #expect(members.contains("decodingError"))
        #expect(members.contains("requestMessages"))
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"),
            encoding: .utf8)
        let contract = try #require(readme.components(separatedBy: "### Decoding captured traffic").last)
        let help = CaptureCommand.configuration.discussion
        for member in members.sorted() {
            #expect(help.contains(member), "the help does not name \(member)")
            #expect(contract.contains(member), "the README does not name \(member)")
        }
    }

    @Test("--summary: calls per method with their statuses and latency")
    func summary() throws {
        let lines = try Self.run(["--summary", Self.capture])
        #expect(lines.count == 1)
        let methods = try #require(lines[0]["methods"] as? [[String: Any]])
        let getTrip = try #require(
            methods.first { $0["method"] as? String == "/maps.fleetengine.v1.TripService/GetTrip" })
        #expect(getTrip["calls"] as? Int == 5)
        let statuses = try #require(getTrip["statuses"] as? [[String: Any]])
        #expect(statuses.map { $0["name"] as? String } == ["INVALID_ARGUMENT", "NOT_FOUND", "OK"])
        #expect(statuses.map { $0["calls"] as? Int } == [1, 2, 2])
        #expect((getTrip["latencyMicros"] as? [String: Any])?["max"] is Int)
        #expect(methods.count == 6)
        #expect(lines[0]["problems"] as? Int == 0)
    }

    @Test("--only-method and --status keep the matching calls whole, and nothing else")
    func methodAndStatusFilters() throws {
        let lines = try Self.run(["--only-method", "GetTrip", "--status", "NOT_FOUND", Self.capture])
        let ends = lines.filter { $0["status"] != nil }
        #expect(ends.count == 2)
        let requests = lines.filter { $0["direction"] as? String == "request" }
        #expect(requests.count == 2)
        #expect(lines.count == 4)
    }

    @Test(
        "--trip keeps the calls whose messages name the trip, by name or by id",
        arguments: ["providers/test-project/trips/captured", "captured"])
    func tripFilter(trip: String) throws {
        let lines = try Self.run(["--trip", trip, Self.capture])
        let methods = lines.filter { $0["status"] != nil }.compactMap {
            ($0["method"] as? String)?.split(separator: "/").last
        }
        #expect(methods == ["CreateTrip", "UpdateTrip", "ReportBillableTrip", "DeleteTrip", "GetTrip"])
    }

    @Test(
        "--trip with a prefix of a trip id, or of a name, keeps nothing",
        arguments: ["capture", "providers/test-project/trips/c"])
    func tripFilterPrefix(trip: String) throws {
        #expect(try Self.run(["--trip", trip, Self.capture]).isEmpty)
    }

    @Test("--follow with an idle limit reads the same lines from a finished file")
    func follow() throws {
        let plain = try Self.run([Self.capture])
        let followed = try Self.run(["--follow", "--follow-idle-seconds", "0.2", Self.capture])
        #expect(followed.count == plain.count)
    }

    @Test("a file that is not a capture: a typed error naming the problem and the offset")
    func notACapture() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-capture-\(UUID()).txt").path
        try Data("hello, this is text".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try #require(try CommandRunner.parse(["capture", path]) as? CaptureCommand)
        var output: [UInt8] = []
        #expect(throws: CaptureError(.notACapture)) { try command.run(output: &output) }
        #expect(output.isEmpty)
    }

    @Test("--max-open-call-mib bounds the calls left open: the oldest past it are given up, each a problem line")
    func maxOpenCalls() throws {
        // Raw HTTP/2 from a client: the preface, SETTINGS, then 2,000 DATA frames, each on a new
        // stream and each a message prefix whose message never comes; no call ends.
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        for index in 0..<2_000 {
            let streamID = UInt32(1 + 2 * index)
            bytes += [0, 0, 5, 0, 0] + withUnsafeBytes(of: streamID.bigEndian, Array.init) + [0, 0, 0, 0, 100]
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-calls-\(UUID()).h2").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // Each call is charged 1 KiB and the buffer its five bytes wait in; 1 MiB holds about a
        // thousand such calls, the default (64 MiB) all of them.
        var deframer = GRPCMessageDeframer()
        deframer.append([0, 0, 0, 0, 100])
        let keptOpen = (1 << 20) / (1_024 + deframer.bufferCapacity)
        #expect((900..<1_024).contains(keptOpen))
        let bounded = try Self.run(["--h2", "--max-open-call-mib", "1", path])
        let problems = bounded.compactMap { $0["problem"] as? [String: Any] }
        #expect(problems.count == 2_000 - keptOpen)
        #expect(problems.allSatisfy { $0["code"] as? String == "too many open calls" })
        #expect(bounded.filter { $0["status"] != nil }.count == 2_000)
        let unbounded = try Self.run(["--h2", path])
        #expect(unbounded.allSatisfy { $0["problem"] == nil })
        #expect(unbounded.filter { $0["status"] != nil }.count == 2_000)
        #expect(throws: (any Error).self) { try CommandRunner.parse(["capture", "--max-open-call-mib", "0", path]) }
    }

    /// A raw-IP pcap of `connections` HTTP/2 connections to port 50051 whose clients each send
    /// the preface, an empty SETTINGS and the first `sentBytes` of one DATA frame of 4 MB, in
    /// 60,000-byte segments that take turns across the connections. (No checksums: the decoder
    /// does not check them.)
    static func partialFramesCapture(connections: Int, sentBytes: Int) -> [UInt8] {
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        func littleEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        var file = littleEndian(0xA1B2_C3D4) + [2, 0, 4, 0] + [UInt8](repeating: 0, count: 8)
        file += littleEndian(65_535) + littleEndian(101)
        var packets = 0
        func packet(connection: Int, sequence: UInt32, flags: UInt8, payload: ArraySlice<UInt8>) {
            let tcp =
                bigEndian(UInt16(40_000)) + bigEndian(UInt16(50_051)) + bigEndian(sequence) + bigEndian(UInt32(0))
                + [0x50, flags] + bigEndian(UInt16(65_535)) + [0, 0, 0, 0] + payload
            let ip =
                [0x45, 0] + bigEndian(UInt16(20 + tcp.count)) + [0, 0, 0, 0, 64, 6, 0, 0]
                + [10, 0, UInt8(connection >> 8), UInt8(connection & 0xFF), 10, 1, 0, 1] + tcp
            packets += 1
            file += littleEndian(1_700_000_000) + littleEndian(UInt32(packets))
            file += littleEndian(UInt32(ip.count)) + littleEndian(UInt32(ip.count)) + ip
        }
        let frameLength = 4_000_000
        var stream = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        stream += [UInt8(frameLength >> 16), UInt8(frameLength >> 8 & 0xFF), UInt8(frameLength & 0xFF), 0, 0]
        stream += bigEndian(UInt32(1)) + [UInt8](repeating: 0x2A, count: sentBytes)
        for connection in 0..<connections { packet(connection: connection, sequence: 999, flags: 0x02, payload: []) }
        for offset in stride(from: 0, to: stream.count, by: 60_000) {
            for connection in 0..<connections {
                let end = min(offset + 60_000, stream.count)
                packet(
                    connection: connection, sequence: UInt32(1_000 + offset), flags: 0x18, payload: stream[offset..<end]
                )
            }
        }
        return file
    }

    @Test(
        "--max-partial-frame-mib bounds the frames still arriving: the largest past it are given up, each a problem line"
    )
    func maxPartialFrames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID()).pcap").path
        try Data(Self.partialFramesCapture(connections: 4, sentBytes: 1_500_000)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // Four frames of 1.5 MB held at once need more than 4 MiB, and less than the default.
        let bounded = try Self.run(["--max-partial-frame-mib", "4", path])
        let givenUp = bounded.compactMap { $0["problem"] as? [String: Any] }.filter {
            $0["code"] as? String == "too many open calls"
        }
        #expect((1..<4).contains(givenUp.count))
        #expect(
            givenUp.allSatisfy {
                ($0["message"] as? String)?.contains("the frames still arriving held more than 4194304 bytes") == true
            })
        // The others reach the end of the capture inside their frames, and say so.
        let cut = bounded.compactMap { $0["problem"] as? [String: Any] }.filter {
            ($0["message"] as? String)?.hasPrefix("the sender's bytes end inside the DATA frame of 4000000 bytes")
                == true
        }
        #expect(cut.count == 4 - givenUp.count)
        let unbounded = try Self.run([path])
        #expect(!unbounded.contains { ($0["problem"] as? [String: Any])?["code"] as? String == "too many open calls" })
        #expect(throws: (any Error).self) {
            try CommandRunner.parse(["capture", "--max-partial-frame-mib", "0", path])
        }
    }
}
