import ArgumentParser
import FleetEngineAuth
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips get, search, create, update and delete against the emulator")
struct ClientCommandTests {
    static let provider = "test-project"
    static let secret = "a-local-secret-that-is-32-bytes!"
    static let newTripJSON =
        #"{"tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":52.52,"longitude":13.405}},"numberOfPassengers":2}"#

    /// What a client command wrote and the exit status the executable would end with.
    struct Result {
        var exitCode: Int32
        var output: String
        var errorOutput: String
    }

    /// The `--deadline` of a call whose arguments give none. The whole suite runs at once on two
    /// cores and each step of a call waits its turn behind the other tests' work: a call that takes a
    /// millisecond alone has taken over the default 15 s. Long enough that none misses it.
    static let callDeadline = "300"

    /// Parses `arguments` as the executable would and runs the client command they name, in-process,
    /// with ``callDeadline`` unless the arguments set a deadline.
    static func call(_ arguments: [String]) async throws -> Result {
        var arguments = arguments
        let takesDeadline = ["get", "search", "create", "update", "delete", "report-billable", "follow"].contains(
            arguments.first)
        if takesDeadline, !arguments.contains(where: { $0 == "--deadline" || $0.hasPrefix("--deadline=") }) {
            arguments += ["--deadline", callDeadline]
        }
        let command = try CommandRunner.parse(arguments)
        var output: [UInt8] = []
        var errorOutput: [UInt8] = []
        var exitCode: Int32 = 0
        do {
            switch command {
            case let command as GetCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as SearchCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as CreateCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as UpdateCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as DeleteCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as ReportBillableCommand:
                try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as FollowCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            case let command as DemoCommand: try await command.run(output: &output, errorOutput: &errorOutput)
            default: Issue.record("\(arguments) is not a client command")
            }
        } catch {
            exitCode = CommandRunner.report(for: error).exitCode
        }
        return Result(
            exitCode: exitCode, output: String(decoding: output, as: UTF8.self),
            errorOutput: String(decoding: errorOutput, as: UTF8.self))
    }

    /// The options that reach an emulator on this machine.
    static func connection(_ port: Int) -> [String] {
        ["--endpoint", "127.0.0.1:\(port)", "--plaintext"]
    }

    static func name(_ tripID: String) -> String { "providers/\(provider)/trips/\(tripID)" }

    /// Creates trip `tripID` of ``provider`` from ``newTripJSON`` in the emulator, without gRPC.
    static func createNewTrip(_ tripID: String, in emulator: FleetEngineEmulator) throws {
        var create = CreateTripRequest()
        create.parent = "providers/\(provider)"
        create.tripID = tripID
        create.trip = try Trip(jsonString: newTripJSON)
        _ = try emulator.service.createTrip(create)
    }

    /// The trip the emulator holds, as GetTrip answers without gRPC.
    static func stored(_ tripID: String, in emulator: FleetEngineEmulator) throws -> Trip {
        var request = GetTripRequest()
        request.name = name(tripID)
        return try emulator.service.getTrip(request)
    }

    /// The one JSON object of a `--json` failure, after checking it is one line ending in a line feed.
    static func errorObject(_ errorOutput: String) throws -> [String: Any] {
        #expect(errorOutput.hasSuffix("\n"))
        #expect(!errorOutput.dropLast().contains("\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(errorOutput.utf8)) as? [String: Any])
    }

    /// The message the executable prints for `arguments`, which must not parse, and its exit status.
    static func rejection(_ arguments: [String]) -> (message: String, exitCode: Int32) {
        do {
            _ = try CommandRunner.parse(arguments)
        } catch {
            return CommandRunner.report(for: error)
        }
        Issue.record("\(arguments) parsed")
        return ("", 0)
    }

    @Test("the client commands are subcommands of fleettrips")
    func registered() throws {
        let names = FleetTrips.configuration.subcommands.map { $0.configuration.commandName }
        for name in ["get", "search", "create", "update", "delete"] {
            #expect(names.contains(name))
        }
    }

    @Test("create, get, update, search and delete a trip, each printing the server's answer as proto3 JSON")
    func lifecycle() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let connection = Self.connection(try await emulator.listeningPort())

