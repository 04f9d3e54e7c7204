import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import Synchronization

/// Applies a ``FaultPlan`` to calls: counts them, fails the chosen ones, delays, rate-limits.
final class FaultInjector: Sendable {
    let plan: FaultPlan
    private let calls = Atomic<Int>(0)
    private let limiter: RateLimiter?

    init(plan: FaultPlan) {
        self.plan = plan
        self.limiter = plan.queriesPerSecond.map { RateLimiter(queriesPerSecond: $0) }
    }

    /// How many calls have arrived, of every method.
    var callCount: Int { calls.load(ordering: .relaxed) }

    /// Counts the call, and fails it when it is one of every ``FaultPlan/failEvery``.
    func injectFailure() throws(FleetEngineError) {
        let number = calls.add(1, ordering: .relaxed).newValue
        guard let every = plan.failEvery, every > 0, number % every == 0 else { return }
        throw FleetEngineError(
            code: plan.failCode,
            message: "injected fault: call \(number) fails with \(plan.failCode) (one call in \(every) fails)")
    }

    /// Waits the plan's delay, or until the call is cancelled: its client reset the stream, its
    /// `grpc-timeout` ran out, or the emulator began shutting down. gRPC says so through
    /// `cancellation`, not by cancelling the handler's task, so a plain sleep would hold the call,
    /// and a graceful shutdown waiting for it, for the whole delay.
    ///
    /// - Throws: CANCELLED when the call was cancelled before or during the wait: it is not
    ///   carried out, as its client no longer waits for it.
    func delay(cancellation: ServerContext.RPCCancellationHandle) async throws(FleetEngineError) {
        guard plan.delay > .zero else { return }
        let delay = plan.delay
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
        try limiter?.admit(caller: caller)
    }
}
