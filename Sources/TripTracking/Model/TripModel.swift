import FleetEngineClient
public import FleetEngineCodec
import FleetEngineStatus
import Logging
import Synchronization

/// One followed trip, vended by ``TripService/tripModel(for:)``: the same instance for the same
/// name, for as long as the service lives.
///
/// Register a ``TripModelSubscriber`` (or iterate ``updates``) to follow the trip: the first one
/// starts the refreshes, the last one leaving stops them. Each refresh asks for the trip with the
/// versions already held (``IncrementalTripFetch``), merges in what the server left out, and, when
/// something changed, fires "trip updated" with the changed ``TripPropertyFields`` and then one
/// event per changed part.
///
/// Failures: each failed refresh fires "update failed" with the typed error. After a server or
/// network failure (`ErrorFamily.serverOrNetwork`, already retried by the client within its
/// deadline) the next refresh is due after a backoff counted from when the failure arrived: half a
/// second at first, doubling with each such failure in a row (so past the refresh interval in a
/// long outage) up to a minute, or the interval when that is longer, and back to the interval after
/// a success; so following recovers by itself without pressing a server that is down. After a
/// client failure (a bad name, a trip that does not exist, a refused token) refreshes go on at the
/// normal interval, counted from the failure, so following recovers when the cause is fixed. After
/// any failure the next refresh waits at least 100 ms, whatever the interval, and at least as long
/// as the server asked (`FleetEngineError.retryDelay`, as RESOURCE_EXHAUSTED carries). A refused
/// token makes the client ask the token provider for a new one.
///
/// Following ends for good after a `COMPLETE` or `CANCELED` trip was delivered: ``modelState`` becomes
/// ``TripModelState/ended(_:)`` and every ``updates`` sequence finishes.
public final class TripModel: Sendable {
    /// The trip's full name, `providers/{provider_id}/trips/{trip_id}`.
    public let name: String
    let client: FleetEngineClient
    let timers: RefreshTimers
    let logger: Logger
    let admission: RefreshAdmission<RefreshStarts.Start>
    let state: Mutex<State>
    /// Why every refresh fails without asking the server: a trip of another provider than the
    /// service's.
    let providerMismatch: FleetEngineError?

    init(
        name: String,
        providerID: String,
        options: TripModelOptions,
        client: FleetEngineClient,
        timers: RefreshTimers,
        logger: Logger,
        admission: RefreshAdmission<RefreshStarts.Start>
    ) {
        self.name = name
        self.client = client
        self.timers = timers
        self.logger = logger
        self.admission = admission
        self.state = Mutex(State(options: options, timers: timers))
        if let parsed = try? TripName(parsing: name), parsed.providerID != providerID {
            providerMismatch = FleetEngineError(
                code: .invalidArgument,
                message: "\(name) belongs to provider \(parsed.providerID), not to this trip service's \(providerID)")
        } else {
            providerMismatch = nil
        }
    }

    /// The options; a change applies to the refresh after the current one (a new interval at once).
    public var options: TripModelOptions {
        get { state.withLock { $0.options } }
        set {
            let pending = state.withLock { state in
                state.options = newValue
                return state.takeTimer()
            }
            // Work the waiting refresh's time out again with the new interval.
            if let pending {
                scheduleNext(generation: pending.generation, from: pending.from, after: pending.failure)
            }
        }
    }

    /// Whether the trip is being followed, has ended, or is not followed.
    public var modelState: TripModelState {
        state.withLock { $0.phase }
    }

    /// The trip as last delivered (whole, merged from the incremental fetches); nil before the
    /// first successful refresh of the current following.
    public var trip: Trip? {
        state.withLock { $0.trip }
    }

    /// How long passed between the starts of the last two refreshes: the interval this trip
    /// actually gets. That is ``TripModelOptions/autoRefreshTimeInterval`` (to within a timer
    /// tick), or longer when the service's ``TripService/requestBudget`` stretched it, or a
    /// failure's backoff did; nil until two refreshes of the current following have begun.
    public var refreshInterval: Duration? {
        state.withLock { $0.refreshInterval }
    }

    /// How many refreshes this model has begun, over all its followings: each asks the server once
    /// (the client's own retries aside), whoever listens and however many do. A refresh that fails
    /// without asking (a trip of another provider) counts too.
    public var refreshCount: Int {
        state.withLock { $0.refreshCount }
    }

    /// The trip id: the last component of ``name``.
    public var tripID: String { Self.tripID(of: name) }

    /// Starts sending `subscriber` this trip's events; the first registration starts the refreshes.
    /// Registering a subscriber twice has no further effect. On a model whose following has ended
    /// or stopped the subscriber is not kept: it is told so at once
    /// (``TripModelSubscriber/tripModel(_:didEndFollowingWith:)``), as an ``updates`` iterator
    /// made then finishes at once. Once following has ended or stopped and the subscribers have
    /// been told, the model lets go of them, so a subscriber that holds its model does not keep
    /// the two alive.
    public func register(_ subscriber: any TripModelSubscriber) {
        let (start, over) = state.withLock { state -> (UInt64?, TripModelState?) in
            let key = ObjectIdentifier(subscriber)
            guard !state.subscribers.contains(where: { $0.key == key }) else { return (nil, nil) }
            switch state.phase {
            case .ended, .stopped: return (nil, state.phase)
            case .idle, .following: break
            }
            state.subscribers.append((key, subscriber))
            return (state.listenerAdded(), nil)
        }
        if let over { subscriber.tripModel(self, didEndFollowingWith: over) }
        if let start { requestRefresh(generation: start, urgent: true) }
    }

    /// Stops sending `subscriber` events; when nobody is left, the refreshes stop. Once this
    /// returns the subscriber is not called again (from inside one of its own callbacks too), but
    /// for a callback that another thread is making at that moment.
    public func unregister(_ subscriber: any TripModelSubscriber) {
        let wakeup = state.withLock { state -> Wakeup in
            let key = ObjectIdentifier(subscriber)
            state.subscribers.removeAll { $0.key == key }
            return state.listenerRemoved()
        }
        wakeup.perform()
    }

    /// Refreshes now instead of at the next tick, and returns once that refresh's events have been
    /// delivered. Returns at once when the trip is not being followed; waits for
    /// ``TripService/run()`` when that is not running yet. Returns as soon as the calling task is
    /// cancelled, without waiting for the refresh (which goes on for the other listeners): check
    /// `Task.isCancelled` to tell the two apart.
    public func refresh() async {
        let id = state.withLock { state -> UInt64? in
            guard state.phase == .following else { return nil }
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let pending = state.withLock { state -> PendingRefresh? in
                    // The cancellation flag is set before the handler runs: a handler that ran
                    // before the waiter was added, and so found nothing to resume, is seen here.
                    guard state.phase == .following, !Task.isCancelled else {
                        continuation.resume()
                        return nil
                    }
                    state.refreshWaiters.append((id, continuation))
                    return state.takeTimer()
                }
                // A refresh under way serves the waiter when it ends; a waiting one starts now.
                if let pending {
                    requestRefresh(generation: pending.generation, urgent: true)
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.removeWaiter(id) }
            waiter?.resume()
        }
    }

    /// The last path component of a trip name.
    static func tripID(of name: String) -> String {
        TripName.lastSegment(of: name)
    }
}
