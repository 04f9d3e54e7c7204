import FleetEngineStatus
import Testing

@testable import FleetEngineClient

@Suite("TLS serverHostname must be a host name: an IP address or an empty one is refused when the client is made")
struct ServerHostnameConfigurationTests {
    @Test(
        "an IP address or an empty string as serverHostname is INVALID_ARGUMENT at init, naming the value",
        arguments: ["127.0.0.1", "::1", ""])
    func unusableServerHostnameIsRefused(serverHostname: String) throws {
        let configuration = ClientConfiguration(
            endpoint: .init(host: "127.0.0.1", port: 443), transportSecurity: .tls(serverHostname: serverHostname))
        let error = #expect(throws: FleetEngineError.self) {
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(error?.message.contains("serverHostname \"\(serverHostname)\"") == true)
    }

    @Test("a host name as serverHostname, or none, makes a client", arguments: ["localhost", nil] as [String?])
    func hostNameIsAccepted(serverHostname: String?) throws {
        let configuration = ClientConfiguration(
            endpoint: .init(host: "127.0.0.1", port: 443), transportSecurity: .tls(serverHostname: serverHostname))
        _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
    }
}
