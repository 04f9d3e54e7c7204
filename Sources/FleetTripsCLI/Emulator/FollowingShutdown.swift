import ServiceLifecycle
import Synchronization
import TripTracking

/// Ends a demo's following when its service group shuts down: a signal stops the emulator, and a
/// following left running would retry the stopped emulator for ever.
///
/// A service of the group that waits for the graceful shutdown and then shuts down the
/// `TripService` the demo follows with, which ends its trips' events, or the service group that
/// serves its pages (a process's signals reach one group only). What to shut down is made only once
/// the client is, after the group started, so it is handed over when it exists; one handed over
/// after the shutdown is shut down at once.
final class FollowingShutdown: Service, Sendable {
    private struct State {
        var isShuttingDown = false
        var shutDown: (@Sendable () async -> Void)?
    }

    private let state = Mutex(State())

    /// A service with nothing to shut down yet.
    init() {}

    /// Waits for the group's graceful shutdown, then shuts the following down.
    func run() async throws {
        try await gracefulShutdown()
        let shutDown = state.withLock { state in
            state.isShuttingDown = true
            return state.shutDown
        }
        await shutDown?()
    }

    /// Whether the group has begun its graceful shutdown (a signal, or the demo's end), so that a
    /// following it ended is no failure.
    var isShuttingDown: Bool { state.withLock { $0.isShuttingDown } }

    /// Hands over the `TripService` to shut down with the group.
    func follow(_ service: TripService) {
        if hand({ service.beginGracefulShutdown() }) { service.beginGracefulShutdown() }
    }

    /// Hands over a service group (the pages') to shut down gracefully with this one.
    func relay(to group: ServiceGroup) async {
        if hand({ await group.triggerGracefulShutdown() }) { await group.triggerGracefulShutdown() }
    }

    /// Keeps `shutDown` for the group's shutdown; true when that has begun already, and the caller
    /// must shut down at once.
    private func hand(_ shutDown: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            state.shutDown = shutDown
            return state.isShuttingDown
        }
    }
}
