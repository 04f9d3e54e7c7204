import NIOCore
import Synchronization

/// The wait of a refresh loop between two refreshes: resumed by its timer, or earlier when the
/// model wants a refresh now, changes its interval, stops, or its task is cancelled. Waking is
/// idempotent, so whoever gets to it first resumes the loop and the others do nothing.
final class RefreshSleeper: Sendable {
    private struct Parts {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: Scheduled<Void>?
    }

    private let parts: Mutex<Parts>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        parts = Mutex(Parts(continuation: continuation))
    }

    /// Keeps the timer so that an early wake can cancel it; cancels it at once when the wake came
    /// first.
    func attach(_ timer: Scheduled<Void>) {
        let alreadyWoken = parts.withLock { parts -> Bool in
            guard parts.continuation != nil else { return true }
            parts.timer = timer
            return false
        }
        if alreadyWoken { timer.cancel() }
    }

    /// Resumes the loop, once.
    func wake() {
        let (continuation, timer) = parts.withLock { parts in
            defer { parts = Parts() }
            return (parts.continuation, parts.timer)
        }
        timer?.cancel()
        continuation?.resume()
    }
}
