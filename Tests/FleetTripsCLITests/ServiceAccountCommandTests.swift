import FleetEngineAuth
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("service account keys in the CLI: fleettrips token --service-account, and client commands over TLS")
struct ServiceAccountCommandTests {
    /// `fleettrips token` with `arguments`, run in-process: the printed token, without its line feed.
    static func mint(_ arguments: [String]) throws -> String {
        let command = try #require(try CommandRunner.parse(["token"] + arguments) as? TokenCommand)
        return try command.token()
    }

    @Test("token --service-account mints server, consumer and driver tokens the key's public key verifies")
    func mintsWithKeyFile() throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let verifier = TokenVerifier(keys: [try .rs256(publicKeyPEM: account.publicKeyPEM)])
        let consumer = try Self.mint(["--service-account", path, "--trip-id", "trip-1"])
        #expect(!consumer.contains("\n"))
        let claims = try verifier.verify(token: consumer)
        #expect(claims.role == .consumer(tripID: "trip-1"))
        #expect(claims.issuer == account.clientEmail)
        #expect(claims.subject == account.clientEmail)
        #expect(claims.audience == ["https://fleetengine.googleapis.com/"])
        #expect(try JSONWebToken(compact: consumer).header.keyID == account.privateKeyID)
        let server = try Self.mint(["--service-account", path, "--server", "--lifetime", "600"])
        let serverClaims = try verifier.verify(token: server)
        #expect(serverClaims.role == .server)
        #expect(serverClaims.expiresAt?.timeIntervalSince(try #require(serverClaims.issuedAt)) == 600)
        let driver = try JSONWebToken(compact: try Self.mint(["--service-account", path, "--vehicle-id", "v-7"]))
        #expect(try driver.claims().role == .driver(vehicleID: "v-7"))
    }

    @Test("token --service-account with a file that is no key names the file and the field")
    func refusesBadKeyFile() throws {
        let account = try TestServiceAccount()
        let path = try account.write(try account.json(changing: ["client_email": nil]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: FleetTripsError.self) {
            try Self.mint(["--service-account", path, "--server"])
        }
        #expect(error.message == "--service-account: the service account key file '\(path)': has no \"client_email\"")
        #expect(!error.message.contains(account.privateKeyPEM.split(separator: "\n")[2]))
    }

    /// `fleettrips serve --tls-cert --tls-key --jwt-public-key` as the command configures it, with
    /// `account`'s public key, trips `mine` and `theirs`, and the port it listens on.
    static func withServe(
        _ account: TestServiceAccount, _ body: @Sendable (FleetEngineEmulator, Int) async throws -> Void
    ) async throws {
        let publicKey = try account.write(Array(account.publicKeyPEM.utf8))
        defer { try? FileManager.default.removeItem(atPath: publicKey) }
        let arguments = [
            "serve", "--port", "0", "--tls-cert", try ClientTLSTests.fixturePath("test-server-cert.pem"),
            "--tls-key", try ClientTLSTests.fixturePath("test-server-key.pem"), "--jwt-public-key", publicKey,
        ]
        let serve = try #require(try CommandRunner.parse(arguments) as? ServeCommand)
        try await withFleetEngineEmulator(try serve.emulatorConfiguration()) { emulator in
            try ClientCommandTests.createNewTrip("mine", in: emulator)
            try ClientCommandTests.createNewTrip("theirs", in: emulator)
            try await body(emulator, try await emulator.listeningPort())
        }
    }

    /// `get` of trip `tripID` over TLS, trusting the fixture certificate, with `options`, and
    /// exactly the environment variables `environment`.
    static func get(
        _ tripID: String, port: Int, _ options: [String], environment: [String: String] = [:]
    ) async throws -> ClientCommandTests.Result {
        let arguments =
            [
                "get", ClientCommandTests.name(tripID), "--endpoint", "127.0.0.1:\(port)",
                "--ca-cert", try ClientTLSTests.fixturePath("test-server-cert.pem"), "--json",
            ] + options
        return try await CommandEnvironment.$overrides.withValue(environment) {
            try await ClientCommandTests.call(arguments)
        }
    }

    @Test("serve --tls-cert --jwt-public-key, then get --ca-cert --service-account over TLS prints the trip")
    func getOverTLSWithKeyFile() async throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withServe(account) { emulator, port in
            let result = try await Self.get("mine", port: port, ["--service-account", path])
            #expect(result.errorOutput == "")
            #expect(result.exitCode == 0)
            #expect(result.output == (try ClientCommandTests.stored("mine", in: emulator).jsonString() + "\n"))
        }
    }

    @Test("without a token option, get mints with the key file GOOGLE_APPLICATION_CREDENTIALS names")
    func getWithEnvironmentKey() async throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withServe(account) { emulator, port in
            let result = try await Self.get(
                "theirs", port: port, [], environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
            #expect(result.errorOutput == "")
            #expect(result.output == (try ClientCommandTests.stored("theirs", in: emulator).jsonString() + "\n"))
            // Without the variable, no token is sent, and the emulator asks for one.
            let anonymous = try await Self.get("theirs", port: port, [])
            #expect(try ClientCommandTests.errorObject(anonymous.errorOutput)["name"] as? String == "UNAUTHENTICATED")
        }
    }

    @Test("a consumer token from token --service-account reads its trip; another trip is PERMISSION_DENIED")
    func consumerTokenForAnotherTripIsRefused() async throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let consumer = try Self.mint(["--service-account", path, "--trip-id", "mine"])
        try await Self.withServe(account) { _, port in
            let own = try await Self.get("mine", port: port, ["--token", consumer])
            #expect(own.exitCode == 0)
            let other = try await Self.get("theirs", port: port, ["--token", consumer])
            // 64 + 7: the exit status the client commands document for PERMISSION_DENIED.
            #expect(other.exitCode == 71)
            let object = try ClientCommandTests.errorObject(other.errorOutput)
            #expect(object["name"] as? String == "PERMISSION_DENIED")
            #expect(!other.errorOutput.contains(consumer))
        }
    }

    @Test("a key file that is no key fails the call as UNAUTHENTICATED naming the file, never the key")
    func badKeyFileFailsTheCall() async throws {
        let account = try TestServiceAccount()
        let path = try account.write(try account.json(changing: ["type": "authorized_user"]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withServe(account) { _, port in
            let result = try await Self.get("mine", port: port, ["--service-account", path])
            let object = try ClientCommandTests.errorObject(result.errorOutput)
            #expect(object["name"] as? String == "UNAUTHENTICATED")
            let message = try #require(object["message"] as? String)
            #expect(message.contains("--service-account: the service account key file '\(path)'"))
            #expect(!result.errorOutput.contains("PRIVATE KEY"))
        }
    }
}
