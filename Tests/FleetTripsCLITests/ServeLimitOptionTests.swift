import FleetEngineEmulator
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips serve's limits against misbehaving clients")
struct ServeLimitOptionTests {
    @Test(
        "serve's limit options reach the emulator's configuration, up to what HTTP/2 and gRPC can carry",
        arguments: [(8, 45, 65536, 3_000_000), (2_147_483_647, 1, 4_294_967_295, 1)])
    func limitsReachConfiguration(streams: Int, idleSeconds: Int, requestBytes: Int, decodedBytes: Int) throws {
        let command = try #require(
            try CommandRunner.parse([
                "serve", "--no-auth", "--max-concurrent-streams", "\(streams)", "--idle-timeout", "\(idleSeconds)",
                "--max-request-size", "\(requestBytes)", "--max-decoded-request-size", "\(decodedBytes)",
            ]) as? ServeCommand)
        let configuration = try command.emulatorConfiguration()
        #expect(configuration.maxConcurrentStreamsPerConnection == streams)
        #expect(configuration.connectionIdleTimeout == .seconds(idleSeconds))
        #expect(configuration.maxRequestMessageSize == requestBytes)
        #expect(configuration.maxDecodedRequestSize == decodedBytes)
    }

    @Test("serve without limit options keeps the configuration's own: 100 streams, 5 minutes, 1 MiB, 64 MiB")
    func defaultLimits() throws {
        let command = try #require(try CommandRunner.parse(["serve", "--no-auth"]) as? ServeCommand)
        let configuration = try command.emulatorConfiguration()
        let defaults = EmulatorConfiguration(accessPolicy: .noAuth)
        #expect(configuration.maxConcurrentStreamsPerConnection == defaults.maxConcurrentStreamsPerConnection)
        #expect(configuration.connectionIdleTimeout == defaults.connectionIdleTimeout)
        #expect(configuration.maxRequestMessageSize == defaults.maxRequestMessageSize)
        #expect(configuration.maxDecodedRequestSize == defaults.maxDecodedRequestSize)
        #expect(configuration.maxConcurrentStreamsPerConnection == 100)
        #expect(configuration.connectionIdleTimeout == .seconds(300))
        #expect(configuration.maxRequestMessageSize == 1_048_576)
        #expect(configuration.maxDecodedRequestSize == 67_108_864)
    }

    @Test(
        "serve refuses a limit that is zero, negative, too large or not a number, naming the option",
        arguments: [
            (["--max-concurrent-streams", "0"], "--max-concurrent-streams must be 1 to 2147483647"),
            (["--max-concurrent-streams=-4"], "--max-concurrent-streams must be 1 to 2147483647"),
            (["--max-concurrent-streams", "2147483648"], "--max-concurrent-streams must be 1 to 2147483647"),
            (["--max-concurrent-streams", "many"], "The value 'many' is invalid for '--max-concurrent-streams <n>'"),
            (["--idle-timeout", "0"], "--idle-timeout must be at least 1 second"),
            (["--idle-timeout=-300"], "--idle-timeout must be at least 1 second"),
            (["--idle-timeout", "1.5"], "The value '1.5' is invalid for '--idle-timeout <seconds>'"),
            (["--max-request-size", "0"], "--max-request-size must be 1 to 4294967295 bytes"),
            (["--max-request-size=-1"], "--max-request-size must be 1 to 4294967295 bytes"),
            (["--max-request-size", "4294967296"], "--max-request-size must be 1 to 4294967295 bytes"),
            (["--max-request-size", "1MiB"], "The value '1MiB' is invalid for '--max-request-size <bytes>'"),
            (["--max-decoded-request-size", "0"], "--max-decoded-request-size must be at least 1 byte"),
            (["--max-decoded-request-size=-64"], "--max-decoded-request-size must be at least 1 byte"),
            (
                ["--max-decoded-request-size", ""],
                "The value '' is invalid for '--max-decoded-request-size <bytes>'"
            ),
        ])
    func rejections(arguments: [String], message: String) throws {
        do {
            _ = try CommandRunner.parse(["serve", "--no-auth"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            let report = CommandRunner.report(for: error)
            #expect(report.message == message)
            #expect(report.exitCode == 64)
        }
    }
}
