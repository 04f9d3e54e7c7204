import ArgumentParser
import FleetEngineEmulator
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("--web and its options")
struct WebOptionTests {
    @Test(
        "--web takes a port, host:port or [IPv6]:port, on 127.0.0.1 when no host is given",
        arguments: [
            ("8080", "127.0.0.1", 8080), ("0", "127.0.0.1", 0), ("0.0.0.0:80", "0.0.0.0", 80),
            ("localhost:0", "localhost", 0), ("[::1]:65535", "::1", 65535),
        ])
    func addresses(_ web: String, _ host: String, _ port: Int) throws {
        let command = try #require(
            try CommandRunner.parse(["follow", "providers/p/trips/t", "--web", web]) as? FollowCommand)
        let address = try #require(try command.webOptions.address())
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test(
        "a --web address without a port, or with one out of range, is a usage error naming --web",
        arguments: [
            ("65536", "--web '65536': the port must be 0 to 65535"),
            ("host", "--web 'host' has no port; give [host:]port, e.g. 127.0.0.1:8080"),
            ("host:", "--web 'host:': the port must be 0 to 65535"),
            ("host:8o", "--web 'host:8o': the port must be 0 to 65535"),
            (
                "a b:80",
                "--web 'a b:80': ' ' cannot be in a host; give a DNS name or an IP address, e.g. fleetengine.googleapis.com:443"
            ),
        ])
    func badAddresses(_ web: String, _ message: String) throws {
        let report = try ArgumentValidationTests.rejection(["follow", "providers/p/trips/t", "--web", web])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test(
        "the options of --web need it, and --web prints no events to shape",
        arguments: [
            (["--tiles", "https://t.test/{z}/{x}/{y}.png"], "--tiles needs --web"),
            (["--allow-remote"], "--allow-remote needs --web"),
            (["--share-secret-file", "/nonexistent"], "--share-secret-file needs --web"),
            (
                ["--web", "0", "--human"],
                "--web serves pages instead of printing events: leave out --progress and --human"
            ),
            (
                ["--web", "0", "--tiles", "https://t.test/{z}/{x}.png"],
                "--tiles must be an http(s) URL with {z}, {x} and {y} in it (not 'https://t.test/{z}/{x}.png')"
            ),
            (
                ["--web", "0", "--share-expiry", "0"],
                "--share-expiry must be a positive number of seconds, at most a year"
            ),
            (
                ["--web", "0", "--tiles", "https://{s}.t.test/{z}/{x}/{y}.png"],
                "--tiles 'https://{s}.t.test/{z}/{x}/{y}.png': the host must be written out (no {s} or other "
                    + "placeholder in it), so that the page may load images from it and from nowhere else"
            ),
        ])
    func optionsNeedWeb(_ options: [String], _ message: String) throws {
        let report = try ArgumentValidationTests.rejection(["follow", "providers/p/trips/t"] + options)
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("a share secret is read from its file without its trailing new line, and one too short is refused unseen")
    func shareSecretFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("web-options-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good").path
        let short = directory.appendingPathComponent("short").path
        try Data((String(repeating: "s", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: good))
        try Data((String(repeating: "t", count: 31) + "\n\n").utf8).write(to: URL(fileURLWithPath: short))

        let command = try #require(
            try CommandRunner.parse(["follow", "providers/p/trips/t", "--web", "0", "--share-secret-file", good])
                as? FollowCommand)
        #expect(try command.webOptions.pagesOptions().shareLinks != nil)

        let refused = try #require(
            try CommandRunner.parse(["follow", "providers/p/trips/t", "--web", "0", "--share-secret-file", short])
                as? FollowCommand)
        do {
            _ = try refused.webOptions.pagesOptions()
            Issue.record("a 31-byte secret was accepted")
        } catch let error as ValidationError {
            #expect(
                error.message
                    == "--share-secret-file \(short): a share-link secret must have at least 32 bytes; this one has 31")
            #expect(!error.message.contains("ttt"))
        }
    }
}

@Suite("fleettrips follow --web")
struct FollowWebTests {
    @Test("a --web port that is taken ends follow with the tool's own failure naming it, not a gRPC status")
    func takenPortIsTheToolsFailure() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            // The emulator's own port is taken.
            let port = try await emulator.listeningPort()
            let command = try #require(
                try CommandRunner.parse(
                    ["follow", "providers/p/trips/t", "--web", "127.0.0.1:\(port)"]
                        + ClientCommandTests.connection(port)) as? FollowCommand)
            var output: [UInt8] = []
            var errorOutput: [UInt8] = []
            do {
                try await command.run(output: &output, errorOutput: &errorOutput)
                Issue.record("follow --web on a taken port ran")
            } catch let failure as WebListenFailure {
                #expect(failure.description.hasPrefix("--web: cannot serve the pages on 127.0.0.1:\(port): "))
                #expect(failure.description.contains("Address already in use"))
            }
            #expect(output.isEmpty)
            #expect(errorOutput.isEmpty)
        }
    }
}
