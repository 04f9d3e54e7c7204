import ArgumentParser
import FleetEngineEmulator
import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("the client commands over TLS: --cacert, --server-name and SSLKEYLOGFILE against the emulator")
struct ClientTLSTests {
    static func fixturePath(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: "Fixtures/tls/" + name, withExtension: nil)).path
    }

    /// An emulator serving TLS with the fixture certificate `name` (`test-server` or `dns-only`),
    /// holding trip `tls-1`.
    static func withTLSEmulator(
        _ name: String, _ body: @Sendable (FleetEngineEmulator, Int) async throws -> Void
    ) async throws {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.tls = (
            try String(contentsOfFile: try fixturePath("\(name)-cert.pem"), encoding: .utf8),
            try String(contentsOfFile: try fixturePath("\(name)-key.pem"), encoding: .utf8)
        )
        try await withFleetEngineEmulator(configuration) { emulator in
            try ClientCommandTests.createNewTrip("tls-1", in: emulator)
            try await body(emulator, try await emulator.listeningPort())
        }
    }

    /// Runs `fleettrips get` for trip `tls-1` at 127.0.0.1:`port` with `--ca-cert` the fixture
    /// certificate `certificate`, then `options`, and exactly the environment variables `environment`.
    static func get(
        port: Int, trusting certificate: String = "test-server", _ options: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> ClientCommandTests.Result {
        let arguments =
            [
                "get", ClientCommandTests.name("tls-1"), "--endpoint", "127.0.0.1:\(port)",
                "--ca-cert", try fixturePath("\(certificate)-cert.pem"),
            ] + options
        return try await CommandEnvironment.$overrides.withValue(environment) {
            try await ClientCommandTests.call(arguments)
        }
    }

    /// What `get` prints for trip `tls-1`.
    static func printedTrip(_ emulator: FleetEngineEmulator) throws -> String {
        try ClientCommandTests.stored("tls-1", in: emulator).jsonString() + "\n"
    }

    /// A path in the temporary folder that does not exist yet.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    @Test("get over TLS with --ca-cert trusts the emulator's self-signed certificate and prints the trip")
    func getWithCACertificate() async throws {
        try await Self.withTLSEmulator("test-server") { emulator, port in
            let result = try await Self.get(port: port)
            #expect(result.exitCode == 0)
            #expect(result.errorOutput == "")
            #expect(result.output == (try Self.printedTrip(emulator)))
        }
    }

    @Test("a certificate for localhost only, at 127.0.0.1: refused, then accepted with --server-name localhost")
    func serverName() async throws {
        try await Self.withTLSEmulator("dns-only") { emulator, port in
            let refused = try await Self.get(port: port, trusting: "dns-only", ["--json"])
            #expect(refused.exitCode == 64 + 14)
            #expect(refused.output == "")
            let error = try ClientCommandTests.errorObject(refused.errorOutput)
            #expect(error["name"] as? String == "UNAVAILABLE")

            let accepted = try await Self.get(
                port: port, trusting: "dns-only", ["--json", "--server-name", "localhost"])
            #expect(accepted.exitCode == 0)
            #expect(accepted.errorOutput == "")
            #expect(accepted.output == (try Self.printedTrip(emulator)))
        }
    }

    @Test("with SSLKEYLOGFILE, get appends the TLS 1.3 secrets of its connection to a new file of mode 0600")
    func keyLogFile() async throws {
        let path = Self.temporaryPath("fleettrips-keylog")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withTLSEmulator("test-server") { _, port in
            let result = try await Self.get(port: port, environment: ["SSLKEYLOGFILE": path])
            #expect(result.exitCode == 0)
            #expect(result.errorOutput == "")
        }
        let lines = try #require(KeyLogLine.lines(of: try String(contentsOfFile: path, encoding: .utf8)))
        #expect(lines.map(\.label).sorted() == KeyLogLine.tls13Labels)
        #expect(Set(lines.map(\.clientRandom)).count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    @Test("an SSLKEYLOGFILE that cannot be opened gets a warning on standard error, and the call goes on")
    func unopenableKeyLogFile() async throws {
        let path = Self.temporaryPath("no-such-folder") + "/keys.log"
        try await Self.withTLSEmulator("test-server") { emulator, port in
            let result = try await Self.get(port: port, environment: ["SSLKEYLOGFILE": path])
            #expect(result.exitCode == 0)
            #expect(
                result.errorOutput
                    == "warning: SSLKEYLOGFILE: cannot open the TLS key log file '\(path)' for appending: No such "
                    + "file or directory; the TLS secrets of this run are not written\n")
            #expect(result.output == (try Self.printedTrip(emulator)))
        }
    }

    @Test("SSLKEYLOGFILE is read through the environment seam, ignored when empty and with --plaintext")
    func keyLogFileSelection() throws {
        let tls = try #require(
            try CommandRunner.parse(["get", "providers/p/trips/t", "--endpoint", "127.0.0.1:1"]) as? GetCommand)
        let plaintext = try #require(
            try CommandRunner.parse(["get", "providers/p/trips/t", "--endpoint", "127.0.0.1:1", "--plaintext"])
                as? GetCommand)
        func keyLogFile(_ command: GetCommand, _ environment: [String: String]) throws -> String? {
            try CommandEnvironment.$overrides.withValue(environment) { try command.connection.session().keyLogFile }
        }
        #expect(try keyLogFile(tls, ["SSLKEYLOGFILE": "keys.log"]) == "keys.log")
        #expect(try keyLogFile(plaintext, ["SSLKEYLOGFILE": "keys.log"]) == nil)
        #expect(try keyLogFile(tls, ["SSLKEYLOGFILE": ""]) == nil)
        #expect(try keyLogFile(tls, [:]) == nil)
    }

    @Test(
        "TLS options that cannot work are usage errors",
        arguments: [
            (
                ["--plaintext", "--ca-cert", "ca.pem"],
                "--cacert and --server-name are for TLS; leave them out with --plaintext"
            ),
            (
                ["--plaintext", "--server-name", "localhost"],
                "--cacert and --server-name are for TLS; leave them out with --plaintext"
            ),
            (["--server-name", ""], "--server-name needs a host name"),
            (
                ["--server-name", "127.0.0.1"],
                "--server-name '127.0.0.1' is an IP address, not a host name: to check the certificate for an "
                    + "address, give it as the --endpoint host and leave out --server-name"
            ),
            (
                ["--server-name", "a b"],
                "--server-name 'a b' is not a host name: give letters, digits, '-' and '.', e.g. localhost"
            ),
            (["--ca-cert", ""], "--cacert needs the path of a PEM file"),
            (["--ca-cert", "-"], "--cacert needs the path of a PEM file"),
        ]
    )
    func refusedOptions(options: [String], message: String) {
        let rejection = ClientCommandTests.rejection(["get", "providers/p/trips/t"] + options)
        #expect(rejection.message == message)
        #expect(rejection.exitCode == 64)
    }

    @Test("a --cacert file that is missing, or holds no certificate, is a usage error naming it")
    func unreadableCACertificate() throws {
        let missing = Self.temporaryPath("missing") + ".pem"
        #expect(
            ClientCommandTests.rejection(["get", "providers/p/trips/t", "--ca-cert", missing]).message
                == "--cacert: cannot open '\(missing)': No such file or directory")
        let key = try Self.fixturePath("test-server-key.pem")
        #expect(
            ClientCommandTests.rejection(["get", "providers/p/trips/t", "--ca-cert", key]).message
                == "--cacert: '\(key)' holds no PEM certificate that can be read (-----BEGIN CERTIFICATE-----)")
    }
}
