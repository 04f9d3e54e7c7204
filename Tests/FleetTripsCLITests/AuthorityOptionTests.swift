import FleetEngineClient
import FleetEngineEmulator
import Testing

@testable import FleetTripsCLI

@Suite("--authority and --cacert, as grpcurl users give them")
struct AuthorityOptionTests {
    @Test(
        "--authority sets :authority and, over TLS, the name the certificate is checked for (its host, no port)",
        arguments: [
            (["--authority", "localhost"], "localhost", "localhost"),
            (["--authority", "api.fleet.test:443"], "api.fleet.test:443", "api.fleet.test"),
            (["--authority", "localhost", "--server-name", "localhost"], "localhost", "localhost"),
            (["--authority", "127.0.0.1:7"], "127.0.0.1:7", nil),
            (["--server-name", "localhost"], nil, "localhost"),
            ([], nil, nil),
        ] as [([String], String?, String?)])
    func tlsAuthority(options: [String], authority: String?, serverName: String?) throws {
        let connection = try HeaderOptionTests.connection(["--endpoint", "127.0.0.1:7"] + options)
        #expect(try connection.clientConfiguration().authority == authority)
        #expect(try connection.tlsServerName() == serverName)
    }

    @Test("with --plaintext, --authority sets only :authority")
    func plaintextAuthority() throws {
        let connection = try HeaderOptionTests.connection([
            "--endpoint", "127.0.0.1:7", "--plaintext", "--authority", "fleet.example.com",
        ])
        #expect(try connection.clientConfiguration().authority == "fleet.example.com")
        #expect(try connection.tlsServerName() == nil)
        #expect(try connection.transportSecurity().isPlaintext)
    }

    @Test(
        "an --authority that cannot be used is a usage error saying why",
        arguments: [
            (
                ["--authority", "localhost", "--server-name", "example.com"],
                "--authority 'localhost' and --server-name 'example.com' name different servers; give only "
                    + "--authority, which sets both the TLS server name and :authority"
            ),
            (
                ["--authority", "10.0.0.1"],
                "--authority '10.0.0.1' names the IP address 10.0.0.1, but over TLS a certificate is checked for an "
                    + "IP address only as the --endpoint host; give a host name, or --plaintext"
            ),
            (
                ["--authority", "two words"],
                "--authority 'two words': ' ' cannot be in a host; give a DNS name or an IP address, e.g. "
                    + "fleetengine.googleapis.com:443"
            ),
            (["--authority", ""], "--authority '' has no host; give host:port, e.g. 127.0.0.1:50051"),
            (
                ["--authority", "localhost:99999", "--plaintext"],
                "--authority 'localhost:99999': the port must be a number from 1 to 65535"
            ),
        ] as [([String], String)])
    func refused(options: [String], message: String) {
        let rejection = ClientCommandTests.rejection(
            ["get", "providers/p/trips/t", "--endpoint", "127.0.0.1:7"] + options)
        #expect(rejection.message == message)
        #expect(rejection.exitCode == 64)
    }

    @Test("--cacert and its alias --ca-cert are one option")
    func caCertificateAlias() throws {
        let path = try ClientTLSTests.fixturePath("test-server-cert.pem")
        #expect(try HeaderOptionTests.connection(["--cacert", path]).caCert == path)
        #expect(try HeaderOptionTests.connection(["--ca-cert", path]).caCert == path)
        let help = GetCommand.helpMessage(columns: 10_000)
        #expect(help.contains("--cacert, --ca-cert <path>"))
        #expect(help.contains("-H, --header <name: value>"))
        #expect(help.contains("--authority <name>"))
    }

    @Test("a certificate for localhost and *.fleet.test at 127.0.0.1: accepted with --cacert and --authority")
    func authorityOverTLS() async throws {
        try await ClientTLSTests.withTLSEmulator("dns-only") { emulator, port in
            let expected = try ClientTLSTests.printedTrip(emulator)
            for authority in ["localhost", "api.fleet.test:443"] {
                let result = try await ClientCommandTests.call(
                    [
                        "get", ClientCommandTests.name("tls-1"), "--endpoint", "127.0.0.1:\(port)", "--cacert",
                        try ClientTLSTests.fixturePath("dns-only-cert.pem"), "--authority", authority,
                    ])
                #expect(result.exitCode == 0, "\(authority)")
                #expect(result.errorOutput == "", "\(authority)")
                #expect(result.output == expected, "\(authority)")
            }
        }
    }

    @Test("an --authority the certificate does not name: UNAVAILABLE, exit status 78")
    func authorityNotInCertificate() async throws {
        try await ClientTLSTests.withTLSEmulator("dns-only") { _, port in
            let result = try await ClientCommandTests.call(
                [
                    "get", ClientCommandTests.name("tls-1"), "--endpoint", "127.0.0.1:\(port)", "--cacert",
                    try ClientTLSTests.fixturePath("dns-only-cert.pem"), "--authority", "fleet.example.com", "--json",
                ])
            #expect(result.exitCode == 78)
            #expect(result.output == "")
            #expect(try ClientCommandTests.errorObject(result.errorOutput)["name"] as? String == "UNAVAILABLE")
        }
    }
}
