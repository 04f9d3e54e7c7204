import FleetEngineCodec
import FleetEngineStatus

extension TripModel {
    /// Everything about the model that changes, behind its mutex.
    struct State {
        var options: TripModelOptions
        /// The service's timers, where ``timer`` waits.
        let timers: RefreshTimers
        var phase: TripModelState = .idle
        /// Bumped whenever following starts or stops, so a refresh loop of an earlier following
        /// sees that it is no longer wanted and delivers nothing more.
        var generation: UInt64 = 0
        var subscribers: [(key: ObjectIdentifier, subscriber: any TripModelSubscriber)] = []
        var streams: [(id: Int, continuation: TripUpdates.Continuation)] = []
        var nextStreamID = 0
        /// The whole trip last delivered, and its parts, which the next refresh is compared with.
        var trip: Trip?
        var parts: TripParts = .none
        /// The view `trip` was fetched with.
        var heldView: TripView?
        /// The timer of the next refresh, while no refresh is under way.
        var timer: PendingRefresh?
        /// Server or network failures in a row, for the backoff.
        var serverFailures = 0
        /// A task waiting for a refresh or the end of following, by the id that finds it again.
        typealias Waiter = (id: UInt64, continuation: CheckedContinuation<Void, Never>)

        var refreshWaiters: [Waiter] = []
        /// The ``refresh()`` callers whom a refresh under way serves: it resumes them when it ends.
        var servedWaiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        /// The calls of the refreshes under way, cancelled when their following ends.
        var callsInFlight: [CallInFlight] = []
        /// When the last refresh of this following began, and how long before it the one before
        /// began (``TripModel/refreshInterval``).
        var lastRefreshStart: ContinuousClock.Instant?
        var refreshInterval: Duration?
        /// The refreshes under way (one, or one of an earlier following still finishing too).
        var refreshesRunning = 0
        /// The refreshes begun over every following (``TripModel/refreshCount``).
        var refreshCount = 0
        /// How following ended, for the last refresh under way to tell the subscribers after its
        /// own callbacks, when following stopped while it ran.
        var pendingEnd: TripModelState?
        /// What an iterator made after following stopped ends with, when not that the service
        /// stopped.
        var stopError: FleetEngineError?

        init(options: TripModelOptions, timers: RefreshTimers) {
            self.options = options
            self.timers = timers
        }

        var listenerCount: Int { subscribers.count + streams.count }

        /// After a subscriber or iterator was added: the generation to start following with, when
        /// this is the first one of an idle model.
        mutating func listenerAdded() -> UInt64? {
            guard phase == .idle, listenerCount == 1 else { return nil }
            generation &+= 1
            phase = .following
            trip = nil
            parts = .none
            heldView = nil
            // The backoff belongs to one following: a new one starts from the first delay.
            serverFailures = 0
            lastRefreshStart = nil
            refreshInterval = nil
            return generation
        }

        /// After a subscriber or iterator left: when it was the last, following stops.
        mutating func listenerRemoved() -> Wakeup {
            guard phase == .following, listenerCount == 0 else { return Wakeup() }
            phase = .idle
            generation &+= 1
            _ = takeTimer()
            return Wakeup(waiters: takeWaiters(), cancelled: takeCallsInFlight())
        }

        /// Ends following for good (`phase` is ``TripModelState/ended(_:)`` or
        /// ``TripModelState/stopped``): the streams to finish and who to wake.
        mutating func finish(as final: TripModelState) -> (Wakeup, [TripUpdates.Continuation]) {
            phase = final
            generation &+= 1
            let continuations = streams.map(\.continuation)
            streams = []
            _ = takeTimer()
            return (Wakeup(waiters: takeWaiters(), cancelled: takeCallsInFlight()), continuations)
        }

        /// Takes the waiting refresh out, its timer out of the service's timers too.
        mutating func takeTimer() -> PendingRefresh? {
            defer { timer = nil }
            if let timer { timers.cancel(timer.timer) }
            return timer
        }

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { refreshWaiters = [] }
            return refreshWaiters.map(\.continuation)
        }

        /// Moves the waiting ``refresh()`` callers to those the refresh starting now serves, and
        /// returns their ids.
        mutating func serveWaiters() -> [UInt64] {
            defer {
                servedWaiters += refreshWaiters
                refreshWaiters = []
            }
            return refreshWaiters.map(\.id)
        }

        /// Takes the ``refresh()`` caller `id` out, waiting or served, when it is still there.
        mutating func removeWaiter(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
            if let index = refreshWaiters.firstIndex(where: { $0.id == id }) {
                return refreshWaiters.remove(at: index).continuation
            }
            if let index = servedWaiters.firstIndex(where: { $0.id == id }) {
                return servedWaiters.remove(at: index).continuation
            }
            return nil
        }

        /// Takes out the calls of the refreshes under way, whose following just ended.
        mutating func takeCallsInFlight() -> [CallInFlight] {
            defer { callsInFlight = [] }
            return callsInFlight
        }

        /// A refresh of the current following began at `now`.
        mutating func refreshBegan(at now: ContinuousClock.Instant) {
            if let lastRefreshStart { refreshInterval = now - lastRefreshStart }
            lastRefreshStart = now
        }

        /// Whether a refresh loop of `generation` should still run.
        func isCurrent(_ generation: UInt64) -> Bool {
            phase == .following && self.generation == generation
        }
    }

    /// The next refresh of a following, waiting for its time: no task exists for the trip while
    /// it waits, only an entry in the service's ``RefreshTimers``. Taking it out of the state
    /// (``State/takeTimer()``) takes it out of the timers.
    struct PendingRefresh {
        var timer: RefreshTimers.Timer
        var generation: UInt64
        /// Whence the wait is counted (when the last refresh began, or when its failure arrived)
        /// and the failure, from which the time of the next is worked out again when the interval
        /// changes.
        var from: ContinuousClock.Instant
        var failure: FailureWait?
    }

    /// What a failed refresh adds to the wait before the next.
    struct FailureWait: Sendable {
        /// The backoff after server or network failures in a row; nil after a client failure.
        var backoff: Duration?
        /// The wait the server asked for (a RetryInfo), if it did.
        var serverDelay: Duration?
    }

    /// Whom to resume once the lock is released.
    struct Wakeup {
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The calls to cancel: their following ended.
        var cancelled: [CallInFlight] = []

        func perform() {
            for call in cancelled { call.cancel() }
            for waiter in waiters { waiter.resume() }
        }
    }
}
