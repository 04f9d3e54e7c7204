import NIOCore
import Synchronization

/// Lets the refreshes of one service's models start within its ``RequestBudget``: a token bucket
/// that fills at the budget's rate and holds a second's worth, and, when it is empty, two queues of
/// refreshes waiting for their turn (the urgent ones first, three turns in four).
///
/// A refresh that is due asks ``request(_:urgent:)``; with a call to spare it starts at
/// once (the same turn of the event loop, as without a budget), otherwise it waits in line, and a
/// timer on the event loop lets the line go at the budget's rate, a few at a time (one wake-up per
/// ``RefreshTimers/tick`` at most). The line is first in, first out, and a refreshed trip joins its
/// end again after its interval, so when the trips ask for more than the budget every trip's
/// interval stretches alike, to about the number of trips divided by the rate.
///
/// The rate adapts to the server: a RESOURCE_EXHAUSTED halves it (once per pause, however many
/// calls of one burst are refused) and pauses the line for the delay the server asked for, at most
/// ``maximumPause``; each success then adds back a twentieth of the budget per second since the
/// last change, up to the budget.
final class RefreshAdmission<Refresh: Sendable>: Sendable {
    private struct State {
        var budget: RequestBudget
        /// The rate the server's refusals brought the budget's down to, calls per second; nil at the
        /// budget's own.
        var throttledRate: Double?
        var tokens: Double
        var refilled: NIODeadline
        var pausedUntil: NIODeadline = .uptimeNanoseconds(0)
        var lastChange: NIODeadline
        var urgent = CircularBuffer<Refresh>()
        var regular = CircularBuffer<Refresh>()
        /// Urgent refreshes let go in a row while regular ones waited.
        var urgentInARow = 0
        var drain: Scheduled<Void>?

        /// The rate refreshes may start at now, calls per second; nil for no limit.
        var rate: Double? {
            guard let budgetRate = budget.callsPerSecond else { return nil }
            return min(budgetRate, throttledRate ?? budgetRate)
        }

        /// How many calls the bucket holds at most: a second's worth, at least one.
        var capacity: Double { max(1, rate ?? 1) }

        var waitingCount: Int { urgent.count + regular.count }

        mutating func refill(at now: NIODeadline) {
            guard let rate else { return }
            tokens = min(capacity, tokens + RefreshAdmission.seconds(from: refilled, to: now) * rate)
            refilled = now
        }

        /// The next refresh in line: urgent first, but the fourth turn in a row goes to a regular
        /// one when one waits.
        mutating func next() -> Refresh? {
            if !urgent.isEmpty, regular.isEmpty || urgentInARow < 3 {
                urgentInARow = regular.isEmpty ? 0 : urgentInARow + 1
                return urgent.removeFirst()
            }
            urgentInARow = 0
            return regular.isEmpty ? nil : regular.removeFirst()
        }
    }

    /// The longest pause a server's RetryInfo can impose on all refreshes: the longest it can
    /// impose on one trip's (``TripModel/maximumServerDelay``, a minute).
    static var maximumPause: Duration { TripModel.maximumServerDelay }
    /// The pause after a RESOURCE_EXHAUSTED that named no delay.
    static var defaultPause: Duration { .seconds(1) }

    private let eventLoop: any EventLoop
    private let start: @Sendable (Refresh) -> Void
    private let isWanted: @Sendable (Refresh) -> Bool
    private let state: Mutex<State>

    /// - Parameters:
    ///   - eventLoop: where the line's timer runs, and whose clock (`EventLoop.now`) the bucket
    ///     fills by.
    ///   - isWanted: whether a refresh that waited is still wanted (its following did not end).
    ///   - start: starts a refresh that was let through.
    init(
        budget: RequestBudget, eventLoop: any EventLoop, isWanted: @escaping @Sendable (Refresh) -> Bool,
        start: @escaping @Sendable (Refresh) -> Void
    ) {
        self.eventLoop = eventLoop
        self.isWanted = isWanted
        self.start = start
        let now = eventLoop.now
        self.state = Mutex(State(budget: budget, tokens: 1, refilled: now, lastChange: now))
        state.withLock { $0.tokens = $0.capacity }
    }

    /// The budget; a change applies at once to the refreshes waiting.
    var budget: RequestBudget {
        get { state.withLock { $0.budget } }
        set {
            let released = state.withLock { state -> [Refresh] in
                state.refill(at: eventLoop.now)
                state.budget = newValue
                if let throttled = state.throttledRate, let budgetRate = newValue.callsPerSecond,
                    throttled >= budgetRate
                {
                    state.throttledRate = nil
                }
                state.tokens = min(state.tokens, state.capacity)
                state.drain?.cancel()
                state.drain = nil
                return letGo(&state, at: eventLoop.now)
            }
            for refresh in released { start(refresh) }
        }
    }

