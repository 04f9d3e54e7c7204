import FleetEngineClient
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Logging
import Testing

/// A server that asks for an hour before a retry gets at most the policy's ceiling, and the cut is
/// logged. The tests lower the ceiling to 10 ms, so that the retries come at once.
@Suite("A server's retry delay is cut to RetryPolicy.maximumServerDelay, with a warning")
struct ServerRetryDelayCeilingTests {
    static let ceiling: Duration = .milliseconds(10)

    @Test("the default ceiling is a minute, and Google's policy and no retries have it")
    func defaultCeiling() {
        #expect(RetryPolicy.defaultMaximumServerDelay == .seconds(60))
        #expect(RetryPolicy.fleetEngine.maximumServerDelay == .seconds(60))
        #expect(RetryPolicy.none.maximumServerDelay == .seconds(60))
    }

    @Test("a negative ceiling is refused with INVALID_ARGUMENT when the client is made")
    func negativeCeiling() {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.retryPolicy.maximumServerDelay = .seconds(-1)
        let error = #expect(throws: FleetEngineError.self) {
            try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "retryPolicy.maximumServerDelay -1.0 seconds is negative")
    }

    @Test("grpc-retry-pushback-ms of an hour: each retry waits the ceiling, every cut is logged, all attempts are made")
    func pushbackOfAnHour() async throws {
        let server = try await ScriptedHTTP2Server { _ in
            .headersOnly(
                status: "200",
                fields: [
                    ("content-type", "application/grpc"), ("grpc-status", "14"), ("grpc-message", "busy"),
                    ("grpc-retry-pushback-ms", "3600000"),
                ])
        }
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy.maximumServerDelay = Self.ceiling
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        do {
            try await withFleetEngineClient(
                configuration: configuration, tokenProvider: NoTokenProvider(), logger: logger
            ) { client in
                let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("t")) }
                #expect(error?.code == .unavailable)
                #expect(error?.message == "busy")
            }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
        #expect(server.callCount == RetryPolicy.fleetEngine.maxAttempts)
        let cuts = records.all.filter { $0.level == .warning }
        #expect(cuts.count == RetryPolicy.fleetEngine.maxAttempts - 1)
        for cut in cuts {
            #expect(cut.message == "the server's retry delay is longer than the policy allows; waiting the maximum")
            #expect(cut.metadata["source"] == "grpc-retry-pushback-ms")
            #expect(cut.metadata["asked"] == "3600.0 seconds")
            #expect(cut.metadata["waiting"] == "0.01 seconds")
            #expect(cut.metadata["method"] == "/maps.fleetengine.v1.TripService/GetTrip")
        }
    }

    @Test("the emulator's rate limit asks (RetryInfo) for an hour: the retry comes after the ceiling, logged once")
    func retryInfoOfAnHour() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        // One call an hour: the first is let through, the next is refused with a RetryInfo of
        // almost an hour.
        emulator.faults.queriesPerSecond = 1.0 / 3600
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        try await withEmulatorAndClient(
            emulator, logger: logger,
            configure: {
                $0.retryPolicy = RetryPolicy(
                    maxAttempts: 2, backoff: Backoff(initial: .zero, multiplier: 1, maximum: .zero),
                    retryableCodes: [.resourceExhausted], maximumServerDelay: Self.ceiling)
            }
        ) { emulator, client in
            _ = try emulator.service.createTrip(Fixtures.create("limited"))
            _ = try await client.getTrip(named: Fixtures.name("limited"))
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("limited")) }
            #expect(error?.code == .resourceExhausted)
            let asked = try #require(error?.retryDelay)
            #expect(asked > .seconds(3500))
        }
        let cuts = records.all.filter { $0.level == .warning }
        #expect(cuts.count == 1)
        #expect(cuts.first?.metadata["source"] == "RetryInfo")
        #expect(cuts.first?.metadata["waiting"] == "0.01 seconds")
        let asked = try #require(cuts.first?.metadata["asked"]?.split(separator: " ").first.flatMap { Double($0) })
        #expect(asked > 3500 && asked <= 3600)
    }
}
