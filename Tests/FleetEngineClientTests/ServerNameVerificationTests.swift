import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOSSL
import Testing

@testable import FleetEngineClient

@Suite("TLS: a host name is checked against the certificate's DNS names only")
struct ServerNameVerificationTests {
    /// A client that trusts the fixture certificate `name`, against the emulator serving it, and
    /// the error of one CreateTrip (nil when it succeeds).
    static func createTrip(
        certificate name: String, serverHostname: String?, trip: String
    ) async throws -> FleetEngineError? {
        let certificatePEM = try Fixtures.fixtureText("tls/\(name)-cert.pem")
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.tls = (certificatePEM, try Fixtures.fixtureText("tls/\(name)-key.pem"))
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        return try await withFleetEngineEmulator(emulator) { server in
            var configuration = ClientConfiguration(
                endpoint: .init(host: "127.0.0.1", port: try await server.listeningPort()),
                transportSecurity: .tls(trustRoots: .certificates([certificate]), serverHostname: serverHostname))
            configuration.retryPolicy = .none
            configuration.defaultDeadline = LoopbackClient.callDeadline
            // The set-up is not what these tests time: on a loaded machine a TLS handshake has
            // taken over 5 s, and an accepted name then failed for its set-up time.
            configuration.connectTimeout = LoopbackClient.callDeadline
            return try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) {
                client in
                await fleetEngineError { _ = try await client.createTrip(Fixtures.create(trip)) }
            }
        }
    }

    @Test("a certificate that names only 127.0.0.1 is refused for fleetengine.googleapis.com, with the cause kept")
    func ipOnlyCertificateIsRefusedForHostName() async throws {
        let error = try #require(
            try await Self.createTrip(
                certificate: "ip-only", serverHostname: "fleetengine.googleapis.com", trip: "by-name"))
        #expect(error.code == .unavailable)
        #expect(error.origin == .connection(requestSent: false))
        let cause = try #require(error.cause as? ServerNameMismatch)
        #expect(cause.hostname == "fleetengine.googleapis.com")
        #expect(cause.dnsNameCount == 0)
        #expect(error.message.contains("not valid for fleetengine.googleapis.com"))
    }

    @Test("a certificate that names only 127.0.0.1 is accepted when the endpoint is 127.0.0.1")
    func ipOnlyCertificateIsAcceptedForItsAddress() async throws {
        #expect(try await Self.createTrip(certificate: "ip-only", serverHostname: nil, trip: "by-address") == nil)
    }

    @Test(
        "a certificate with DNS names is accepted for each of them, a wildcard for one label",
        arguments: ["localhost", "LocalHost.", "trips.fleet.test"])
    func dnsNameCertificateIsAccepted(hostname: String) async throws {
        #expect(try await Self.createTrip(certificate: "dns-only", serverHostname: hostname, trip: "dns") == nil)
    }

    @Test(
        "a certificate with DNS names is refused for names it does not cover",
        arguments: ["fleetengine.googleapis.com", "a.trips.fleet.test", "fleet.test"])
    func dnsNameCertificateIsRefusedForOtherNames(hostname: String) async throws {
        let error = try #require(
            try await Self.createTrip(certificate: "dns-only", serverHostname: hostname, trip: "other"))
        #expect(error.code == .unavailable)
        let cause = try #require(error.cause as? ServerNameMismatch)
        #expect(cause.dnsNames == ["localhost", "*.fleet.test"])
    }

    @Test(
        "RFC 6125 matching: case and a trailing dot do not count; a wildcard is a whole left-most label for one label",
        arguments: [
            ("fleetengine.googleapis.com", "FleetEngine.GoogleAPIs.com", true),
            ("fleetengine.googleapis.com", "fleetengine.googleapis.com.", true),
            ("a.example.com", "*.example.com", true),
            ("a.b.example.com", "*.example.com", false),
            ("example.com", "*.example.com", false),
            ("foo.example.com", "f*.example.com", false),
            ("foo.example.com", "*oo.example.com", false),
            ("a.example.com", "a.*.com", false),
            ("example.com", "*.com", false),
            ("example.com", "*", false),
            ("example.com", "", false),
            ("example.com", "example.org", false),
            ("caf\u{E9}.example", "CAF\u{C9}.example", false),
        ])
    func matching(hostname: String, pattern: String, matches: Bool) {
        #expect(ServerNameVerifier(hostname: hostname).matches(pattern: Array(pattern.utf8)) == matches)
    }

    @Test("a certificate's names are shown with bytes outside printable ASCII as ? and cut at 100 bytes")
    func namesAreShownSafely() {
        #expect(ServerNameVerifier.shown(Array("evil.test\r\nx-injected: 1".utf8)) == "evil.test??x-injected:?1")
        #expect(ServerNameVerifier.shown(Array("caf\u{E9}.test".utf8)) == "caf??.test")
        let long = Array(repeating: UInt8(ascii: "a"), count: 300)
        #expect(ServerNameVerifier.shown(long) == String(repeating: "a", count: 100))
    }
}
