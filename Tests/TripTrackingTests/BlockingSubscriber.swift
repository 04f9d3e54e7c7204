import Dispatch
import FleetEngineCodec
import Synchronization
import TripTracking

/// A subscriber whose first "trip updated" call blocks its thread until ``release()`` (or, so that
/// a test that goes wrong cannot hang, until `bound` has passed), as a subscriber doing blocking
/// work would. ``entered()`` returns once that call has begun.
final class BlockingSubscriber: TripModelSubscriber {
    private let gate = DispatchSemaphore(value: 0)
    private let bound: DispatchTimeInterval
    private let state = Mutex<(hasEntered: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let outcome = Mutex<DispatchTimeoutResult?>(nil)

    init(bound: DispatchTimeInterval = .seconds(30)) {
        self.bound = bound
    }

    /// How the blocked call ended: `.success` when released, `.timedOut` when the bound passed;
    /// nil while it has not ended.
    var releaseResult: DispatchTimeoutResult? { outcome.withLock { $0 } }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard !state.hasEntered else { return nil }
            state.hasEntered = true
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume() }
        let result = gate.wait(timeout: .now() + bound)
        outcome.withLock { $0 = result }
    }

    /// Returns once the first "trip updated" call has begun blocking.
    func entered() async {
        await withCheckedContinuation { continuation in
            let hasEntered = state.withLock { state in
                if !state.hasEntered { state.waiters.append(continuation) }
                return state.hasEntered
            }
            if hasEntered { continuation.resume() }
        }
    }

    /// Lets the blocked call return.
    func release() {
        gate.signal()
    }
}
