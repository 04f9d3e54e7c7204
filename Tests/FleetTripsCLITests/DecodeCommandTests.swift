import FleetEngineTestSupport
import FleetEngineWire
import FleetTripsInput
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips decode")
struct DecodeCommandTests {
    @Test("prints a binary message as one compact JSON line")
    func raw() throws {
        let output = try CommandRunner.decode(["--type", Samples.tripType], input: Samples.trip)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n")
    }

    @Test("prints the .proto field names with --proto-names")
    func protoNames() throws {
        let output = try CommandRunner.decode(["--type", Samples.tripType, "--proto-names"], input: Samples.trip)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSONProtoNames + "\n")
    }

    @Test("indents the JSON with --pretty")
    func pretty() throws {
        let output = try CommandRunner.decode(["--type", Samples.tripType, "--pretty"], input: Samples.trip)
        #expect(
            String(decoding: output, as: UTF8.self) == """
                {
                  "name": "providers/p/trips/t1",
                  "vehicleId": "v1",
                  "tripStatus": "ENROUTE_TO_PICKUP",
                  "numberOfPassengers": 2
                }

                """)
    }

    @Test("fields the type does not define: the JSON without them, and a note on standard error saying where")
    func unknownFieldsNoted() throws {
        let input = Samples.trip + hexBytes("f80701")
        let (output, notices) = try CommandRunner.decodeWithNotices(["--type", Samples.tripType], input: input)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n")
        #expect(
            notices
                == "note: the input holds a field maps.fleetengine.v1.Trip does not define, which its JSON cannot "
                + "show: field 127 of maps.fleetengine.v1.Trip at byte 30\n")
    }

    @Test("in a gRPC stream, each message holding such fields gets its own note, naming at most three")
    func unknownFieldsNotedPerMessage() throws {
        let extra = Samples.trip + hexBytes("f80701f80702f80703f80704")
        let stream = grpcFramed(Samples.trip) + grpcFramed(extra)
        let (output, notices) = try CommandRunner.decodeWithNotices(
            ["--type", Samples.tripType, "--grpc-frames"], input: stream)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n" + Samples.tripJSON + "\n")
        #expect(
            notices
                == "note: message 2 (frame at stream offset 35) holds 4 fields maps.fleetengine.v1.Trip does not "
                + "define, which its JSON cannot show: field 127 of maps.fleetengine.v1.Trip at byte 30; field 127 of "
                + "maps.fleetengine.v1.Trip at byte 33; field 127 of maps.fleetengine.v1.Trip at byte 36; and 1 more\n")
    }

    @Test("an empty input is a message with every field at its default")
    func emptyInput() throws {
        #expect(try CommandRunner.decode(["--type", Samples.tripType], input: []) == Samples.text("{}\n"))
    }

    @Test(
        "reads base64 and hex input",
        arguments: [
            ["--base64"]: Samples.text(Samples.tripBase64 + "\n"),
            ["--hex"]: Samples.text("0A1470726f7669646572732f702f74726970732f7431\n1202763118025002"),
        ])
    func textForms(arguments: [String], input: [UInt8]) throws {
        let output = try CommandRunner.decode(["--type", Samples.tripType] + arguments, input: input)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n")
    }

    @Test("prints one line per message of a gRPC stream, the empty message included")
    func grpcFrames() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed([]) + grpcFramed(Samples.secondTrip)
        let output = try CommandRunner.decode(["--type", Samples.tripType, "--grpc-frames"], input: stream)
        #expect(
            String(decoding: output, as: UTF8.self)
                == Samples.tripJSON + "\n{}\n" + Samples.secondTripJSON + "\n")
    }

    @Test("reads a gRPC stream written as hex")
    func grpcFramesHex() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed(Samples.secondTrip)
        let hex = stream.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let output = try CommandRunner.decode(
            ["--type", Samples.tripType, "--grpc-frames", "--hex"], input: Samples.text(hex))
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n" + Samples.secondTripJSON + "\n")
    }

    @Test("decompresses gzip frames with --encoding gzip, leaving uncompressed frames as they are")
    func gzipFrames() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed(Samples.secondTripGzip, flag: 1)
        let output = try CommandRunner.decode(
            ["--type", Samples.tripType, "--grpc-frames", "--encoding", "gzip"], input: stream)
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n" + Samples.secondTripJSON + "\n")
    }

    @Test("decompresses deflate frames with --encoding deflate")
    func deflateFrames() throws {
        let stream = try GRPCMessageFramer(encoding: .deflate).frame(Samples.secondTrip)
        #expect(stream[0] == 1)
        let output = try CommandRunner.decode(
            ["--type", Samples.tripType, "--grpc-frames", "--encoding", "deflate"], input: stream)
        #expect(String(decoding: output, as: UTF8.self) == Samples.secondTripJSON + "\n")
    }

    @Test("a compressed frame without --encoding is an error that says what to pass")
    func compressedWithoutEncoding() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed(Samples.secondTripGzip, flag: 1)
        var output: [UInt8] = []
        var notices: [UInt8] = []
        let command = try #require(
            try CommandRunner.parse(["decode", "--type", Samples.tripType, "--grpc-frames"]) as? DecodeCommand)
        let error = try #require(throws: FleetTripsError(.invalidFraming)) {
            try command.run(input: stream, output: &output, notices: &notices)
        }
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n")
        let report = CommandRunner.report(for: error)
        #expect(
            report.message
                == "cannot read message 2 of the gRPC stream (pass --encoding gzip or --encoding deflate for "
                + "compressed messages): compressed without encoding: message of 44 bytes is flagged compressed, "
                + "but the grpc-encoding is identity (message at byte offset 35)")
        #expect(report.exitCode == 1)
    }

    @Test("a stream that ends inside a message prints the messages before it, then says what is missing")
    func truncatedStream() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed(Samples.secondTrip).dropLast(21)
        var output: [UInt8] = []
        var notices: [UInt8] = []
        let command = try #require(
            try CommandRunner.parse(["decode", "--type", Samples.tripType, "--grpc-frames"]) as? DecodeCommand)
        let error = try #require(throws: FleetTripsError(.invalidFraming)) {
            try command.run(input: stream, output: &output, notices: &notices)
        }
        #expect(String(decoding: output, as: UTF8.self) == Samples.tripJSON + "\n")
        #expect(
            CommandRunner.report(for: error).message
                == "cannot read message 2 of the gRPC stream: truncated message: stream ended after 3 of the "
                + "message's 24 bytes; 21 bytes are missing (message at byte offset 35)")
    }

    @Test("binary the codec refuses is an error naming the type and the codec's finding")
    func invalidBinary() throws {
        // Field 1 (name) claims 20 bytes, but only 2 follow.
        let input: [UInt8] = [0x0a, 0x14, 0x70, 0x72]
        let error = try #require(throws: FleetTripsError(.invalidMessage)) {
            try CommandRunner.decode(["--type", Samples.tripType], input: input)
        }
        let report = CommandRunner.report(for: error)
        #expect(report.message.hasPrefix("cannot decode the input as maps.fleetengine.v1.Trip: "))
        #expect(report.exitCode == 1)
        #expect(!report.message.contains("\n"))
    }

    @Test("a message in a stream that the codec refuses is named by its number and offset")
    func invalidBinaryInStream() throws {
        let stream = grpcFramed(Samples.trip) + grpcFramed([0x0a, 0x14, 0x70])
        let error = try #require(throws: FleetTripsError(.invalidMessage)) {
            try CommandRunner.decode(["--type", Samples.tripType, "--grpc-frames"], input: stream)
        }
        #expect(
            CommandRunner.report(for: error).message.hasPrefix(
                "cannot decode message 2 (frame at stream offset 35) as maps.fleetengine.v1.Trip: "))
    }

    @Test("invalid base64 is an error saying where")
    func invalidBase64() throws {
        let error = try #require(throws: FleetTripsError(.invalidInputText)) {
            try CommandRunner.decode(["--type", Samples.tripType, "--base64"], input: Samples.text("ChRw*"))
        }
        #expect(
            CommandRunner.report(for: error)
                == ("invalid input text: '*' at text offset 4 is not a base64 character", 1))
    }
}