            let created = try await Self.call(
                ["create", "--provider", Self.provider, "--trip-id", "trip-1", "--trip", Self.newTripJSON] + connection)
            #expect(created.exitCode == 0)
            #expect(created.errorOutput == "")
            var expected = try Self.stored("trip-1", in: emulator)
            #expect(created.output == (try expected.jsonString()) + "\n")
            let createdTrip = try Trip(jsonString: String(created.output.dropLast()))
            #expect(createdTrip == expected)
            #expect(createdTrip.name == Self.name("trip-1"))
            #expect(createdTrip.tripType == .exclusive)
            #expect(createdTrip.tripStatus == .new)
            #expect(createdTrip.numberOfPassengers == 2)
            #expect(createdTrip.pickupPoint?.point?.latitude == 52.52)
            #expect(createdTrip.pickupPoint?.point?.longitude == 13.405)

            let got = try await Self.call(["get", Self.name("trip-1")] + connection)
            #expect(got.exitCode == 0)
            #expect(got.errorOutput == "")
            #expect(got.output == (try expected.jsonString()) + "\n")
            #expect(try Trip(jsonString: String(got.output.dropLast())) == expected)

            let updated = try await Self.call(
                [
                    "update", Self.name("trip-1"), "--trip", #"{"tripStatus":"ENROUTE_TO_PICKUP","vehicleId":"car-9"}"#,
                    "--mask", "tripStatus,vehicle_id",
                ] + connection)
            #expect(updated.exitCode == 0)
            #expect(updated.errorOutput == "")
            expected = try Self.stored("trip-1", in: emulator)
            #expect(expected.tripStatus == .enrouteToPickup)
            #expect(expected.vehicleID == "car-9")
            #expect(updated.output == (try expected.jsonString()) + "\n")
            #expect(try Trip(jsonString: String(updated.output.dropLast())) == expected)

            let searched = try await Self.call(
                ["search", "--provider", Self.provider, "--vehicle-id", "car-9"] + connection)
            #expect(searched.exitCode == 0)
            #expect(searched.errorOutput == "")
            #expect(searched.output == (try expected.jsonString()) + "\n")
            let otherVehicle = try await Self.call(
                ["search", "--provider", Self.provider, "--vehicle-id", "car-10"] + connection)
            #expect(otherVehicle.exitCode == 0)
            #expect(otherVehicle.output == "")

            // An active trip with a vehicle cannot be deleted: a conflict, with the emulator's reason.
            let refused = try await Self.call(["delete", Self.name("trip-1"), "--json"] + connection)
            #expect(refused.exitCode == 64 + 9)
            #expect(refused.output == "")
            let conflict = try Self.errorObject(refused.errorOutput)
            #expect(conflict["code"] as? Int == 9)
            #expect(conflict["name"] as? String == "FAILED_PRECONDITION")
            #expect(conflict["family"] as? String == "conflict")
            let conflictDetails = try #require(conflict["details"] as? [[String: Any]])
            #expect(conflictDetails.first?["reason"] as? String == "TRIP_ACTIVE")

