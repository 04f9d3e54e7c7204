import FleetEngineEmulator
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

/// Secrets on the command line are visible to every user of the machine (`ps`): each option that
/// takes one says so in its help and has a file alternative, and plaintext beyond loopback warns.
@Suite("Secrets: --jwt-secret-file, process-list warnings, --plaintext beyond loopback")
struct SecretOptionTests {
    /// Writes `contents` to a new file and returns its path; the caller removes it.
    static func file(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID()).txt").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("serve --jwt-secret-file verifies what token --jwt-secret-file and token --jwt-secret mint")
    func secretFileRoundTrip() throws {
        let path = try Self.file("  \(EmulatorCommandTests.secret)\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let serve = try #require(try CommandRunner.parse(["serve", "--jwt-secret-file", path]) as? ServeCommand)
        let policy = try serve.emulatorConfiguration().accessPolicy
        for key in [["--jwt-secret-file", path], ["--jwt-secret", EmulatorCommandTests.secret]] {
            let command = try #require(
                try CommandRunner.parse(["token"] + key + ["--trip-id", "trip-7"]) as? TokenCommand)
            let claims = try policy.authorize(
                method: .getTrip, tripName: "providers/p/trips/trip-7", authorization: "Bearer \(try command.token())")
            #expect(claims?.tripID == "trip-7")
        }
    }

    @Test(
        "--jwt-secret and --jwt-secret-file are one choice, and the file needs a path",
        arguments: [
            (
                ["serve", "--jwt-secret", "s", "--jwt-secret-file", "f"],
                "give exactly one of --no-auth, --jwt-secret, --jwt-secret-file and --jwt-public-key"
            ),
            (["serve", "--jwt-secret-file", ""], "--jwt-secret-file needs a path"),
            (
                ["token", "--server", "--jwt-secret", "s", "--jwt-secret-file", "f"],
                "give exactly one of --service-account, --jwt-secret, --jwt-secret-file and --jwt-private-key"
            ),
            (["token", "--server", "--jwt-secret-file", ""], "--jwt-secret-file needs a path"),
        ])
    func rejections(arguments: [String], message: String) {
        #expect(ClientCommandTests.rejection(arguments) == (message, 64))
    }

    @Test("a secret file that holds only whitespace is refused, naming the file and not its contents")
    func emptySecretFile() throws {
        let path = try Self.file(" \n\t\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let serve = try #require(try CommandRunner.parse(["serve", "--jwt-secret-file", path]) as? ServeCommand)
        let error = try #require(throws: FleetTripsError.self) { try serve.emulatorConfiguration() }
        #expect(error.code == .unreadableInput)
        #expect(error.message == "--jwt-secret-file '\(path)' holds no secret")
    }

    @Test("a secret file that cannot be read is refused, naming the option and the file")
    func missingSecretFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID())").path
        let token = try #require(
            try CommandRunner.parse(["token", "--jwt-secret-file", path, "--server"]) as? TokenCommand)
        let error = try #require(throws: FleetTripsError.self) { try token.token() }
        #expect(error.code == .unreadableInput)
        #expect(error.message.hasPrefix("--jwt-secret-file: "))
        #expect(error.message.contains(path))
    }

    @Test(
        "each option that takes a secret on the command line warns of the process list in its help",
        arguments: [
            (ServeCommand.helpMessage(columns: 10_000), "--jwt-secret <secret>"),
            (ServeCommand.helpMessage(columns: 10_000), "--tls-key <path>"),
            (TokenCommand.helpMessage(columns: 10_000), "--jwt-secret <secret>"),
            (TokenCommand.helpMessage(columns: 10_000), "--jwt-private-key <path>"),
            (GetCommand.helpMessage(columns: 10_000), "--token <token>"),
        ])
    func processListWarning(help: String, option: String) throws {
        // An option's help follows its name on the same line, or on the next when the name is long.
        let lines = help.split(separator: "\n")
        let index = try #require(lines.firstIndex { $0.drop { $0 == " " }.hasPrefix(option) })
        let text = lines[index...].prefix(2).joined(separator: " ")
        #expect(text.contains("other users may see"))
        #expect(text.contains("process list"))
    }

    @Test("serve's and token's help offer --jwt-secret-file")
    func secretFileInHelp() {
        for help in [ServeCommand.helpMessage(columns: 10_000), TokenCommand.helpMessage(columns: 10_000)] {
            #expect(help.contains("--jwt-secret-file <path>"))
        }
    }

    @Test(
        "--plaintext to a host that is not loopback warns that the token travels in clear text",
        arguments: ["203.0.113.7:50051", "fleetengine.example.com:80", "[2001:db8::1]:80", "[::2]:80", "10.0.0.1:80"])
    func plaintextWarning(endpoint: String) throws {
        let command = try #require(
            try CommandRunner.parse([
                "get", "providers/p/trips/t", "--plaintext", "--endpoint", endpoint, "--token", "t",
            ])
                as? GetCommand)
        let session = try command.connection.session()
        #expect(
            session.plaintextWarning
                == "warning: --plaintext to \(endpoint), which is not a loopback address: the bearer token travels "
                + "in clear text, readable by anyone on the path, and the calls with it; leave out --plaintext to "
                + "use TLS")
    }

    @Test("without a token, --plaintext beyond loopback still warns, of the calls")
    func plaintextWarningWithoutToken() throws {
        let command = try #require(
            try CommandRunner.parse(["get", "providers/p/trips/t", "--plaintext", "--endpoint", "192.0.2.1:80"])
                as? GetCommand)
        #expect(
            try command.connection.session().plaintextWarning
                == "warning: --plaintext to 192.0.2.1:80, which is not a loopback address: the calls travel in "
                + "clear text (no token is sent); leave out --plaintext to use TLS")
    }

    @Test(
        "--plaintext to loopback, and TLS to anywhere, give no warning",
        arguments: [
            ["--plaintext", "--endpoint", "127.0.0.1:50051"], ["--plaintext", "--endpoint", "127.9.8.7:1"],
            ["--plaintext", "--endpoint", "localhost:1"], ["--plaintext", "--endpoint", "LOCALHOST.:1"],
            ["--plaintext", "--endpoint", "emulator.localhost:1"], ["--plaintext", "--endpoint", "[::1]:1"],
            ["--plaintext", "--endpoint", "[0:0:0:0:0:0:0:1]:1"],
            ["--plaintext", "--endpoint", "[::ffff:127.0.0.1]:1"],
            ["--endpoint", "203.0.113.7:443"],
        ])
    func noPlaintextWarning(options: [String]) throws {
        let command = try #require(
            try CommandRunner.parse(["get", "providers/p/trips/t", "--token", "t"] + options) as? GetCommand)
        #expect(try command.connection.session().plaintextWarning == nil)
    }

    @Test("a session writes its warning to standard error before anything else")
    func warningWritten() async throws {
        // The session is made for loopback, so that nothing leaves the machine, and given the
        // warning a host beyond it gets; its body makes no call, so no connection is opened.
        var session = try #require(
            try CommandRunner.parse(["get", "providers/p/trips/t", "--plaintext", "--endpoint", "127.0.0.1:1"])
                as? GetCommand
        ).connection.session()
        #expect(session.plaintextWarning == nil)
        session.plaintextWarning = "warning: plaintext"
        var errorOutput: [UInt8] = []
        try await session.run(errorOutput: &errorOutput) { _ in }
        #expect(String(decoding: errorOutput, as: UTF8.self) == "warning: plaintext\n")
    }
}