    /// The rate refreshes may start at now, in calls per minute (the budget's, or lower after the
    /// server refused calls); nil without a budget.
    var callsPerMinute: Double? { state.withLock { $0.rate.map { $0 * 60 } } }

    /// How many due refreshes wait for their turn.
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    /// A refresh is due: it starts now when the budget allows, or waits its turn.
    func request(_ refresh: Refresh, urgent: Bool) {
        let startsNow = state.withLock { state -> Bool in
            guard state.budget.callsPerMinute != nil else { return true }
            let now = eventLoop.now
            state.refill(at: now)
            if state.waitingCount == 0, now >= state.pausedUntil, state.tokens >= 1 {
                state.tokens -= 1
                return true
            }
            if urgent { state.urgent.append(refresh) } else { state.regular.append(refresh) }
            scheduleDrain(&state, at: now)
            return false
        }
        if startsNow { start(refresh) }
    }

    /// A refresh's call succeeded: the rate climbs back towards the budget.
    func succeeded() {
        state.withLock { state in
            guard let throttled = state.throttledRate, let budgetRate = state.budget.callsPerSecond else { return }
            let now = eventLoop.now
            // At most a second counts per success, so a long quiet spell does not jump the rate back.
            let elapsed = min(1, Self.seconds(from: state.lastChange, to: now))
            state.lastChange = now
            let raised = throttled + budgetRate / 20 * elapsed
            state.throttledRate = raised >= budgetRate ? nil : raised
        }
    }

    /// The server refused a refresh's call with RESOURCE_EXHAUSTED, asking to wait `retryDelay`.
    func throttled(retryDelay: Duration?) {
        let pause = min(retryDelay ?? Self.defaultPause, Self.maximumPause)
        state.withLock { state in
            guard let rate = state.rate else { return }
            let now = eventLoop.now
            // The refusals of calls that started before the last pause ended are that burst's: the
            // rate halves once for them.
            if now >= state.pausedUntil {
                state.throttledRate = max(rate / 2, Self.minimumRate)
                state.lastChange = now
            }
            state.tokens = 0
            state.refilled = now
            state.pausedUntil = max(state.pausedUntil, now + TimeAmount(pause))
        }
    }

    /// The seconds from `start` to `end`, none when `end` is not later.
    private static func seconds(from start: NIODeadline, to end: NIODeadline) -> Double {
        Double(max(0, (end - start).nanoseconds)) / 1e9
    }

    /// The lowest rate refusals bring the budget down to: one call a minute.
    static var minimumRate: Double { 1.0 / 60 }

    /// Lets go of the refreshes the bucket has calls for, and sets the timer for the rest.
    private func letGo(_ state: inout State, at now: NIODeadline) -> [Refresh] {
        var released: [Refresh] = []
        guard state.budget.callsPerMinute != nil else {
            while let waiting = state.next() { released.append(waiting) }
            return released
        }
        guard now >= state.pausedUntil else {
            scheduleDrain(&state, at: now)
            return released
        }
        state.refill(at: now)
        while state.tokens >= 1, let waiting = state.next() {
            // A refresh whose following ended while it waited no longer needs a call.
            guard isWanted(waiting) else { continue }
            state.tokens -= 1
            released.append(waiting)
        }
        if state.waitingCount > 0 { scheduleDrain(&state, at: now) }
        return released
    }

    /// Sets the timer that lets the line go on, when none is set: when the next call's token will
    /// be there (or the pause ends), and no sooner than a tick from now, so that the line goes a
    /// few refreshes at a time.
    private func scheduleDrain(_ state: inout State, at now: NIODeadline) {
        guard state.drain == nil, let rate = state.rate else { return }
        let untilToken = TimeAmount.nanoseconds(Int64(max(0, 1 - state.tokens) / rate * 1e9))
        let deadline = max(now + untilToken, state.pausedUntil, now + .nanoseconds(Int64(RefreshTimers.tick)))
        state.drain = eventLoop.scheduleTask(deadline: deadline) { () -> Void in self.drain() }
    }

    private func drain() {
        let released = state.withLock { state -> [Refresh] in
            state.drain = nil
            return letGo(&state, at: eventLoop.now)
        }
        for refresh in released { start(refresh) }
    }
}
