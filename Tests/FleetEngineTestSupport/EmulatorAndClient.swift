public import FleetEngineClient
public import FleetEngineCodec
public import FleetEngineEmulator
public import Logging
public import Metrics

/// Runs `body` with an emulator on 127.0.0.1 (port 0) and a client of ours connected to it in
/// plaintext (``LoopbackClient/configuration(port:)``, then `configure`).
///
/// The client connects at its first call, so `body` may set the emulator up (seed trips, move its
/// clock) before calling.
public func withEmulatorAndClient<Result: Sendable>(
    _ emulatorConfiguration: EmulatorConfiguration = EmulatorConfiguration(accessPolicy: .noAuth),
    time: any TimeSource = SystemTimeSource(),
    tokenProvider: any TokenProvider = NoTokenProvider(),
    logger: Logger = Logger(label: "fleet-engine-client", factory: { _ in SwiftLogNoOpLogHandler() }),
    metricsFactory: any MetricsFactory = MetricsSystem.factory,
    configure: @Sendable (inout ClientConfiguration) -> Void = { _ in },
    _ body: @Sendable (FleetEngineEmulator, FleetEngineClient) async throws -> Result
) async throws -> Result {
    try await withFleetEngineEmulator(emulatorConfiguration, time: time) { emulator in
        var configuration = LoopbackClient.configuration(port: try await emulator.listeningPort())
        configure(&configuration)
        return try await withFleetEngineClient(
            configuration: configuration, tokenProvider: tokenProvider, logger: logger, metricsFactory: metricsFactory
        ) { client in
            try await body(emulator, client)
        }
    }
}
