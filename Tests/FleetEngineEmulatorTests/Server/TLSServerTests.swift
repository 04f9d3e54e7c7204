import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@testable import FleetEngineEmulator

@Suite("TLS: the emulator serves a self-signed certificate to a client that trusts it")
struct TLSServerTests {
    /// The test-only certificate and key of Fixtures/tls (see its README).
    static func fixture(_ file: String) throws -> String {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/tls/\(file)"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func configuration() throws -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.tls = (try fixture("test-server-cert.pem"), try fixture("test-server-key.pem"))
        return configuration
    }

    static func trusting(_ certificatePEM: String) -> HTTP2ClientTransport.Posix.TransportSecurity {
        .tls { tls in
            tls.trustRoots = .certificates([.bytes(Array(certificatePEM.utf8), format: .pem)])
        }
    }

    /// Calls that give up at once rather than wait for a connection that will never work (the
    /// timeout only bounds a hang: on a machine running the whole suite at once a call that works
    /// can take many seconds).
    static let failFast: CallOptions = {
        var options = CallOptions.defaults
        options.waitForReady = false
        options.timeout = .seconds(300)
        return options
    }()

    @Test(
        "a client that trusts the certificate calls over TLS, by address or by host name",
        arguments: [nil, "localhost"])
    func trustedClientCalls(authority: String?) async throws {
        let certificate = try Self.fixture("test-server-cert.pem")
        try await withEmulatorAndClient(
            try Self.configuration(),
            security: Self.trusting(certificate),
            configureClient: { $0.http2.authority = authority }
        ) { emulator, client in
            let created: Trip = try await client.call(
                .createTrip, ServiceFixtures.createRequest(tripID: "trip-1", trip: ServiceFixtures.tripToCreate()),
                options: Self.failFast)
            #expect(created == (try emulator.service.getTrip(AuthorizationServerTests.get("trip-1"))))
            let error = await client.failure(
                .getTrip, AuthorizationServerTests.get("ghost"), returning: Trip.self, options: Self.failFast)
            #expect(error?.code == .notFound)
            #expect(error.flatMap(ServiceFixtures.errorInfoReason) == "TRIP_NOT_FOUND")
        }
    }

    @Test("a client that does not trust the certificate cannot call: UNAVAILABLE")
    func untrustingClientFails() async throws {
        try await withEmulatorAndClient(try Self.configuration(), security: .tls) { _, client in
            let error = await client.failure(
                .getTrip, AuthorizationServerTests.get("ghost"), returning: Trip.self, options: Self.failFast)
            #expect(error?.code == .unavailable)
        }
    }

    @Test("a plaintext client cannot call a TLS emulator: UNAVAILABLE")
    func plaintextClientFails() async throws {
        try await withEmulatorAndClient(try Self.configuration(), security: .plaintext) { _, client in
            let error = await client.failure(
                .getTrip, AuthorizationServerTests.get("ghost"), returning: Trip.self, options: Self.failFast)
            #expect(error?.code == .unavailable)
        }
    }
}
