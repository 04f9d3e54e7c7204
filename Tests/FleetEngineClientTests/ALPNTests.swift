import FleetEngineClient
import FleetEngineStatus
import FleetEngineTestSupport
import NIOCore
import NIOPosix
import NIOSSL
import Testing

@Suite("TLS needs HTTP/2: a server whose ALPN does not choose h2 is refused")
struct ALPNTests {
    @Test("a TLS server that only speaks http/1.1 (ALPN chooses nothing) fails the connection with UNAVAILABLE")
    func serverWithoutH2IsRefused() async throws {
        let certificatePEM = try Fixtures.fixtureText("tls/test-server-cert.pem")
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(
            bytes: Array(try Fixtures.fixtureText("tls/test-server-key.pem").utf8), format: .pem)
        var serverTLS = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        serverTLS.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: serverTLS)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        var configuration = ClientConfiguration(
            endpoint: .init(host: "127.0.0.1", port: server.localAddress?.port ?? 0),
            transportSecurity: .tls(trustRoots: .certificates([certificate]), serverHostname: "localhost"))
        configuration.retryPolicy = .none
        configuration.defaultDeadline = LoopbackClient.callDeadline
        // The set-up is not what this test times: on a loaded machine a TLS handshake has taken
        // over 5 s, and the call then failed for its set-up time instead of the ALPN.
        configuration.connectTimeout = LoopbackClient.callDeadline
        let error = try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) {
            client in
            await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
        }
        try? await server.close()
        #expect(error?.code == .unavailable)
        #expect(error?.origin == .connection(requestSent: false))
        #expect(error?.message == "the server did not negotiate HTTP/2 over TLS (ALPN chose nothing)")
    }
}
