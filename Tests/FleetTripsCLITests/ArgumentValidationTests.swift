import FleetTripsInput
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips arguments")
struct ArgumentValidationTests {
    /// The message and exit status the executable reports for `arguments`, which must not parse.
    static func rejection(_ arguments: [String]) throws -> (message: String, exitCode: Int32) {
        do {
            _ = try CommandRunner.parse(arguments)
        } catch {
            return CommandRunner.report(for: error)
        }
        Issue.record("\(arguments) parsed")
        return ("", 0)
    }

    @Test("an unknown --type lists the close matches, best first")
    func unknownTypeSuggestions() throws {
        let report = try Self.rejection(["decode", "--type", "Trip"])
        #expect(
            report.message
                == "unknown message type 'Trip'; did you mean maps.fleetengine.v1.Trip, "
                + "maps.fleetengine.v1.TripAttribute, maps.fleetengine.v1.TripWaypoint, "
                + "maps.fleetengine.v1.CreateTripRequest, maps.fleetengine.v1.DeleteTripRequest? "
                + "(`fleettrips types` lists the known types)")
        #expect(report.exitCode == 64)
    }

    @Test("a misspelt full name suggests the name it is closest to")
    func misspeltType() throws {
        let report = try Self.rejection(["encode", "--type", "maps.fleetengine.v1.TripWaypiont"])
        #expect(
            report.message
                == "unknown message type 'maps.fleetengine.v1.TripWaypiont'; did you mean "
                + "maps.fleetengine.v1.TripWaypoint? (`fleettrips types` lists the known types)")
    }

    @Test("a name in another package suggests the type of that name first")
    func otherPackage() throws {
        let report = try Self.rejection(["decode", "--type", "maps.fleetengine.v2.trip"])
        #expect(
            report.message
                == "unknown message type 'maps.fleetengine.v2.trip'; did you mean maps.fleetengine.v1.Trip, "
                + "maps.fleetengine.v1.TripAttribute, maps.fleetengine.v1.TripWaypoint? "
                + "(`fleettrips types` lists the known types)")
    }

    @Test("a name like none of the types says where to find them")
    func unrelatedType() throws {
        let report = try Self.rejection(["decode", "--type", "qqqq"])
        #expect(report.message == "unknown message type 'qqqq'; `fleettrips types` lists the known types")
        #expect(report.exitCode == 64)
    }

    @Test("--type is required")
    func missingType() throws {
        let report = try Self.rejection(["decode"])
        #expect(report.message == "Missing expected argument '--type <message-type>'")
        #expect(report.exitCode == 64)
    }

    @Test("--encoding needs --grpc-frames")
    func encodingWithoutFrames() throws {
        let report = try Self.rejection(["decode", "--type", Samples.tripType, "--encoding", "gzip"])
        #expect(report.message == "--encoding applies only to --grpc-frames: single messages are never compressed")
        #expect(report.exitCode == 64)
    }

    @Test("--max-decoded-size must be a positive number of bytes", arguments: ["0", "-5"])
    func nonPositiveDecodedSize(size: String) throws {
        let report = try Self.rejection(["decode", "--type", Samples.tripType, "--max-decoded-size=\(size)"])
        #expect(report.message == "--max-decoded-size must be a positive number of bytes, not \(size)")
        #expect(report.exitCode == 64)
    }

    @Test("--encoding refuses compressions this tool does not implement")
    func unsupportedEncoding() throws {
        let report = try Self.rejection(["encode", "--type", Samples.tripType, "--grpc-frames", "--encoding", "snappy"])
        #expect(report.message == "unsupported --encoding 'snappy'; supported: identity, gzip, deflate")
    }

    @Test("--base64 and --hex exclude each other")
    func exclusiveForms() throws {
        let report = try Self.rejection(["decode", "--type", Samples.tripType, "--base64", "--hex"])
        #expect(report.message == "Value to be set with flag '--hex' had already been set with flag '--base64'")
        #expect(report.exitCode == 64)
    }

    @Test("the file argument defaults to standard input")
    func defaultFile() throws {
        let command = try #require(try CommandRunner.parse(["decode", "--type", Samples.tripType]) as? DecodeCommand)
        #expect(command.file == "-")
        #expect(InputFile(path: command.file).isStandardInput)
    }

    @Test("a missing input file is an error naming it")
    func missingFile() throws {
        let error = try #require(throws: FleetTripsError(.unreadableInput)) {
            try InputFile(path: "/nonexistent/trip.bin").readAll()
        }
        #expect(
            CommandRunner.report(for: error)
                == ("unreadable input: cannot open '/nonexistent/trip.bin': No such file or directory", 1))
    }

    @Test("types lists every message name, sorted, and filters by any-case text")
    func types() throws {
        let all = try #require(try CommandRunner.parse(["types"]) as? TypesCommand)
        let names = all.names()
        #expect(names == names.sorted())
        #expect(names.contains("maps.fleetengine.v1.Trip"))
        #expect(names.contains("google.rpc.Status"))
        let filtered = try #require(try CommandRunner.parse(["types", "WAYPOINT"]) as? TypesCommand)
        var output: [UInt8] = []
        try filtered.run(output: &output)
        #expect(String(decoding: output, as: UTF8.self) == "maps.fleetengine.v1.TripWaypoint\n")
    }
}
