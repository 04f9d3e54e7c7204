import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOCore
import NIOPosix
import NIOSSL
import Testing

@testable import FleetEngineClient

@Suite("A connection that fails says why in words, without swift-nio-ssl's build paths; the cause is kept as is")
struct ConnectionFailureMessageTests {
    /// The test server's TLS certificate and key.
    private static func tlsEmulator() throws -> EmulatorConfiguration {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.tls = (
            try Fixtures.fixtureText("tls/test-server-cert.pem"), try Fixtures.fixtureText("tls/test-server-key.pem")
        )
        return emulator
    }

    /// The error of one GetTrip over `configuration`, retries off.
    private static func failure(_ configuration: ClientConfiguration) async throws -> FleetEngineError {
        var configuration = configuration
        configuration.retryPolicy = .none
        configuration.defaultDeadline = LoopbackClient.callDeadline
        return try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) {
            client in
            try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
        }
    }

    /// The error of one GetTrip over TLS to 127.0.0.1:`port`, trusting the system's roots only.
    private static func tlsFailure(port: Int) async throws -> FleetEngineError {
        try await failure(
            ClientConfiguration(
                endpoint: .init(host: "127.0.0.1", port: port), transportSecurity: .tls(serverHostname: "localhost")))
    }

    /// Whether `text` holds a source position of the form `at /some/path/file.cc:123`.
    private static func holdsSourcePath(_ text: String) -> Bool {
        text.contains(" at /") || text.contains(".cc:") || text.contains(".c:")
    }

    @Test("an untrusted certificate: the handshake failure's reason and what it means, no source path")
    func untrustedCertificate() async throws {
        try await withFleetEngineEmulator(try Self.tlsEmulator()) { server in
            let error = try await Self.tlsFailure(port: try await server.listeningPort())
            #expect(error.code == .unavailable)
            #expect(error.message.hasPrefix("cannot connect to 127.0.0.1:"))
            #expect(error.message.contains("TLS handshake failed"))
            #expect(error.message.contains("CERTIFICATE_VERIFY_FAILED"))
            #expect(error.message.contains("not trusted"))
            #expect(!Self.holdsSourcePath(error.message), "\(error.message)")
            #expect(error.cause is NIOSSLError)
        }
    }

    @Test("a TLS client against a plaintext server: the message says the server did not answer in TLS")
    func tlsAgainstPlaintext() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { server in
            let error = try await Self.tlsFailure(port: try await server.listeningPort())
            #expect(error.code == .unavailable)
            #expect(error.message.contains("WRONG_VERSION_NUMBER"))
            #expect(error.message.contains("did not answer in TLS"))
            #expect(!Self.holdsSourcePath(error.message), "\(error.message)")
        }
    }

    @Test("swift-nio-ssl's own stack entries (EOF during the handshake) keep their text, trimmed")
    func syntheticStackEntry() {
        #expect(ConnectionFailureText.reason(of: .eofDuringHandshake) == "EOF during handshake")
        #expect(
            ConnectionFailureText.describe(NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake])))
                == "TLS handshake failed: EOF during handshake")
    }

    @Test("nothing listening: each address tried and the system's reason, not NIO's structure names")
    func connectionRefused() async throws {
        // Take a port from an emulator and stop it, so that nothing listens there.
        let port = try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) {
            try await $0.listeningPort()
        }
        let error = try await Self.failure(LoopbackClient.configuration(port: port))
        #expect(error.code == .unavailable)
        #expect(error.message == "cannot connect to 127.0.0.1:\(port): 127.0.0.1:\(port): connection refused")
        #expect(error.cause is NIOConnectionError)
    }
}
