import FleetEngineClient
import FleetEngineStatus
import Testing

@Suite("A keepalive whose interval or timeout is not above zero is refused")
struct KeepaliveConfigurationTests {
    static let unusable: [(ClientConfiguration.Keepalive, String)] = [
        (.init(interval: .zero), "keepalive.interval 0.0 seconds is not above zero"),
        (.init(interval: .seconds(-5)), "keepalive.interval -5.0 seconds is not above zero"),
        (.init(interval: .seconds(30), timeout: .zero), "keepalive.timeout 0.0 seconds is not above zero"),
    ]

    @Test(
        "the client refuses it with INVALID_ARGUMENT (a zero interval ran the PING task without pause)",
        arguments: unusable)
    func refused(keepalive: ClientConfiguration.Keepalive, message: String) {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.keepalive = keepalive
        let error = #expect(throws: FleetEngineError.self) {
            try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(error?.message == message)
    }

    @Test("a short interval and timeout are accepted")
    func accepted() throws {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.keepalive = .init(interval: .milliseconds(1), timeout: .milliseconds(1))
        _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
    }
}
