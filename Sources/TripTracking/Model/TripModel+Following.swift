import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import NIOCore

extension TripModel {
    /// The refresh loop of one following (`generation`), run by ``TripService/run()``: refresh,
    /// deliver, wait, until nobody listens, the trip ends, or the service stops.
    func follow(generation: UInt64) async {
        var failures = 0
        while !Task.isCancelled {
            guard
                let (held, heldParts, options, waiters) = state.withLock({ state in
                    state.isCurrent(generation) ? (state.trip, state.parts, state.options, state.takeWaiters()) : nil
                })
            else { return }
            let started = ContinuousClock.now
            let request = IncrementalTripFetch.request(name: name, holding: held, view: options.view)
            let outcome: Result<Trip, FleetEngineError>
            do throws(FleetEngineError) {
                if let providerMismatch { throw providerMismatch }
                outcome = .success(try await client.getTrip(request))
            } catch {
                outcome = .failure(error)
            }
            if Task.isCancelled {
                for waiter in waiters { waiter.resume() }
                return
            }
            var backoff: Duration?
            let delivery: Delivery?
            switch outcome {
            case .success(let response):
                failures = 0
                let trip = IncrementalTripFetch.merge(response, answering: request, into: held)
                delivery = record(trip, comparedWith: held, heldParts, generation: generation)
            case .failure(let error):
                failures += 1
                logger.debug(
                    "refreshing a trip failed", metadata: ["trip": "\(name)", "code": "\(error.code)"])
                if error.family == .serverOrNetwork {
                    backoff = Self.backoff(afterFailures: failures, first: options.serverFailureRetryDelay)
                }
                delivery = state.withLock { state in
                    state.isCurrent(generation) ? Delivery(events: [.updateFailed(error)], state: state) : nil
                }
            }
            delivery?.perform(from: self)
            for waiter in waiters { waiter.resume() }
            guard let delivery, !delivery.ended else { return }
            await waitForNextRefresh(generation: generation, started: started, backoff: backoff)
        }
    }

    /// Stores a refreshed trip and returns its events (none when nothing changed); ends following
    /// when the trip is final.
    private func record(_ trip: Trip, comparedWith held: Trip?, _ heldParts: TripParts, generation: UInt64)
        -> Delivery?
    {
        let parts = TripParts(trip)
        var fields = parts.changedFields(since: heldParts)
        if Self.otherFieldsDiffer(held, trip) { fields.insert(.other) }
        let events = TripEvent.events(for: trip, parts: parts, fields: fields)
        let isFinal = trip.tripStatus == .complete || trip.tripStatus == .canceled
        return state.withLock { state -> Delivery? in
            guard state.isCurrent(generation) else { return nil }
            state.trip = trip
            state.parts = parts
            var delivery = Delivery(events: events, state: state)
            if isFinal {
                (delivery.wakeup, delivery.finishing) = state.finish(as: .ended(trip.tripStatus))
                delivery.ended = true
                delivery.endState = state.phase
                delivery.endingSubscribers = state.subscribers.map(\.subscriber)
            }
            return delivery
        }
    }

    /// Waits until the next refresh is due: `backoff` (at most the interval) after a server or
    /// network failure, the interval otherwise, both counted from when the last refresh began.
    /// Returns early for ``refresh()``, and re-reads the interval whenever the options change.
    private func waitForNextRefresh(generation: UInt64, started: ContinuousClock.Instant, backoff: Duration?) async {
        while !Task.isCancelled {
            let due = state.withLock { state -> ContinuousClock.Instant? in
                guard state.isCurrent(generation), state.refreshWaiters.isEmpty else { return nil }
                let interval = state.options.autoRefreshTimeInterval
                return started + (backoff.map { min($0, interval) } ?? interval)
            }
            guard let due else { return }
            let remaining = due - .now
            guard remaining > .zero else { return }
            await sleep(for: remaining, generation: generation)
        }
    }

    private func sleep(for duration: Duration, generation: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let sleeper = RefreshSleeper(continuation)
                let waits = state.withLock { state -> Bool in
                    guard !Task.isCancelled, state.isCurrent(generation), state.refreshWaiters.isEmpty else {
                        return false
                    }
                    state.sleeper = sleeper
                    return true
                }
                guard waits else {
                    sleeper.wake()
                    return
                }
                let (seconds, attoseconds) = duration.components
                let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                let timer = eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { [weak self] in
                    self?.state.withLock { state in
                        if state.sleeper === sleeper { state.sleeper = nil }
                    }
                    sleeper.wake()
                }
                sleeper.attach(timer)
            }
        } onCancel: {
            state.withLock { $0.takeSleeper() }?.wake()
        }
    }

    /// Ends following because the trip service stopped.
    func stop() {
        let (wakeup, continuations, subscribers) = state.withLock {
            state -> (Wakeup, [TripUpdates.Continuation], [any TripModelSubscriber]) in
            switch state.phase {
            case .ended, .stopped: return (Wakeup(), [], [])
            case .idle, .following:
                let (wakeup, continuations) = state.finish(as: .stopped)
                return (wakeup, continuations, state.subscribers.map(\.subscriber))
            }
        }
        let error = Self.serviceStoppedError(name)
        for continuation in continuations { continuation.finish(throwing: error) }
        for subscriber in subscribers { subscriber.tripModel(self, didEndFollowingWith: .stopped) }
        wakeup.perform()
    }

    /// The wait before the next refresh after `failures` server or network failures in a row:
    /// `first`, doubling, with ±20 % jitter (capped by the interval by the caller).
    static func backoff(afterFailures failures: Int, first: Duration) -> Duration {
        let factor = Double(1 << min(failures - 1, 20)) * Double.random(in: 0.8...1.2)
        return first * factor
    }

    /// Whether the trips differ in a field that has no event of its own.
    static func otherFieldsDiffer(_ held: Trip?, _ trip: Trip) -> Bool {
        guard let held else { return true }
        if held == trip { return false }
        return withoutParts(held) != withoutParts(trip)
    }

    private static func withoutParts(_ trip: Trip) -> Trip {
        var rest = trip
        rest.tripStatus = .unknownTripStatus
        rest.remainingDistanceMeters = nil
        rest.route = []
        rest.currentRouteSegment = ""
        rest.currentRouteSegmentVersion = nil
        rest.lastLocation = nil
        rest.pickupPoint = nil
        rest.dropoffPoint = nil
        rest.etaToFirstWaypoint = nil
        rest.remainingWaypoints = []
        rest.remainingWaypointsVersion = nil
        rest.remainingWaypointsRouteVersion = nil
        rest.intermediateDestinations = []
        rest.currentRouteSegmentTraffic = nil
        rest.currentRouteSegmentTrafficVersion = nil
        return rest
    }
}
