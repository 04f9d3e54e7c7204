import FleetEngineClient
import FleetEngineEmulator
import Testing

@testable import FleetTripsCLI

@Suite("-H/--header: request metadata for every call, checked as the client checks it")
struct HeaderOptionTests {
    /// The connection options `arguments` give a `get`, after validation.
    static func connection(_ arguments: [String]) throws -> ConnectionOptions {
        try #require(try CommandRunner.parse(["get", "providers/p/trips/t"] + arguments) as? GetCommand).connection
    }

    /// The metadata the client is configured with for `arguments`, as `name: value` lines.
    static func metadata(_ arguments: [String]) throws -> [String] {
        try connection(arguments).clientConfiguration().metadata.map { "\($0.name): \($0.value)" }
    }

    @Test("each -H and --header goes into the client's metadata in order, the name lower-cased, the value trimmed")
    func parsed() throws {
        #expect(
            try Self.metadata([
                "-H", "X-Tenant: blue team ", "--header", "x-trace-bin:AQID", "-H", "x-tenant:\tsecond", "-H",
                "x-empty:", "-H", "x-url: https://example.com:8443/a",
            ]) == [
                "x-tenant: blue team", "x-trace-bin: AQID", "x-tenant: second", "x-empty: ",
                "x-url: https://example.com:8443/a",
            ])
        #expect(try Self.metadata([]) == [])
    }

    @Test(
        "headers the tool writes itself, gets from another option, or cannot send are usage errors saying why",
        arguments: [
            (
                "Authorization: Bearer abc",
                "-H #1 may not be authorization: it carries the bearer token, which the "
                    + "client writes itself from the token options (--token, --token-file, --token-command, --service-account)"
            ),
            (
                "host: example.com",
                "-H #1 may not be host: HTTP/2 carries the host in :authority: give it with --authority"
            ),
            (
                "x-goog-request-params: provider_id=x",
                "-H #1 may not be x-goog-request-params: the client writes it itself on every call, from the trip's "
                    + "provider"
            ),
            (
                ":authority: example.com",
                "-H #1 names a pseudo-header, which only the call layer writes; give :authority with --authority"
            ),
            (
                "grpc-timeout: 1S",
                "-H #1 cannot be sent: metadata name \"grpc-timeout\" starts with 'grpc-', which gRPC reserves for "
                    + "itself (PROTOCOL-HTTP2, \"Requests\")"
            ),
            (
                "TE: trailers",
                "-H #1 cannot be sent: metadata name \"te\" is written by the call layer or not allowed in HTTP/2 "
                    + "(RFC 9113 section 8.2.2)"
            ),
            ("x-tenant blue", "-H #1 has no ':'; give it as 'name: value', e.g. -H 'x-tenant: blue'"),
            (" : blue", "-H #1 has no name before ':'; give it as 'name: value'"),
        ])
    func refused(header: String, message: String) {
        let rejection = ClientCommandTests.rejection(["get", "providers/p/trips/t", "-H", header])
        #expect(rejection.message == message)
        #expect(rejection.exitCode == 64)
    }

    @Test("a header that cannot be sent is named by its position and name, its value never echoed")
    func valueNotEchoed() {
        let rejection = ClientCommandTests.rejection([
            "get", "providers/p/trips/t", "-H", "x-ok: 1", "-H", "x-api-key: s3cret\u{7F}value",
        ])
        #expect(rejection.message.hasPrefix("-H #2 cannot be sent: the value of metadata \"x-api-key\" "))
        #expect(!rejection.message.contains("s3cret"))
        #expect(rejection.exitCode == 64)
        let binary = ClientCommandTests.rejection(["get", "providers/p/trips/t", "-H", "x-key-bin: s3cret!"])
        #expect(binary.message.hasPrefix("-H #1 cannot be sent: the value of metadata \"x-key-bin\" "))
        #expect(!binary.message.contains("s3cret"))
    }

    @Test("get with -H against the emulator: the call goes through with the metadata")
    func getWithHeaders() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            try ClientCommandTests.createNewTrip("h-1", in: emulator)
            let result = try await ClientCommandTests.call(
                ["get", ClientCommandTests.name("h-1"), "-H", "x-tenant: blue", "--header", "x-trace-bin: AQID"]
                    + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 0)
            #expect(result.errorOutput == "")
            #expect(result.output == (try ClientCommandTests.stored("h-1", in: emulator).jsonString()) + "\n")
        }
    }
}
