import FleetEngineEmulator
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs an emulator as `serve` and `demo` do: in a `ServiceGroup` that shuts it down gracefully on
/// SIGTERM or SIGINT, letting the calls in flight finish, while the command does its own work.
struct EmulatorServiceGroup {
    /// The emulator the group runs.
    let emulator: FleetEngineEmulator
    /// Services that stop before the emulator in a graceful shutdown (a group stops its services
    /// last to first), such as a demo's ``FollowingShutdown``.
    var servicesStoppingFirst: [any Service] = []
    /// Where the emulator and the group log.
    let logger: Logger

    /// Runs the group while `body` runs in the calling task: until a signal when
    /// `stoppingAfterBody` is false (`serve`), or until `body` ends, then shuts the group down
    /// gracefully (`demo`). A `body` that throws shuts the group down gracefully too.
    ///
    /// The body stays in the calling task, rather than becoming a service, so that it can write to
    /// the command's `inout` outputs; it learns of a signal only through the services it shares
    /// with the group.
    ///
    /// - Throws: what `body` throws, or else what the group (the emulator) throws.
    func run(stoppingAfterBody: Bool, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(
            services: [emulator as any Service] + servicesStoppingFirst,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                // The body's error says more than the group's: an emulator that could not listen
                // fails both, and the body's names the address.
                try? await tasks.waitForAll()
                throw error
            }
            if stoppingAfterBody { await group.triggerGracefulShutdown() }
            try await tasks.waitForAll()
        }
    }
}
