import FleetEngineClient
import FleetEngineStatus
import FleetEngineTestSupport
import Testing

/// Keepalive is on unless turned off: a dead connection fails its calls with UNAVAILABLE instead
/// of leaving them to their deadlines.
@Suite("Keepalive by default: a PING after 10 s without frames while calls are in flight, a 20 s timeout")
struct KeepaliveDefaultTests {
    @Test("the default configuration sends keepalive PINGs, with the stated interval and timeout")
    func onByDefault() {
        let expected = ClientConfiguration.Keepalive(
            interval: .seconds(10), timeout: .seconds(20), permitWithoutCalls: false)
        #expect(ClientConfiguration.Keepalive.default == expected)
        #expect(ClientConfiguration().keepalive == expected)
        #expect(ClientConfiguration.plaintext(port: 50051).keepalive == expected)
    }

    /// The failure of one GetTrip, without retries, to a peer that sends SETTINGS and then never
    /// answers a request or a PING, with `keepalive` and the call's `timeout`.
    static func callToDeadPeer(
        keepalive: ClientConfiguration.Keepalive?, timeout: Duration = LoopbackClient.callDeadline
    ) async throws -> FleetEngineError? {
        let server = try await SilentHTTP2Server(sendsSettings: true)
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.keepalive = keepalive
        configuration.retryPolicy = .none
        let error = await fleetEngineError {
            try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
                _ = try await client.getTrip(named: Fixtures.name("a"), options: CallOptions(timeout: timeout))
            }
        }
        await server.close()
        return error
    }

    @Test("a peer that stops answering fails the call UNAVAILABLE, saying the keepalive PING went unanswered")
    func deadPeerIsNoticed() async throws {
        // The default's shape, shortened: the call's deadline (minutes) is far beyond it.
        let error = try await Self.callToDeadPeer(
            keepalive: .init(interval: .milliseconds(50), timeout: .milliseconds(100)))
        #expect(error?.code == .unavailable)
        #expect(error?.origin == .connection(requestSent: true))
        // The call fails as the connection closes under it; why it closed is the cause.
        #expect(error?.message == "the connection closed before the call ended")
        let cause = error?.cause as? FleetEngineError
        #expect(cause?.message == "the server did not answer a keepalive PING within 0.1 seconds")
    }

    @Test("with keepalive off, the same dead peer leaves the call to its deadline: DEADLINE_EXCEEDED")
    func offWhenAsked() async throws {
        let error = try await Self.callToDeadPeer(keepalive: nil, timeout: .seconds(1))
        #expect(error?.code == .deadlineExceeded)
    }
}
