import FleetEngineStatus
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

    /// Waits the plan's delay.
    func delay() async {
        guard plan.delay > .zero else { return }
        try? await Task.sleep(for: plan.delay)
    }

    /// Takes one call from the caller's rate budget.
    func admit(caller: String) throws(FleetEngineError) {
        try limiter?.admit(caller: caller)
    }
}
