import FleetEngineClient
import FleetEngineStatus
import Testing

@Suite("An endpoint port that is not a TCP port is refused, not cut to 16 bits")
struct EndpointPortTests {
    @Test(
        "the client refuses it with INVALID_ARGUMENT before connecting anywhere",
        arguments: [0, -1, 65_536, 70_000, Int.max])
    func portOutsideTCP(port: Int) {
        let error = #expect(throws: FleetEngineError.self) {
            try FleetEngineClient(configuration: .plaintext(port: port), tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(error?.message == "the endpoint's port \(port) is not a TCP port (1 to 65535)")
    }

    @Test("the lowest and highest ports are accepted", arguments: [1, 65_535])
    func portsAtTheEnds(port: Int) throws {
        _ = try FleetEngineClient(configuration: .plaintext(port: port), tokenProvider: NoTokenProvider())
    }
}
