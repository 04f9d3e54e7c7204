import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import Logging
import Synchronization

extension TripModel {
    /// One refresh of one following (`generation`), run by one of ``TripService/run()``'s workers:
    /// fetch, merge, deliver, then set the timer of the next (no task waits between refreshes, so
    /// a followed trip costs a timer, not a suspended task).
    ///
    /// Only the call is awaited here; what comes before and after it is synchronous and kept out of
    /// line (``beginRefresh(generation:)``, ``endRefresh(_:fetched:)``), because an async
    /// function's frame holds room for everything inlined into it and is allocated for every
    /// refresh: with the merge and the delivery inlined it was 10 KB, each refresh a large malloc.
    func follow(generation: UInt64) async {
        guard let refresh = beginRefresh(generation: generation) else { return }
        let fetched: Result<Trip, FleetEngineError>
        if let providerMismatch {
            fetched = .failure(providerMismatch)
        } else {
            fetched = await fetch(refresh.request, call: refresh.call)
        }
        endRefresh(refresh, fetched: fetched)
    }

    /// What a refresh took from the state before its call.
    struct RefreshStart {
        var generation: UInt64
        var call: CallInFlight
        var held: Trip?
        var heldParts: TripParts
        var options: TripModelOptions
        var waiters: [UInt64]
        /// The held trip when it was fetched with the view asked for now, else nil.
        var base: Trip?
        var request: GetTripRequest
        var started: ContinuousClock.Instant
    }

    /// Registers a refresh of `generation` as running, and the request to send; nil when that
    /// following is over.
    @inline(never)
    private func beginRefresh(generation: UInt64) -> RefreshStart? {
        let call = CallInFlight()
        guard
            let (held, heldParts, options, waiters, heldView) = state.withLock({
                state -> (Trip?, TripParts, TripModelOptions, [UInt64], TripView?)? in
                guard state.isCurrent(generation) else { return nil }
                state.refreshesRunning += 1
                state.refreshCount += 1
                state.callsInFlight.append(call)
                state.refreshBegan(at: .now)
                return (state.trip, state.parts, state.options, state.serveWaiters(), state.heldView)
            })
        else { return nil }
        let started = ContinuousClock.now
        // Versions held under another view do not vouch for what this view shows: fetch it whole.
        let base = heldView == options.view ? held : nil
        let request = IncrementalTripFetch.request(name: name, holding: base, view: options.view)
        return RefreshStart(
            generation: generation, call: call, held: held, heldParts: heldParts, options: options,
            waiters: waiters, base: base, request: request, started: started)
    }

    /// The rest of a refresh once its call returned: merge, record, deliver, and set the next
    /// refresh; nothing but the bookkeeping when the call was cancelled.
    @inline(never)
    private func endRefresh(_ refresh: RefreshStart, fetched outcome: Result<Trip, FleetEngineError>) {
        let generation = refresh.generation
        defer { refreshEnded() }
        // Taken out under the lock that the end of following takes it out under: once out, that
        // end no longer cancels it, and this refresh may be delivering to subscribers.
        let call = refresh.call
        state.withLock { $0.callsInFlight.removeAll { $0.isSame(as: call) } }
        guard !call.isCancelled, !Task.isCancelled else {
            resumeWaiters(refresh.waiters)
            return
        }
        switch outcome {
        case .success: admission.succeeded()
        case .failure(let error) where error.code == .resourceExhausted && error.origin == .status:
            // The project's quota, not only this trip's wait: every refresh slows down.
            admission.throttled(retryDelay: error.retryDelay)
        case .failure: break
        }
        // The next refresh is counted from when this one began, or, after a failure, from when the
        // failure arrived: a failure that took the client's retries to come (seconds, longer than
        // the interval maybe) must not make the next refresh due at once.
        var from = refresh.started
        var failure: FailureWait?
        let delivery: Delivery?
        switch outcome {
        case .success(let response):
            let trip = IncrementalTripFetch.merge(response, answering: refresh.request, into: refresh.base)
            delivery = record(
                trip, comparedWith: refresh.held, refresh.heldParts, view: refresh.options.view,
                generation: generation)
        case .failure(let error):
            logger.debug("refreshing a trip failed", metadata: ["trip": "\(name)", "code": "\(error.code)"])
            if let asked = error.retryDelay, asked > Self.maximumServerDelay {
                logger.warning(
                    "the server's retry delay is longer than following waits; waiting the maximum",
                    metadata: ["trip": "\(name)", "asked": "\(asked)", "waiting": "\(Self.maximumServerDelay)"])
            }
            from = .now
            (delivery, failure) = state.withLock { state -> (Delivery?, FailureWait?) in
                guard state.isCurrent(generation) else { return (nil, nil) }
                var failure = FailureWait(backoff: nil, serverDelay: error.retryDelay)
                if error.family == .serverOrNetwork {
                    state.serverFailures += 1
                    failure.backoff = Self.backoff(
                        afterFailures: state.serverFailures, first: state.options.serverFailureRetryDelay,
                        limit: max(state.options.autoRefreshTimeInterval, Self.maximumBackoff))
                } else {
                    state.serverFailures = 0
                }
                return (Delivery(events: [.updateFailed(error)], state: state), failure)
            }
        }
        delivery?.perform(from: self)
        resumeWaiters(refresh.waiters)
        guard let delivery, !delivery.ended else { return }
        scheduleNext(generation: generation, from: from, after: failure)
    }

