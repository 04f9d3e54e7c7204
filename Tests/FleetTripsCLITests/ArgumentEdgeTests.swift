import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips at the edges: numbers past what they fit, status spellings, hosts, token commands, big inputs")
struct ArgumentEdgeTests {
    @Test(
        "capture refuses a --follow-idle-seconds that is not a number of seconds up to a day",
        arguments: ["nan", "inf", "1e300", "86401"])
    func followIdleSeconds(value: String) throws {
        let report = try ArgumentValidationTests.rejection([
            "capture", "--follow", "--follow-idle-seconds", value, CaptureCommandTests.capture,
        ])
        #expect(report.message == "--follow-idle-seconds must be a number of seconds from 0 to 86400")
        #expect(report.exitCode == 64)
    }

    @Test(
        "capture refuses follow options it would ignore: an idle limit without --follow, --follow with two files",
        arguments: [
            (["--follow-idle-seconds", "5"], "--follow-idle-seconds needs --follow"),
            (
                ["--h2", "--follow", "server.bin"],
                "--follow reads one growing file; with two --h2 files, give the finished files"
            ),
        ])
    func ignoredFollowOptions(options: [String], message: String) throws {
        let report = try ArgumentValidationTests.rejection(["capture", CaptureCommandTests.capture] + options)
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("capture --h2 refuses standard input for both directions: the second would read nothing")
    func bothDirectionsFromStandardInput() throws {
        let report = try ArgumentValidationTests.rejection(["capture", "--h2", "-", "-"])
        #expect(
            report.message
                == "standard input can hold one direction's bytes only; give the other direction as a file")
        #expect(report.exitCode == 64)
    }

    @Test(
        "capture refuses an empty --trip, --only-method or --method, which would match empty fields or nothing",
        arguments: [
            ("--trip", "--trip needs a trip name or id"),
            ("--only-method", "--only-method needs a method: a :path or a name such as GetTrip"),
            ("--method", "--method needs a :path, such as /maps.fleetengine.v1.TripService/GetTrip"),
        ])
    func emptyCaptureFilters(option: String, message: String) throws {
        let report = try ArgumentValidationTests.rejection(["capture", option, "", CaptureCommandTests.capture])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("serve refuses a --qps outside 0.001 to 1,000,000 calls a second", arguments: ["1e-300", "inf", "0"])
    func qpsRange(value: String) throws {
        let report = try ArgumentValidationTests.rejection(["serve", "--no-auth", "--qps", value])
        #expect(report.message == "--qps must be a number of calls per second from 0.001 to 1000000")
        #expect(report.exitCode == 64)
    }

    @Test("token refuses a --lifetime past ten years, whose expiry a date may not hold")
    func hugeLifetime() throws {
        let report = try ArgumentValidationTests.rejection([
            "token", "--jwt-secret", "a-local-secret-that-is-32-bytes!", "--server", "--lifetime",
            "9223372036854775807",
        ])
        #expect(report.message == "--lifetime must be from 1 to 316224000 seconds (10 years)")
        #expect(report.exitCode == 64)
    }

    @Test("capture --status takes what `fleettrips status` takes, and refuses a name no code has")
    func statusSpellings() throws {
        let canonical = try CaptureCommandTests.run(["--status", "NOT_FOUND", CaptureCommandTests.capture])
        #expect(!canonical.isEmpty)
        for spelling in ["not-found", "not_found", "5", "05"] {
            let lines = try CaptureCommandTests.run(["--status", spelling, CaptureCommandTests.capture])
            #expect(lines.count == canonical.count, "\(spelling)")
        }
        let report = try ArgumentValidationTests.rejection(["capture", "--status", "NOT_FUOND"])
        #expect(report.message == "'NOT_FUOND' is not a status code; did you mean NOT_FOUND?")
        #expect(report.exitCode == 64)
    }

    @Test(
        "an --endpoint host with a character no host has is a usage error naming --endpoint",
        arguments: [("host with space:1", " "), ("ünicode:1", "ü"), ("a/b:1", "/")])
    func badEndpointHost(endpoint: String, character: String) throws {
        let report = try ArgumentValidationTests.rejection([
            "get", "providers/p/trips/t", "--endpoint", endpoint, "--plaintext",
        ])
        #expect(
            report.message
                == "--endpoint '\(endpoint)': '\(character)' cannot be in a host; give a DNS name or an IP address, "
                + "e.g. fleetengine.googleapis.com:443")
        #expect(report.exitCode == 64)
    }

    @Test(
        "hosts that are names or addresses still parse",
        arguments: ["fleet-engine.example_1.test:8443", "[fe80::1%25eth0]:1"])
    func goodEndpointHost(endpoint: String) throws {
        _ = try CommandRunner.parse(["get", "providers/p/trips/t", "--endpoint", endpoint, "--plaintext"])
    }

    @Test("a --token-command still running at the deadline is sent SIGTERM, which it can act on")
    func hangingTokenCommandIsTerminated() async throws {
        let marker = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-term-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let result = try await ClientCommandTests.call(
                [
                    "get", ClientCommandTests.name("t-1"), "--json", "--deadline", "0.5",
                    "--token-command", "trap 'touch \(marker); exit 1' TERM; sleep 30 & wait",
                ] + ClientCommandTests.connection(try await emulator.listeningPort()))
            let code = try #require(try ClientCommandTests.errorObject(result.errorOutput)["code"] as? Int)
            #expect(result.exitCode == 64 + Int32(code))
            // The shell runs its trap once `wait` is interrupted.
            #expect(
                await waitUntil { FileManager.default.fileExists(atPath: marker) },
                "the token command never ran its SIGTERM trap")
        }
    }

    @Test("decode refuses an input longer than one message can be after reading just past the limit")
    func oversizedSingleMessage() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-big-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x08, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile(path: path).readAll(atMost: 1_000).count == 1_001)
        for form in [BinaryForm.raw, .hex] {
            let decoder = MessageDecoder(
                messageType: Trip.self, inputForm: form, decodingOptions: DecodingOptions(maxMessageSize: 1_000))
            var output: [UInt8] = []
            var notices: [UInt8] = []
            let error = try #require(throws: FleetTripsError.self) {
                try decoder.run(file: InputFile(path: path), output: &output, notices: &notices)
            }
            let limit = form == .raw ? 1_000 : 69_536
            #expect(
                error.message
                    == "'\(path)' is over \(limit) bytes, more than one maps.fleetengine.v1.Trip of at most 1000 bytes "
                    + "can take as \(form.rawValue) input")
            #expect(output.isEmpty)
        }
    }
}
