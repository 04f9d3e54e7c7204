import Synchronization

/// How an emulator's ``FleetEngineEmulator/run()`` ended, for whoever needs the reason later.
///
/// When the transport cannot listen (the port is taken, the address is not this machine's), it
/// reports only that it is not listening; the reason is the error `run()` throws. This keeps that
/// error so ``FleetEngineEmulator/listeningPort()`` can say why.
final class RunOutcome: Sendable {
    private enum State {
        case running(waiters: [CheckedContinuation<(any Error)?, Never>])
        case finished((any Error)?)
    }

    private let state = Mutex<State>(.running(waiters: []))

    /// Records that `run()` ended, with its error or nil, and wakes those waiting. Only the first
    /// ending counts (a second `run()` fails at once and says nothing about the first).
    func finish(_ error: (any Error)?) {
        let waiters = state.withLock { state -> [CheckedContinuation<(any Error)?, Never>] in
            guard case .running(let waiters) = state else { return [] }
            state = .finished(error)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

    /// The error `run()` ended with (nil when it ended without one), once it has ended.
    func ended() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state -> (any Error)?? in
                switch state {
                case .running(var waiters):
                    waiters.append(continuation)
                    state = .running(waiters: waiters)
                    return nil
                case .finished(let error):
                    return .some(error)
                }
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }
}
