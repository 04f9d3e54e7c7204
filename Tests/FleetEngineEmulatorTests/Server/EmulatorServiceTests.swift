import FleetEngineEmulator
import FleetEngineTestSupport
import Logging
import ServiceLifecycle
import Testing

@Suite("The emulator as a service of a ServiceGroup")
struct EmulatorServiceTests {
    @Test("the group's graceful shutdown stops the emulator, which logs its start, address and stop")
    func gracefulShutdownThroughServiceGroup() async throws {
        let log = RecordingLogHandler.Records()
        var logger = Logger(label: "emulator-test") { _ in RecordingLogHandler(records: log) }
        logger.logLevel = .trace
        let emulator = try FleetEngineEmulator(
            configuration: EmulatorConfiguration(accessPolicy: .noAuth), logger: logger)
        let group = ServiceGroup(services: [emulator], logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
        let port = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try await emulator.listeningPort()
            await group.triggerGracefulShutdown()
            // The group returns only once the emulator's run() has: no sleep, no timing.
            try await tasks.waitForAll()
            return port
        }

        let error = await #expect(throws: EmulatorError.self) { try await emulator.listeningPort() }
        #expect(error?.code == .notListening)
        let entries = log.all
        #expect(entries.first?.message == "emulator starting")
        #expect(entries.first?.level == .debug)
        #expect(entries.last?.message == "emulator stopped")
        #expect(entries.last?.level == .info)
        let listening = entries.filter { $0.message == "emulator listening" }
        #expect(listening.count == 1)
        #expect(listening.first?.level == .info)
        #expect(listening.first?.metadata["address"] == "127.0.0.1:\(port)")
        #expect(entries.contains { $0.message.hasPrefix("emulator shutting down gracefully") && $0.level == .debug })
        #expect(!entries.contains { $0.level >= .warning })
    }

    @Test("an emulator shut down before it serves: run() fails at once, logging why, and never listens")
    func shutdownBeforeServing() async throws {
        let log = RecordingLogHandler.Records()
        let logger = Logger(label: "emulator-test") { _ in RecordingLogHandler(records: log) }
        let emulator = try FleetEngineEmulator(
            configuration: EmulatorConfiguration(accessPolicy: .noAuth), logger: logger)
        emulator.beginGracefulShutdown()
        await #expect(throws: (any Error).self) { try await emulator.run() }
        #expect(log.all.map(\.message) == ["emulator starting", "emulator failed"])
    }

    @Test("an emulator that cannot listen fails the group and logs why at error level")
    func failureIsLogged() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { first in
            var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
            configuration.port = try await first.listeningPort()
            let log = RecordingLogHandler.Records()
            let logger = Logger(label: "emulator-test") { _ in RecordingLogHandler(records: log) }
            let second = try FleetEngineEmulator(configuration: configuration, logger: logger)
            let group = ServiceGroup(
                services: [second], logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
            await #expect(throws: (any Error).self) { try await group.run() }
            let failures = log.all.filter { $0.level == .error }
            #expect(failures.map(\.message) == ["emulator failed"])
            #expect(failures.first?.metadata["error"]?.isEmpty == false)
            #expect(!log.all.contains { $0.message == "emulator listening" })
        }
    }
}