            let cancelled = try await Self.call(
                ["update", Self.name("trip-1"), "--trip", #"{"tripStatus":"CANCELED"}"#, "--mask", "trip_status"]
                    + connection)
            #expect(cancelled.exitCode == 0)
            #expect(try Trip(jsonString: String(cancelled.output.dropLast())).tripStatus == .canceled)

            let deleted = try await Self.call(["delete", Self.name("trip-1")] + connection)
            #expect(deleted.exitCode == 0)
            #expect(deleted.errorOutput == "")
            #expect(deleted.output == "{}\n")
            #expect(try Empty(jsonString: String(deleted.output.dropLast())) == Empty())

            let gone = try await Self.call(["get", Self.name("trip-1"), "--json"] + connection)
            #expect(gone.exitCode == 64 + 5)
            #expect(try Self.errorObject(gone.errorOutput)["code"] as? Int == 5)
        }
    }

    @Test("search prints every page's trips, one JSON line each, and --active-only leaves out ended trips")
    func searchPages() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let connection = Self.connection(try await emulator.listeningPort())
            for tripID in ["a", "b", "c"] {
                var request = CreateTripRequest()
                request.parent = "providers/\(Self.provider)"
                request.tripID = tripID
                request.trip = try Trip(jsonString: Self.newTripJSON)
                _ = try emulator.service.createTrip(request)
            }
            var cancel = UpdateTripRequest()
            cancel.name = Self.name("b")
            cancel.trip = try Trip(jsonString: #"{"tripStatus":"CANCELED"}"#)
            cancel.updateMask = FieldMask()
            cancel.updateMask?.paths = ["trip_status"]
            _ = try emulator.service.updateTrip(cancel)
            // Without a vehicle id, Fleet Engine leaves the route fields out of the trips it finds.
            let trips = try ["a", "b", "c"].map { tripID -> String in
                var trip = try Self.stored(tripID, in: emulator)
                trip.remainingWaypoints = []
                trip.remainingDistanceMeters = nil
                trip.etaToFirstWaypoint = nil
                trip.currentRouteSegment = ""
                return try trip.jsonString() + "\n"
            }

            let all = try await Self.call(["search", "--provider", Self.provider, "--page-size", "1"] + connection)
            #expect(all.exitCode == 0)
            #expect(all.errorOutput == "")
            #expect(all.output == trips.joined())

            let active = try await Self.call(
                ["search", "--provider", Self.provider, "--active-only", "--page-size", "2"] + connection)
            #expect(active.exitCode == 0)
            #expect(active.output == trips[0] + trips[2])
        }
    }

    @Test(
        "a trip that does not exist: exit status 69 (64 + NOT_FOUND) and one JSON object with NOT_FOUND and its details"
    )
    func notFoundJSON() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let result = try await Self.call(
                ["get", Self.name("missing"), "--json"] + Self.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 69)
            #expect(result.output == "")
            let object = try Self.errorObject(result.errorOutput)
            #expect(object["code"] as? Int == 5)
            #expect(object["name"] as? String == "NOT_FOUND")
            #expect(object["family"] as? String == "client")
            #expect(object["message"] as? String == "trip providers/test-project/trips/missing not found")
            #expect(object["origin"] as? String == "gRPC status")
            #expect(object["retryable"] as? Bool == false)
            #expect(object["httpStatus"] as? Int == 404)
            let details = try #require(object["details"] as? [[String: Any]])
            #expect(details.count == 2)
            #expect(details.first?["@type"] as? String == "type.googleapis.com/google.rpc.ErrorInfo")
            #expect(details.first?["reason"] as? String == "TRIP_NOT_FOUND")
            #expect(details.first?["domain"] as? String == "fleetengine.googleapis.com")
            #expect(
                details.first?["metadata"] as? [String: String] == ["trip": "providers/test-project/trips/missing"])
            #expect(details.last?["@type"] as? String == "type.googleapis.com/google.rpc.ResourceInfo")
            #expect(details.last?["resourceName"] as? String == "providers/test-project/trips/missing")
            #expect(result.errorOutput.hasPrefix(#"{"code":5,"name":"NOT_FOUND","family":"client","#))
        }
    }

    @Test("without --json the failure is text: the code and message, what to do, where it came from, the details")
    func notFoundText() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let result = try await Self.call(
                ["get", Self.name("missing")] + Self.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 69)
            #expect(result.output == "")
            #expect(
                result.errorOutput == """
                    NOT_FOUND (5): trip providers/test-project/trips/missing not found
                    family:       client (the caller must act)
                    what to do:   \(StatusCode.notFound.recoverySuggestion)
                    retry helps:  no: the same request fails again until the caller changes something
                    origin:       gRPC status
                    details:
                      - google.rpc.ErrorInfo {"reason":"TRIP_NOT_FOUND","domain":"fleetengine.googleapis.com",\
                    "metadata":{"trip":"providers/test-project/trips/missing"}}
                      - google.rpc.ResourceInfo {"resourceType":"maps.fleetengine.v1.Trip",\
                    "resourceName":"providers/test-project/trips/missing","description":"the trip does not exist"}

                    """)
        }
    }

    @Test(
        "a malformed trip name is INVALID_ARGUMENT, refused before anything is sent",
        arguments: [
            ["get", "trips/t-1"], ["delete", "providers/test-project/trip/t-1"],
            ["update", "providers//trips/t-1", "--trip", "{}", "--mask", "trip_status"],
            ["create", "--provider", "test-project", "--trip-id", "a/b"],
        ])
    func malformedName(arguments: [String]) async throws {
        // Nothing listens on port 1: a call that went out would fail with UNAVAILABLE instead.
        let result = try await Self.call(arguments + ["--json", "--endpoint", "127.0.0.1:1", "--plaintext"])
        #expect(result.exitCode == 64 + 3)
        #expect(result.output == "")
        let object = try Self.errorObject(result.errorOutput)
        #expect(object["code"] as? Int == 3)
        #expect(object["name"] as? String == "INVALID_ARGUMENT")
        #expect(object["origin"] as? String == "refused locally")
        let details = try #require(object["details"] as? [[String: Any]])
        #expect(details.first?["@type"] as? String == "type.googleapis.com/google.rpc.BadRequest")
    }

    @Test("--token, --token-file and --token-command each send the token an emulator with auth checks")
    func tokenOptions() async throws {
        let policy = AccessPolicy.verify(TokenVerifier(keys: [try .hs256(secret: Self.secret)]))
        let token = try TokenMinter(signingKey: .hs256(secret: Self.secret)).mint(.server)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleettrips-token-\(UUID())")
        try Data("  \(token)\n\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: policy)) { emulator in
            let connection = Self.connection(try await emulator.listeningPort())
            let created = try await Self.call(
                [
                    "create", "--provider", Self.provider, "--trip-id", "t-1", "--trip", Self.newTripJSON, "--token",
                    token,
                ]
                    + connection)
            #expect(created.exitCode == 0)
            #expect(created.errorOutput == "")
            let expected = try Self.stored("t-1", in: emulator).jsonString() + "\n"
            for tokenArguments in [
                ["--token", token], ["--token-file", file.path], ["--token-command", "printf '%s\\n' '\(token)'"],
            ] {
                let result = try await Self.call(["get", Self.name("t-1")] + tokenArguments + connection)
                #expect(result.exitCode == 0, "\(tokenArguments[0])")
                #expect(result.errorOutput == "", "\(tokenArguments[0])")
                #expect(result.output == expected, "\(tokenArguments[0])")
            }

            let withoutToken = try await Self.call(["get", Self.name("t-1"), "--json"] + connection)
            #expect(withoutToken.exitCode == 64 + 16)
            let object = try Self.errorObject(withoutToken.errorOutput)
            #expect(object["code"] as? Int == 16)
            #expect(object["name"] as? String == "UNAUTHENTICATED")
            #expect(object["origin"] as? String == "gRPC status")
        }
    }

    @Test(
        "a --token-command that fails is UNAUTHENTICATED naming its exit status, never echoing what it printed",
        arguments: [
            (
                "printf secret-token-123; echo 'no credentials' >&2; exit 3",
                "--token-command exited with status 3; its standard error: no credentials"
            ),
            ("printf '  \\n'", "--token-command printed no token"),
            ("printf secret-token-123; kill -9 $$", "--token-command was killed by signal 9"),
        ])
    func failingTokenCommand(commandLine: String, reason: String) async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let connection = Self.connection(try await emulator.listeningPort())
            for format in ["--json", nil] {
                let result = try await Self.call(
                    ["get", Self.name("t-1"), "--token-command", commandLine] + [format].compactMap { $0 }
                        + connection)
                #expect(result.exitCode == 64 + 16)
                #expect(result.output == "")
                #expect(!result.errorOutput.contains("secret-token-123"))
                #expect(!result.errorOutput.contains(commandLine))
                let message = "the token provider failed: token unavailable: " + reason
                if format == nil {
                    #expect(result.errorOutput.hasPrefix("UNAUTHENTICATED (16): \(message)\n"))
                } else {
                    let object = try Self.errorObject(result.errorOutput)
                    #expect(object["code"] as? Int == 16)
                    #expect(object["name"] as? String == "UNAUTHENTICATED")
                    #expect(object["message"] as? String == message)
                    #expect(object["origin"] as? String == "refused locally")
                }
            }
        }
    }

    @Test("a --token-file that cannot be read fails the call, naming the file")
    func unreadableTokenFile() async throws {
        let result = try await Self.call(
            [
                "get", Self.name("t-1"), "--json", "--token-file", "/nonexistent/token", "--endpoint", "127.0.0.1:1",
                "--plaintext",
            ])
        #expect(result.exitCode == 64 + 16)
        let object = try Self.errorObject(result.errorOutput)
        #expect(object["code"] as? Int == 16)
        #expect(
            object["message"] as? String
                == "the token provider failed: token unavailable: --token-file: cannot open '/nonexistent/token': "
                + "No such file or directory")
    }

    @Test("a --token-file over 1 MiB fails the call unsent, read no further, as a --token-command printing as much")
    func oversizedTokenFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleettrips-token-\(UUID())")
        try Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Self.call(
            ["get", Self.name("t-1"), "--json", "--token-file", file.path, "--endpoint", "127.0.0.1:1", "--plaintext"])
        #expect(result.exitCode == 64 + 16)
        let object = try Self.errorObject(result.errorOutput)
        #expect(object["code"] as? Int == 16)
        #expect(
            object["message"] as? String
                == "the token provider failed: token unavailable: --token-file '\(file.path)' holds more than 1048576 "
                + "bytes, which is not a token")
    }

    @Test(
        "the token options exclude each other, none may be empty, and a --token must be one HTTP/2 can send",
        arguments: [
            (
                ["--token", "a", "--token-file", "f"],
                "give at most one of --token, --token-file, --token-command and --service-account"
            ),
            (
                ["--token-file", "f", "--service-account", "key.json"],
                "give at most one of --token, --token-file, --token-command and --service-account"
            ),
            (["--service-account", ""], "--service-account needs a path"),
            (
                ["--token", "a", "--token-command", "c"],
                "give at most one of --token, --token-file, --token-command and --service-account"
            ),
            (
                ["--token-file", "f", "--token-command", "c"],
                "give at most one of --token, --token-file, --token-command and --service-account"
            ),
            (
                ["--token", "a", "--token-file", "f", "--token-command", "c"],
                "give at most one of --token, --token-file, --token-command and --service-account"
            ),
            (["--token", ""], "--token is empty; leave it out to send no token"),
            (["--token-command", " "], "--token-command needs a command"),
            // As `--token "$(cat token.txt)"` gives it from a file with CRLF line ends.
            (
                ["--token", "eyJ.a.b\r"],
                #"--token cannot be sent as a bearer token: the value of metadata "authorization" has byte 0xd at "#
                    + "byte 7; only printable ASCII is allowed"
            ),
            (
                ["--token", "eyJ.é"],
                #"--token cannot be sent as a bearer token: the value of metadata "authorization" has byte 0xc3 at "#
                    + "byte 4; only printable ASCII is allowed"
            ),
        ])
    func tokenRejections(arguments: [String], message: String) {
        let report = Self.rejection(["get", Self.name("t-1")] + arguments)
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("no token option means no token unless GOOGLE_APPLICATION_CREDENTIALS names a key; a token never shows")
    func tokenSources() throws {
        let plain = try #require(try CommandRunner.parse(["get", Self.name("t")]) as? GetCommand)
        CommandEnvironment.$overrides.withValue([:]) {
            #expect(plain.connection.tokenSource == .none)
        }
        CommandEnvironment.$overrides.withValue(["GOOGLE_APPLICATION_CREDENTIALS": ""]) {
            #expect(plain.connection.tokenSource == .none)
        }
        CommandEnvironment.$overrides.withValue(["GOOGLE_APPLICATION_CREDENTIALS": "/keys/sa.json"]) {
            #expect(
                plain.connection.tokenSource
                    == .serviceAccount(path: "/keys/sa.json", origin: "GOOGLE_APPLICATION_CREDENTIALS"))
            #expect(plain.connection.tokenSource.description == "GOOGLE_APPLICATION_CREDENTIALS '/keys/sa.json'")
        }
        let literal = try #require(
            try CommandRunner.parse(["get", Self.name("t"), "--token", "eyJ.secret.sig"]) as? GetCommand)
        CommandEnvironment.$overrides.withValue(["GOOGLE_APPLICATION_CREDENTIALS": "/keys/sa.json"]) {
            #expect(literal.connection.tokenSource == .literal("eyJ.secret.sig"))
        }
        #expect(literal.connection.tokenSource.description == "--token (redacted)")
        let keyFile = try #require(
            try CommandRunner.parse(["get", Self.name("t"), "--service-account", "sa.json"]) as? GetCommand)
        #expect(keyFile.connection.tokenSource == .serviceAccount(path: "sa.json", origin: "--service-account"))
        #expect(keyFile.connection.tokenSource.description == "--service-account 'sa.json'")
    }

    @Test(
        "--endpoint takes host:port, [IPv6]:port, or a host alone for port 443",
        arguments: [
            ("127.0.0.1:50051", "127.0.0.1", 50051), ("[::1]:8443", "::1", 8443), ("localhost:1", "localhost", 1),
            ("fleetengine.googleapis.com", "fleetengine.googleapis.com", 443), ("[fe80::1%eth0]", "fe80::1%eth0", 443),
        ])
    func endpoints(argument: String, host: String, port: Int) throws {
        let command = try #require(
            try CommandRunner.parse(["get", Self.name("t"), "--endpoint", argument]) as? GetCommand)
        let endpoint = try command.connection.clientConfiguration().endpoint
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
    }

    @Test(
        "--endpoint refuses what is not host:port",
        arguments: [
            ("::1:50051", "--endpoint '::1:50051': put an IPv6 address in brackets, e.g. [::1]:50051"),
            ("[::1", "--endpoint '[::1' has no ']' after its IPv6 address"),
            ("[::1]50051", "--endpoint '[::1]50051' has '50051' after ']' where ':port' should be"),
            ("[localhost]:80", "--endpoint '[localhost]:80': only an IPv6 address goes in brackets"),
            (":50051", "--endpoint ':50051' has no host; give host:port, e.g. 127.0.0.1:50051"),
            ("localhost:", "--endpoint 'localhost:': the port must be a number from 1 to 65535"),
            ("localhost:0", "--endpoint 'localhost:0': the port must be a number from 1 to 65535"),
            ("localhost:65536", "--endpoint 'localhost:65536': the port must be a number from 1 to 65535"),
            ("localhost:+80", "--endpoint 'localhost:+80': the port must be a number from 1 to 65535"),
        ])
    func endpointRejections(argument: String, message: String) {
        let report = Self.rejection(["get", Self.name("t"), "--endpoint", argument])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("the defaults are Fleet Engine over TLS with a 15 s deadline; --deadline and --plaintext change them")
    func configuration() throws {
        let defaults = try #require(try CommandRunner.parse(["get", Self.name("t")]) as? GetCommand)
        let configuration = try defaults.connection.clientConfiguration()
        #expect(configuration.endpoint.description == "fleetengine.googleapis.com:443")
        #expect(configuration.transportSecurity.isPlaintext == false)
        #expect(configuration.defaultDeadline == .seconds(15))
        #expect(defaults.connection.json == false)

        let local = try #require(
            try CommandRunner.parse(["get", Self.name("t"), "--plaintext", "--deadline", "2.5", "--json"])
                as? GetCommand)
        let localConfiguration = try local.connection.clientConfiguration()
        #expect(localConfiguration.transportSecurity.isPlaintext)
        #expect(localConfiguration.defaultDeadline == .milliseconds(2500))
        #expect(localConfiguration.connectTimeout == .milliseconds(2500))
        #expect(local.connection.json)
    }

    @Test(
        "--deadline and --page-size must be positive",
        arguments: [
            (
                ["get", "providers/p/trips/t", "--deadline", "0"],
                "--deadline must be a positive number of seconds, at most 86400"
            ),
            (
                ["get", "providers/p/trips/t", "--deadline=-1"],
                "--deadline must be a positive number of seconds, at most 86400"
            ),
            (
                ["get", "providers/p/trips/t", "--deadline", "nan"],
                "--deadline must be a positive number of seconds, at most 86400"
            ),
            (["search", "--provider", "p", "--page-size", "0"], "--page-size must be a number from 1 to 2147483647"),
        ])
    func numberRejections(arguments: [String], message: String) {
        let report = Self.rejection(arguments)
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("--mask takes snake_case or lowerCamelCase paths and sends them in snake_case")
    func mask() throws {
        let command = try #require(
            try CommandRunner.parse([
                "update", Self.name("t"), "--trip", "{}", "--mask",
                "tripStatus, vehicle_id,intermediateDestinationIndex",
            ]) as? UpdateCommand)
        #expect(
            try command.makeRequest().updateMask?.paths == [
                "trip_status", "vehicle_id", "intermediate_destination_index",
            ])
    }

    @Test(
        "--mask refuses empty paths and characters no field name has",
        arguments: [
            ("", "--mask '' has an empty field path; give paths separated by commas, e.g. trip_status,vehicle_id"),
            (
                "trip_status,,vehicle_id",
                "--mask 'trip_status,,vehicle_id' has an empty field path; give paths separated by commas, e.g. "
                    + "trip_status,vehicle_id"
            ),
            ("trip-status", "--mask: 'trip-status' is not a field path; '-' is in no field name"),
        ])
    func maskRejections(mask: String, message: String) {
        let report = Self.rejection(["update", Self.name("t"), "--trip", "{}", "--mask", mask])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("--trip takes a file as @path")
    func tripFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleettrips-trip-\(UUID()).json")
        try Data(Self.newTripJSON.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let command = try #require(
            try CommandRunner.parse([
                "create", "--provider", "p", "--trip-id", "t", "--trip", "@" + file.path,
            ]) as? CreateCommand)
        let request = try command.makeRequest()
        #expect(request.trip == (try Trip(jsonString: Self.newTripJSON)))
        #expect(request.parent == "providers/p")
        #expect(request.tripID == "t")
    }

    @Test("--trip @file past 64 MiB is refused after reading just past that, not held whole")
    func oversizedTripFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleettrips-trip-\(UUID()).json")
        try Data(repeating: UInt8(ascii: " "), count: (64 << 20) + 1).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = Self.rejection(["create", "--provider", "p", "--trip-id", "t", "--trip", "@" + file.path])
        #expect(report.message == "--trip @\(file.path) holds more than 67108864 bytes, more than any message")
        #expect(report.exitCode == 64)
    }

    @Test(
        "--trip that is not a Trip in proto3 JSON is a usage error saying where",
        arguments: [
            (
                #"{"tripType":"EXCLUSIVE",}"#,
                "--trip is not a maps.fleetengine.v1.Trip in proto3 JSON: invalid JSON: a trailing comma before '}' "
                    + "is not allowed (byte offset 24)"
            ),
            (
                #"{"tripStatus":"FLYING"}"#,
                "--trip is not a maps.fleetengine.v1.Trip in proto3 JSON: invalid JSON value: \"FLYING\" is not a "
                    + "value of enum maps.fleetengine.v1.TripStatus (byte offset 14, at maps.fleetengine.v1.Trip.trip_status)"
            ),
            (
                #"{"tripTyp":1}"#,
                "--trip is not a maps.fleetengine.v1.Trip in proto3 JSON: unknown JSON field: maps.fleetengine.v1.Trip "
                    + "has no field named \"tripTyp\" (byte offset 11, at maps.fleetengine.v1.Trip)"
            ),
            ("@/nonexistent/trip.json", "--trip: cannot open '/nonexistent/trip.json': No such file or directory"),
            ("@", "--trip @ takes a file's path, e.g. --trip @trip.json"),
            ("@-", "--trip @ takes a file's path, e.g. --trip @trip.json"),
        ])
    func tripRejections(trip: String, message: String) {
        let report = Self.rejection(["create", "--provider", "p", "--trip-id", "t", "--trip", trip])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }
}
