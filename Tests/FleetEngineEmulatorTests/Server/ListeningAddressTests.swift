import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@testable import FleetEngineEmulator

@Suite("Where the emulator listens: addresses, names, and why it cannot")
struct ListeningAddressTests {
    @Test(
        "a name this machine resolves, an IPv6 address bare or in brackets, and an IPv4 address are listened on",
        arguments: [("localhost", "localhost"), ("[::1]", "::1"), ("::1", "::1"), ("127.0.0.1", "127.0.0.1")])
    func listensOn(host: String, target: String) async throws {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.host = host
        try await withFleetEngineEmulator(configuration) { emulator in
            let port = try await emulator.listeningPort()
            let transport = try HTTP2ClientTransport.Posix(
                target: .dns(host: target, port: port), transportSecurity: .plaintext)
            try await withGRPCClient(transport: transport) { client in
                // NOT_FOUND comes from the emulator's service: the call reached it.
                let failure = await TripServiceClient(client: client).failure(
                    .getTrip, Self.getTrip("providers/p/trips/absent"), returning: Trip.self)
                #expect(failure?.code == .notFound)
            }
        }
    }

    @Test("a port outside 0 to 65535 is refused when the emulator is made, naming the port", arguments: [-1, 65_536])
    func portOutOfRange(port: Int) {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.port = port
        let error = #expect(throws: EmulatorError.self) { try FleetEngineEmulator(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == "the emulator cannot listen on port \(port): a port is from 0 to 65535")
    }

    @Test("a host that resolves to no address is refused when the emulator is made, naming the host")
    func unknownHost() {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.host = ""
        let error = #expect(throws: EmulatorError.self) { try FleetEngineEmulator(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.hasPrefix("the emulator cannot listen on \"\": no address of that name") == true)
        #expect(error?.cause != nil)
    }

    @Test("a port another emulator holds: listeningPort says where and why, from the transport's error")
    func portInUse() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { first in
            var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
            configuration.port = try await first.listeningPort()
            let error = await #expect(throws: EmulatorError.self) {
                try await withFleetEngineEmulator(configuration) { second in try await second.listeningPort() }
            }
            let message = try #require(error?.message)
            #expect(error?.code == .cannotListen)
            #expect(message.hasPrefix("the emulator could not listen on 127.0.0.1:\(configuration.port): "))
            #expect(message.contains("Address already in use"))
            // The transport's own error, for a caller that looks into it.
            let cause = try #require(error?.cause)
            #expect(message.hasSuffix(String(describing: cause)))
        }
    }

    @Test("after a graceful shutdown, listeningPort says the emulator has shut down")
    func afterShutdown() async throws {
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await emulator.run() }
            _ = try await emulator.listeningPort()
            emulator.beginGracefulShutdown()
            try await group.waitForAll()
        }
        let error = await #expect(throws: EmulatorError.self) { try await emulator.listeningPort() }
        #expect(error?.code == .notListening)
        #expect(error?.message == "the emulator is not listening on 127.0.0.1:0: it has shut down")
    }

    static func getTrip(_ name: String) -> GetTripRequest {
        var request = GetTripRequest()
        request.name = name
        return request
    }
}
