import FleetEngineTestSupport
import FleetEngineWire
import FleetTripsInput
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips encode")
struct EncodeCommandTests {
    @Test("writes a JSON message as raw binary")
    func raw() throws {
        #expect(
            try CommandRunner.encode(["--type", Samples.tripType], input: Samples.text(Samples.tripJSON))
                == Samples.trip)
    }

    @Test("reads JSON spread over several lines and in .proto field names")
    func multilineJSON() throws {
        let json = """
            {
              "name": "providers/p/trips/t1",
              "vehicle_id": "v1",
              "tripStatus": "ENROUTE_TO_PICKUP",
              "number_of_passengers": 2
            }
            """
        #expect(try CommandRunner.encode(["--type", Samples.tripType], input: Samples.text(json)) == Samples.trip)
    }

    @Test("writes base64 and hex on a line of their own")
    func textForms() throws {
        let base64 = try CommandRunner.encode(
            ["--type", Samples.tripType, "--base64"], input: Samples.text(Samples.tripJSON))
        #expect(String(decoding: base64, as: UTF8.self) == Samples.tripBase64 + "\n")
        let hex = try CommandRunner.encode(
            ["--type", Samples.tripType, "--hex"], input: Samples.text(Samples.tripJSON))
        #expect(
            String(decoding: hex, as: UTF8.self) == "0a1470726f7669646572732f702f74726970732f74311202763118025002\n")
    }

    @Test("writes one gRPC frame per JSON line, skipping blank lines")
    func grpcFrames() throws {
        let lines = Samples.tripJSON + "\r\n\n  \n{}\n" + Samples.secondTripJSON + "\n"
        let output = try CommandRunner.encode(
            ["--type", Samples.tripType, "--grpc-frames"], input: Samples.text(lines))
        #expect(output == grpcFramed(Samples.trip) + grpcFramed([]) + grpcFramed(Samples.secondTrip))
    }

    @Test("compresses every frame with --encoding gzip")
    func gzipFrames() throws {
        let lines = Samples.tripJSON + "\n" + Samples.secondTripJSON
        let output = try CommandRunner.encode(
            ["--type", Samples.tripType, "--grpc-frames", "--encoding", "gzip"], input: Samples.text(lines))
        var deframer = GRPCMessageDeframer(encoding: .gzip)
        deframer.append(output)
        var messages: [GRPCMessage] = []
        while let message = try deframer.next() { messages.append(message) }
        try deframer.finish()
        #expect(messages.map(\.isCompressed) == [true, true])
        #expect(try messages.map { try $0.decompressedPayload(encoding: .gzip) } == [Samples.trip, Samples.secondTrip])
    }

    @Test(
        "decode reads back what encode writes, through every form and framing",
        arguments: [
            [], ["--base64"], ["--hex"], ["--grpc-frames"], ["--grpc-frames", "--base64"],
            ["--grpc-frames", "--encoding", "deflate"], ["--grpc-frames", "--hex", "--encoding", "gzip"],
        ])
    func roundTrip(arguments: [String]) throws {
        let json = Samples.tripJSON + "\n"
        let binary = try CommandRunner.encode(["--type", Samples.tripType] + arguments, input: Samples.text(json))
        let back = try CommandRunner.decode(["--type", Samples.tripType] + arguments, input: binary)
        #expect(String(decoding: back, as: UTF8.self) == json)
    }

    @Test("JSON the codec refuses is an error naming the line, and nothing is written")
    func invalidJSONLine() throws {
        let lines = Samples.tripJSON + "\n" + #"{"tripStatus": 12.5}"# + "\n"
        var output: [UInt8] = []
        let command = try #require(
            try CommandRunner.parse(["encode", "--type", Samples.tripType, "--grpc-frames"]) as? EncodeCommand)
        let error = try #require(throws: FleetTripsError(.invalidMessage)) {
            try command.run(input: Samples.text(lines), output: &output)
        }
        #expect(output.isEmpty)
        let report = CommandRunner.report(for: error)
        #expect(report.message.hasPrefix("cannot parse line 2 as maps.fleetengine.v1.Trip JSON: "))
        #expect(report.exitCode == 1)
    }

    @Test("an input past what one message's JSON may be is refused after reading just past it: /dev/zero ends")
    func endlessInput() throws {
        let command = try #require(try CommandRunner.parse(["encode", "--type", Samples.tripType]) as? EncodeCommand)
        let encoder = try command.makeEncoder()
        #expect(encoder.inputLimit == 64 << 20)
        var output: [UInt8] = []
        let error = try #require(throws: FleetTripsError(.invalidMessage)) {
            try encoder.run(file: InputFile(path: "/dev/zero"), output: &output)
        }
        #expect(output.isEmpty)
        #expect(
            CommandRunner.report(for: error).message
                == "invalid message: '/dev/zero' is over 67108864 bytes, more than one message's JSON may be")
        let frames = try #require(
            try CommandRunner.parse(["encode", "--type", Samples.tripType, "--grpc-frames"]) as? EncodeCommand)
        #expect(try frames.makeEncoder().inputLimit == 1 << 30)
    }

    @Test("an unknown JSON member is an error unless --ignore-unknown-fields")
    func unknownField() throws {
        let json = Samples.text(#"{"name": "providers/p/trips/t2", "tripStatus": "COMPLETE", "colour": "red"}"#)
        #expect(throws: FleetTripsError(.invalidMessage)) {
            try CommandRunner.encode(["--type", Samples.tripType], input: json)
        }
        #expect(
            try CommandRunner.encode(["--type", Samples.tripType, "--ignore-unknown-fields"], input: json)
                == Samples.secondTrip)
    }
}
