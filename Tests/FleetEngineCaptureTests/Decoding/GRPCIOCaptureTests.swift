import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

/// Real captures: tcpdump on loopback while Google's TripServiceClient (google-maps-fleetengine on
/// grpcio) called every TripService method of a grpcio server built on Google's published types,
/// and of our emulator (grpc-swift-2's server) (`Scripts/make-capture-fixtures.py`). What each call
/// sent and got back was written next to it by Google's `json_format`, so every decoded message is
/// checked against a stack we did not write.
@Suite(
    "tcpdump captures of Google's client with grpcio and with the emulator: every message and status as Google's stack saw it"
)
struct GRPCIOCaptureTests {
    struct Expected {
        var method: String
        var request: any ProtobufMessage
        var response: (any ProtobufMessage)?
        var code: String?
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
        return try [UInt8](Data(contentsOf: url))
    }

    /// The calls recorded beside a capture: `NAME.pcap` or `NAME.pcapng` has `NAME.expected.jsonl`.
    static func expectedCalls(for capture: String) throws -> [Expected] {
        let name = capture.split(separator: ".").first.map(String.init) ?? capture
        let text = String(decoding: try fixture(name + ".expected.jsonl"), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let method = try #require(object["method"] as? String)
            let types = try #require(TripServiceSchema.messageTypes(forPath: method))
            func parse(_ value: Any?, as type: any ProtobufMessage.Type) throws -> any ProtobufMessage {
                let json = try JSONSerialization.data(withJSONObject: try #require(value))
                return try type.init(jsonUTF8Bytes: [UInt8](json), options: JSONDecodingOptions())
            }
            return Expected(
                method: method, request: try parse(object["request"], as: types.request),
                response: try object["response"].map { try parse($0, as: types.response) },
                code: object["code"] as? String)
        }
    }

    static func same(_ one: (any ProtobufMessage)?, _ other: (any ProtobufMessage)?) -> Bool {
        one.map { AnyHashable($0) } == other.map { AnyHashable($0) }
    }

    /// Decodes `bytes` handed over `chunkSize` bytes at a time, then finishes.
    static func decode(
        _ bytes: [UInt8], chunkSize: Int, options: CaptureOptions = CaptureOptions()
    ) throws -> [CaptureRecord] {
        var decoder = CaptureDecoder(options: options)
        var records: [CaptureRecord] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            records += try decoder.decode(bytes[start..<end])
            start = end
        }
        return records + (try decoder.finish())
    }

    @Test(
        "every call's request, response and status equal what Google's client sent and got",
        arguments: ["grpcio-tripservice.pcap", "grpcio-tripservice.pcapng", "emulator-tripservice.pcapng"],
        [1 << 20, 1_000, 7])
    func everyCall(file: String, chunkSize: Int) throws {
        let records = try Self.decode(try Self.fixture(file), chunkSize: chunkSize)
        #expect(records.problems.isEmpty, "\(records.problems.map(\.error))")
        let expected = try Self.expectedCalls(for: file)
        let ends = records.callEnds
        #expect(ends.count == expected.count)
        for (end, call) in zip(ends, expected) {
            #expect(end.method == call.method)
            #expect(!end.methodInferred)
            let messages = records.messages.filter { $0.streamID == end.streamID && $0.connection == end.connection }
            let request = messages.first { $0.direction == .request }
            #expect(Self.same(request?.message, call.request), "\(call.method)")
            let response = messages.first { $0.direction == .response }
            if let code = call.code {
                #expect(end.status.code.name == code)
                #expect(response == nil)
                #expect(end.status.statusDetailsProblem == nil)
            } else {
                #expect(end.status.code == .ok)
                #expect(Self.same(response?.message, call.response), "\(call.method)")
            }
            #expect(end.connection.client?.port != 0)
            #expect((end.latencyNanoseconds ?? -1) >= 0)
        }
    }

    @Test("the failures carry grpcio's status details, decoded")
    func statusDetails() throws {
        let ends = try Self.decode(try Self.fixture("grpcio-tripservice.pcap"), chunkSize: 1 << 16).callEnds
        let notFound = try #require(
            ends.first { $0.status.code == .notFound && $0.status.message.contains("error-not-found") })
        // ErrorInfo, LocalizedMessage and Help, in that order (grpcio_trip_server.py's contract).
        #expect(notFound.status.details.count == 3)
        let invalid = try #require(ends.first { $0.status.code == .invalidArgument })
        #expect(invalid.status.details.count == 2)
    }
}