    /// Resumes the ``refresh()`` callers this refresh served, but those that left when cancelled.
    private func resumeWaiters(_ ids: [UInt64]) {
        let waiters = state.withLock { state in
            ids.compactMap { state.removeWaiter($0) }
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Asks for the trip. When following ends before the answer (the last listener left, the
    /// service stopped), `call` is cancelled (``CallInFlight``), and with it the call and the
    /// client's retries still to come, as in the Consumer SDK fetching stops when nobody listens;
    /// the worker's task being cancelled (``TripService/run()`` cancelled) stops the call too.
    private func fetch(_ request: GetTripRequest, call: CallInFlight) async -> Result<Trip, FleetEngineError> {
        do throws(FleetEngineError) {
            return .success(try await client.getTrip(request, cancellation: call.cancellation))
        } catch {
            return .failure(error)
        }
    }

    /// Stores a refreshed trip and returns its events (none when nothing changed); ends following
    /// when the trip is final.
    private func record(
        _ trip: Trip, comparedWith held: Trip?, _ heldParts: TripParts, view: TripView, generation: UInt64
    )
        -> Delivery?
    {
        let parts = TripParts(trip)
        var fields = parts.changedFields(since: heldParts)
        if Self.otherFieldsDiffer(held, trip, changed: fields) { fields.insert(.other) }
        let events = TripEvent.events(for: trip, parts: parts, fields: fields)
        let isFinal = trip.tripStatus == .complete || trip.tripStatus == .canceled
        return state.withLock { state -> Delivery? in
            guard state.isCurrent(generation) else { return nil }
            state.trip = trip
            state.heldView = view
            state.parts = parts
            state.serverFailures = 0
            var delivery = Delivery(events: events, state: state)
            if isFinal {
                (delivery.wakeup, delivery.finishing) = state.finish(as: .ended(trip.tripStatus))
                delivery.ended = true
                delivery.endState = state.phase
                delivery.endingSubscribers = state.subscribers.map(\.subscriber)
                delivery.generation = state.generation
            }
            return delivery
        }
    }

    /// Starts the next refresh of `generation` when it is due, `from` the start of the refresh
    /// before (the interval), or from when its failure arrived (``waitBeforeNextRefresh(interval:after:)``);
    /// at once when someone waits in ``refresh()``. Until then its place is in ``RefreshTimers``.
    func scheduleNext(generation: UInt64, from: ContinuousClock.Instant, after failure: FailureWait?) {
        // nil when it waits for its timer; when it starts now, whether it is urgent
        // (``requestRefresh(generation:urgent:)``), read under the same lock.
        let startsNowUrgent = state.withLock { state -> Bool? in
            guard state.isCurrent(generation) else { return nil }
            guard state.refreshWaiters.isEmpty else { return true }
            let wait = Self.waitBeforeNextRefresh(interval: state.options.autoRefreshTimeInterval, after: failure)
            // The elapsed time is taken from the wait rather than the wait added to `from`: a wait
            // of centuries added to an instant overflows.
            let remaining = wait - (.now - from)
            guard !RefreshTimers.isDue(in: remaining) else { return state.trip == nil }
            // Set under the lock, so that whoever takes the timer out of the state finds it in the
            // service's timers to take out there too.
            _ = state.takeTimer()
            state.timer = PendingRefresh(
                timer: timers.schedule(self, in: remaining), generation: generation, from: from, failure: failure)
            return nil
        }
        if let urgent = startsNowUrgent { requestRefresh(generation: generation, urgent: urgent) }
    }

    /// Asks the service's ``RefreshAdmission`` to start a refresh of following `generation`, which
    /// lets it start within the request budget. `urgent` refreshes go first: the first of a
    /// following (nothing to show yet, or nothing fetched so far) and one that someone waits for
    /// in ``refresh()``.
    func requestRefresh(generation: UInt64, urgent: Bool) {
        admission.request(RefreshStarts.Start(model: self, generation: generation), urgent: urgent)
    }

    /// Whether following `generation` goes on: a refresh of it waiting for its turn is still wanted.
    func isFollowing(generation: UInt64) -> Bool {
        state.withLock { $0.isCurrent(generation) }
    }

    /// The timer of a waiting refresh went off: start it, unless it was superseded meanwhile.
    func timerFired(_ id: UInt64) {
        let pending = state.withLock { state -> PendingRefresh? in
            guard state.timer?.timer.id == id else { return nil }
            return state.takeTimer()
        }
        guard let pending else { return }
        scheduleNext(generation: pending.generation, from: pending.from, after: pending.failure)
    }

    /// Ends following because the trip service stopped. The subscribers are told here, or, while
    /// a refresh is delivering (on the refresh executor, maybe inside a callback now), by that
    /// refresh once it ends: a subscriber's callbacks come one at a time, the end notice last.
    func stop() {
        let (wakeup, continuations, tellNow) = state.withLock {
            state -> (Wakeup, [TripUpdates.Continuation], Bool) in
            switch state.phase {
            case .ended, .stopped: return (Wakeup(), [], false)
            case .idle, .following:
                let (wakeup, continuations) = state.finish(as: .stopped)
                guard state.refreshesRunning == 0 else {
                    state.pendingEnd = .stopped
                    return (wakeup, continuations, false)
                }
                return (wakeup, continuations, true)
            }
        }
        let error = Self.serviceStoppedError(name)
        for continuation in continuations { continuation.finish(throwing: error) }
        if tellNow { tellSubscribers(endedWith: .stopped) }
        wakeup.perform()
    }

    /// A refresh ended: the last one running tells the subscribers that following stopped, when
    /// ``stop()`` left that to it.
    private func refreshEnded() {
        let pendingEnd = state.withLock { state -> TripModelState? in
            state.refreshesRunning -= 1
            guard state.refreshesRunning == 0 else { return nil }
            defer { state.pendingEnd = nil }
            return state.pendingEnd
        }
        if let pendingEnd { tellSubscribers(endedWith: pendingEnd) }
    }

    /// Tells each subscriber still registered that following ended, then lets them all go.
    private func tellSubscribers(endedWith final: TripModelState) {
        let subscribers = state.withLock { $0.subscribers }
        for (key, subscriber) in subscribers
        where state.withLock({ state in state.subscribers.contains { $0.key == key } }) {
            subscriber.tripModel(self, didEndFollowingWith: final)
        }
        releaseSubscribers()
    }

    /// Stops the model for good unless someone follows it, for ``TripService/forgetTripModel(for:)``;
    /// false when it is being followed. Checked and done under one lock, so no listener can slip in
    /// between: a forgotten model that could still follow would do so where its service no longer
    /// sees it (not stopped with the service, beside a new model of the same name).
    func stopUnlessFollowed() -> Bool {
        state.withLock { state in
            switch state.phase {
            case .following:
                return false
            case .ended, .stopped:
                return true
            case .idle:
                // Idle: no listeners, so no streams to finish, no subscribers to tell, nobody waiting.
                _ = state.finish(as: .stopped)
                state.stopError = Self.forgottenError(name)
                return true
            }
        }
    }

    /// The longest wait after server or network failures in a row, unless the interval is longer.
    static let maximumBackoff: Duration = .seconds(60)
    /// The longest wait a server's RetryInfo imposes on a trip's next refresh: a minute (the
    /// client's ``RetryPolicy/defaultMaximumServerDelay``). A longer one is cut, with a warning in
    /// the log, so that a server, or something posing as one, cannot stop following for hours.
    static let maximumServerDelay: Duration = RetryPolicy.defaultMaximumServerDelay
    /// The shortest wait after any failure, so that a zero interval (or a zero
    /// ``TripModelOptions/serverFailureRetryDelay``) does not retry a failing call in a loop.
    static let minimumFailureWait: Duration = .milliseconds(100)

    /// The wait before the next refresh: the interval after a success; after a server or network
    /// failure its backoff, which may be shorter than the interval (to recover sooner) or longer
    /// (failures in a row), up to ``maximumBackoff`` or the interval when that is longer; after a
    /// client failure the interval (the Consumer SDK's rule: refreshing goes on, the app must act). After
    /// any failure at least the delay the server asked for (``FleetEngineError/retryDelay``, up to
    /// ``maximumServerDelay``), and at least ``minimumFailureWait``.
    static func waitBeforeNextRefresh(interval: Duration, after failure: FailureWait?) -> Duration {
        guard let failure else { return interval }
        var wait = interval
        if let backoff = failure.backoff { wait = min(backoff, max(interval, maximumBackoff)) }
        // The server's word on when to come back (a RetryInfo, as with RESOURCE_EXHAUSTED) is a
        // floor: asking sooner only earns another refusal.
        if let serverDelay = failure.serverDelay { wait = max(wait, min(serverDelay, maximumServerDelay)) }
        return max(wait, minimumFailureWait)
    }

    /// The wait before the next refresh after `failures` server or network failures in a row:
    /// `first`, doubling, with ±20 % jitter, and at most `limit`.
    static func backoff(afterFailures failures: Int, first: Duration, limit: Duration) -> Duration {
        let factor = Double(1 << min(failures - 1, 20)) * Double.random(in: 0.8...1.2)
        // Compared in seconds first: `Duration * Double` traps past Duration's range, which a long
        // first delay reaches after a few doublings.
        guard first / .seconds(1) * factor < limit / .seconds(1) else { return limit }
        return first * factor
    }

    /// Whether the trips differ in a field that has no event of its own: the held trip with the
    /// new trip's parts put in is compared with the new trip. One copy, and the parts compare
    /// equal at once (they share their storage), so the cost is that of the other fields.
    ///
    /// A version moves with its part, and counts as another change only when its part did not
    /// change (a change the view hides, such as another rider's path); `eta_to_first_waypoint`
    /// counts when it is not this trip's pickup or dropoff ETA, that is when the first stop is
    /// someone else's or an intermediate destination.
    static func otherFieldsDiffer(_ held: Trip?, _ trip: Trip, changed: TripPropertyFields) -> Bool {
        guard var rest = held else { return true }
        rest.tripStatus = trip.tripStatus
        rest.remainingDistanceMeters = trip.remainingDistanceMeters
        rest.route = trip.route
        rest.currentRouteSegment = trip.currentRouteSegment
        rest.lastLocation = trip.lastLocation
        rest.pickupPoint = trip.pickupPoint
        rest.dropoffPoint = trip.dropoffPoint
        rest.remainingWaypoints = trip.remainingWaypoints
        rest.intermediateDestinations = trip.intermediateDestinations
        rest.currentRouteSegmentTraffic = trip.currentRouteSegmentTraffic
        if changed.contains(.activeRoute) { rest.currentRouteSegmentVersion = trip.currentRouteSegmentVersion }
        if changed.contains(.remainingWaypoints) {
            rest.remainingWaypointsVersion = trip.remainingWaypointsVersion
            rest.remainingWaypointsRouteVersion = trip.remainingWaypointsRouteVersion
        }
        if changed.contains(.activeRouteTraffic) {
            rest.currentRouteSegmentTrafficVersion = trip.currentRouteSegmentTrafficVersion
        }
        if TripParts.firstStopIsOwn(in: trip) { rest.etaToFirstWaypoint = trip.etaToFirstWaypoint }
        return rest != trip
    }
}
