import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import Synchronization

/// Applies a ``FaultPlan`` to calls: counts them, fails the chosen ones, delays, rate-limits.
/// The plan may change while calls arrive (``FleetEngineEmulator/setFaultPlan(_:)``); each call
/// follows the plan it found when it arrived.
final class FaultInjector: Sendable {
    private struct Current {
        var plan: FaultPlan
        var limiter: RateLimiter?
    }

    private let current: Mutex<Current>
    private let calls = Atomic<Int>(0)

    init(plan: FaultPlan) {
        current = Mutex(Current(plan: plan, limiter: plan.queriesPerSecond.map { RateLimiter(queriesPerSecond: $0) }))
    }

    /// The plan calls follow now.
    var plan: FaultPlan { current.withLock { $0.plan } }

    /// Replaces the plan from the next call on. A rate limit that stays the same keeps its callers'
    /// buckets; a new one starts them full.
    func setPlan(_ plan: FaultPlan) {
        current.withLock { current in
            if plan.queriesPerSecond != current.plan.queriesPerSecond {
                current.limiter = plan.queriesPerSecond.map { RateLimiter(queriesPerSecond: $0) }
            }
            current.plan = plan
        }
    }

    /// How many calls have arrived, of every method.
    var callCount: Int { calls.load(ordering: .relaxed) }

    /// What the plan asks of one call: its number, and how long it waits before it is carried out.
    struct CallFaults: Sendable {
        var number: Int
        var delay: Duration
    }

    /// Counts the call, and fails it when it is one of every ``FaultPlan/failEvery``.
    ///
    /// - Returns: the call's number and the delay the plan gives it (``delay(_:cancellation:)``).
    func injectFailure() throws(FleetEngineError) -> CallFaults {
        let number = calls.add(1, ordering: .relaxed).newValue
        let plan = self.plan
        if let every = plan.failEvery, every > 0, number % every == 0 {
            throw FleetEngineError(
                code: plan.failCode,
                message: "injected fault: call \(number) fails with \(plan.failCode) (one call in \(every) fails)")
        }
        let delayed = plan.delayEvery.map { $0 > 0 && number % $0 == 0 } ?? true
        return CallFaults(number: number, delay: delayed ? plan.delay : .zero)
    }

    /// Waits the plan's delay, or until the call is cancelled: its client reset the stream, its
    /// `grpc-timeout` ran out, or the emulator began shutting down. gRPC says so through
    /// `cancellation`, not by cancelling the handler's task, so a plain sleep would hold the call,
    /// and a graceful shutdown waiting for it, for the whole delay.
    ///
    /// - Throws: CANCELLED when the call was cancelled before or during the wait: it is not
    ///   carried out, as its client no longer waits for it.
    func delay(_ call: CallFaults, cancellation: ServerContext.RPCCancellationHandle) async throws(FleetEngineError) {
        let delay = call.delay
        guard delay > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: delay) }
            group.addTask { try? await cancellation.cancelled }
            await group.next()
            group.cancelAll()
        }
        if cancellation.isCancelled {
            throw FleetEngineError(
                code: .cancelled,
                message: "the call was cancelled during the injected delay of \(delay), so it was not carried out")
        }
    }

    /// Takes one call from the caller's rate budget.
    func admit(caller: String) throws(FleetEngineError) {
        try current.withLock { $0.limiter }?.admit(caller: caller)
    }

    /// The call number at which ``FaultPlan/dropConnectionAtCall`` closes each connection, now.
    var dropConnectionAtCall: Int? { current.withLock { $0.plan.dropConnectionAtCall } }
}
