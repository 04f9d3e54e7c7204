import FleetEngineEmulator
import FleetEngineStatus
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips serve and token")
struct EmulatorCommandTests {
    static let secret = "a-local-secret-that-is-32-bytes!"

    @Test("serve turns its fault, limit and quota options into the emulator's configuration")
    func serveFaultPlan() throws {
        let command = try #require(
            try CommandRunner.parse([
                "serve", "--no-auth", "--port", "7000", "--qps", "2.5", "--fail-every", "3", "--fail-code", "aborted",
                "--delay-ms", "40", "--drop-connection-at", "5", "--goaway-after-ms", "1500", "--data", "/tmp/x",
                "--quota-per-minute", "9000",
            ]) as? ServeCommand)
        let configuration = try command.emulatorConfiguration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 7000)
        #expect(configuration.dataDirectory == "/tmp/x")
        #expect(configuration.accessPolicy.requiresToken == false)
        #expect(configuration.faults.queriesPerSecond == 2.5)
        #expect(configuration.faults.failEvery == 3)
        #expect(configuration.faults.failCode == .aborted)
        #expect(configuration.faults.delay == .milliseconds(40))
        #expect(configuration.faults.dropConnectionAtCall == 5)
        #expect(configuration.faults.goAwayAfter == .milliseconds(1500))
        #expect(configuration.quotaPerMinute == 9000)
    }

    @Test("serve without --quota-per-minute sets no quota")
    func serveWithoutQuota() throws {
        let command = try #require(try CommandRunner.parse(["serve", "--no-auth"]) as? ServeCommand)
        #expect(try command.emulatorConfiguration().quotaPerMinute == nil)
    }

    @Test(
        "serve's listening line brackets an IPv6 address once, and shows a name as given",
        arguments: [
            ("127.0.0.1", "127.0.0.1:80"), ("::1", "[::1]:80"), ("[::1]", "[::1]:80"), ("localhost", "localhost:80"),
        ])
    func listeningLine(host: String, shown: String) {
        #expect(ServeCommand.shownAddress(host: host, port: 80) == shown)
    }

    @Test("serve with --jwt-secret verifies tokens that fleettrips token mints with the same secret")
    func tokenRoundTrip() throws {
        let serve = try #require(try CommandRunner.parse(["serve", "--jwt-secret", Self.secret]) as? ServeCommand)
        let policy = try serve.emulatorConfiguration().accessPolicy
        let consumer = try #require(
            try CommandRunner.parse(["token", "--jwt-secret", Self.secret, "--trip-id", "trip-7"]) as? TokenCommand)
        let token = try consumer.token()
        let claims = try #require(
            try policy.authorize(
                method: .getTrip, tripName: "providers/p/trips/trip-7", authorization: "Bearer \(token)"))
        #expect(claims.tripID == "trip-7")
        #expect(claims.isServerToken == false)
        #expect(throws: FleetEngineError(code: .permissionDenied, message: "")) {
            try policy.authorize(
                method: .getTrip, tripName: "providers/p/trips/other", authorization: "Bearer \(token)")
        }
        let server = try #require(
            try CommandRunner.parse(["token", "--jwt-secret", Self.secret, "--server"]) as? TokenCommand)
        let serverClaims = try policy.authorize(
            method: .createTrip, tripName: "providers/p/trips/any", authorization: "Bearer \(try server.token())")
        #expect(serverClaims?.isServerToken == true)
    }

    @Test(
        "serve and token refuse contradictory or missing options",
        arguments: [
            (["serve"], "give exactly one of --no-auth, --jwt-secret, --jwt-secret-file and --jwt-public-key"),
            (
                ["serve", "--no-auth", "--jwt-secret", "x"],
                "give exactly one of --no-auth, --jwt-secret, --jwt-secret-file and --jwt-public-key"
            ),
            (["serve", "--no-auth", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
            (["serve", "--no-auth", "--port", "70000"], "--port must be 0 to 65535"),
            (["serve", "--no-auth", "--speed", "1e7"], "--speed must be a positive number, at most 1000000"),
            (["serve", "--no-auth", "--speed", "nan"], "--speed must be a positive number, at most 1000000"),
            (["serve", "--no-auth", "--trips=-1"], "--trips must be 0 to 10000"),
            (["serve", "--no-auth", "--trips", "10001"], "--trips must be 0 to 10000"),
            (["serve", "--no-auth", "--fail-code", "SOMETIMES"], "--fail-code: \"SOMETIMES\" is not a status code"),
            (
                ["serve", "--no-auth", "--fail-code", "ok"],
                "--fail-code: OK (0) is not a failure; give the code the injected failures end with"
            ),
            (
                ["serve", "--no-auth", "--fail-code", "0"],
                "--fail-code: OK (0) is not a failure; give the code the injected failures end with"
            ),
            (["serve", "--no-auth", "--fail-code", "4294967310"], "--fail-code: \"4294967310\" is not a status code"),
            (["serve", "--no-auth", "--fail-every", "0"], "--fail-every must be at least 1"),
            (["serve", "--no-auth", "--goaway-after-ms", "0"], "--goaway-after-ms must be at least 1"),
            (
                ["serve", "--no-auth", "--quota-per-minute", "0"],
                "--quota-per-minute must be at least 1 call per minute"
            ),
            (
                ["serve", "--no-auth", "--quota-per-minute=-60"],
                "--quota-per-minute must be at least 1 call per minute"
            ),
            (["token", "--jwt-secret", "s"], "give exactly one of --trip-id, --vehicle-id and --server"),
            (["token", "--server", "--trip-id", "t"], "give exactly one of --trip-id, --vehicle-id and --server"),
            (
                ["token", "--vehicle-id", "v", "--trip-id", "t", "--jwt-secret", "s"],
                "give exactly one of --trip-id, --vehicle-id and --server"
            ),
            (
                ["token", "--server"],
                "give exactly one of --service-account, --jwt-secret, --jwt-secret-file and --jwt-private-key"
            ),
            (
                ["token", "--server", "--service-account", "key.json", "--jwt-secret", "s"],
                "give exactly one of --service-account, --jwt-secret, --jwt-secret-file and --jwt-private-key"
            ),
            (
                ["token", "--jwt-secret", "s", "--trip-id", "*"],
                "--trip-id must name one trip; use --server for every trip"
            ),
            (
                ["token", "--jwt-secret", "s", "--vehicle-id", "*"],
                "--vehicle-id must name one vehicle; use --server for every vehicle"
            ),
            (
                ["token", "--service-account", "key.json", "--server", "--lifetime", "3601"],
                "--lifetime must be at most 3600 seconds with --service-account"
            ),
            (
                ["token", "--service-account", "key.json", "--server", "--kid", "k"],
                "--kid does not go with --service-account: the key file decides it"
            ),
            (
                ["token", "--service-account", "key.json", "--server", "--issuer", "me@example.com"],
                "--issuer does not go with --service-account: the key file decides it"
            ),
        ])
    func rejections(arguments: [String], message: String) throws {
        do {
            _ = try CommandRunner.parse(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            let report = CommandRunner.report(for: error)
            #expect(report.message == message)
            #expect(report.exitCode == 64)
        }
    }
}
