import FleetEngineCodec
import FleetEngineStatus
import Synchronization

/// Navigation-style progress events for a followed trip, derived from the trips its ``TripModel``
/// delivers: arrivals at waypoints, route changes, remaining time and distance (held back by
/// ``ProgressThresholds``), the traffic ``DelayCategory``, the suggested ``LightingMode`` from the
/// sun at the vehicle, speeding (with a ``SpeedLimitSource``) and the road-snapped location.
///
/// Listen with a ``TripProgressListener`` or iterate ``events``. The monitor listens to its model
/// while it has listeners of its own, so, like a subscriber, the first listener starts the model's
/// refreshes and the last one leaving (or the monitor itself going away) lets them stop. A monitor
/// that had no listeners starts over when one comes: its first trip is reported whole (route,
/// remaining time and distance, delay, lighting, location) and arrivals are counted from there.
/// Iterators finish when the trip has ended.
///
/// ```swift
/// let progress = TripProgressMonitor(model: model)
/// for try await event in progress.events {
///     if case .arrivedAtWaypoint(let waypoint) = event { print("arrived at", waypoint.waypointType) }
/// }
/// ```
public final class TripProgressMonitor: Sendable {
    /// The trip monitored.
    public let model: TripModel
    private let speedLimits: (any SpeedLimitSource)?
    private let state: Mutex<State>
    private let observer: ModelObserver

    private struct State {
        var thresholds: ProgressThresholds
        var tracker = ProgressTracker()
        var listeners: [(key: ObjectIdentifier, listener: any TripProgressListener)] = []
        var streams: [(id: Int, continuation: TripProgressEvents.Continuation)] = []
        var nextStreamID = 0
        /// Whether the observer is (or is being) registered with the model.
        var observing = false
        /// Whether a thread is making the model's registration match the listeners.
        var reconciling = false
        /// How following ended, once it has: nil error when the trip ended, the error when the
        /// trip service stopped first.
        var ending: FleetEngineError??

        var listenerCount: Int { listeners.count + streams.count }
    }

    /// A monitor of `model`'s trip.
    ///
    /// - Parameters:
    ///   - model: the followed trip to derive the events from.
    ///   - thresholds: when remaining time and distance are reported again; change them any time
    ///     with ``thresholds``.
    ///   - speedLimits: where speed limits come from; without one, speeding is never reported.
    public init(
        model: TripModel, thresholds: ProgressThresholds = ProgressThresholds(),
        speedLimits: (any SpeedLimitSource)? = nil
    ) {
        self.model = model
        self.speedLimits = speedLimits
        self.state = Mutex(State(thresholds: thresholds))
        self.observer = ModelObserver()
        observer.monitor.withLock { $0 = WeakMonitor(self) }
    }

    deinit {
        // Let go with listeners or iterators still counted: nobody can hear it any more.
        if state.withLock({ $0.observing }) { model.unregister(observer) }
    }

    /// The thresholds; a change applies from the next refresh on.
    public var thresholds: ProgressThresholds {
        get { state.withLock { $0.thresholds } }
        set { state.withLock { $0.thresholds = newValue } }
    }

    /// Starts sending `listener` the events; registering twice has no further effect.
    public func addListener(_ listener: any TripProgressListener) {
        state.withLock { state in
            let key = ObjectIdentifier(listener)
            guard !state.listeners.contains(where: { $0.key == key }) else { return }
            state.listeners.append((key, listener))
        }
        reconcileRegistration()
    }

    /// Stops sending `listener` events: once this returns it is not called again, from inside
    /// one of its own callbacks too, but for a callback another thread is making at that moment.
    public func removeListener(_ listener: any TripProgressListener) {
        state.withLock { state in
            let key = ObjectIdentifier(listener)
            state.listeners.removeAll { $0.key == key }
        }
        reconcileRegistration()
    }

    /// The events as an `AsyncSequence`; each iterator gets every event from when it was made,
    /// buffered for it alone, and finishes once the trip has ended.
    public var events: TripProgressEvents { TripProgressEvents(monitor: self) }

    func makeStream() -> AsyncThrowingStream<TripProgressEvent, any Error> {
        let limit = max(1, model.options.updatesBufferLimit)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: TripProgressEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(limit))
        let registration = state.withLock { state -> Result<Int, FleetEngineError>? in
            if let ending = state.ending { return ending.map { .failure($0) } }
            state.nextStreamID += 1
            state.streams.append((state.nextStreamID, continuation))
            return .success(state.nextStreamID)
        }
        guard case .success(let id) = registration else {
            // Following is over: the iterator ends as the earlier ones did.
            if case .failure(let error) = registration {
                continuation.finish(throwing: error)
            } else {
                continuation.finish()
            }
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.removeStream(id) }
        reconcileRegistration()
        if case .ended = model.modelState { finishAll() }
        if case .stopped = model.modelState { finishAll(error: TripModel.serviceStoppedError(model.name)) }
        return stream
    }

    private func removeStream(_ id: Int) {
        state.withLock { state in
            state.streams.removeAll { $0.id == id }
        }
        reconcileRegistration()
    }

    /// Registers the observer with the model while the monitor has listeners or iterators, and
    /// unregisters it when it has none.
    ///
    /// One thread at a time makes the model calls, in a loop that ends only when, under the lock,
    /// the registration matches the listeners; a thread that finds another one at it leaves its
    /// change to that one. So additions and removals that race end with the model registered
    /// exactly when listeners are left, whatever order their model calls would have run in, and a
    /// call made from inside a callback of the model cannot deadlock.
    private func reconcileRegistration() {
        let leads = state.withLock { state -> Bool in
            guard !state.reconciling else { return false }
            state.reconciling = true
            return true
        }
        guard leads else { return }
        while true {
            let register = state.withLock { state -> Bool? in
                let wanted = state.listenerCount > 0
                guard wanted != state.observing else {
                    state.reconciling = false
                    return nil
                }
                state.observing = wanted
                // Heard again after a time without listeners: the trips missed meanwhile are unknown, so
                // the monitor starts over, as a model does for a new following, and the new listeners
                // hear the trip as it is rather than only what changes from a trip long gone.
                if wanted { state.tracker = ProgressTracker() }
                return wanted
            }
            guard let register else { return }
            if register { model.register(observer) } else { model.unregister(observer) }
        }
    }

    /// Turns the model's next whole trip into events and delivers them.
    fileprivate func modelDelivered(_ trip: Trip) {
        let speedLimits = self.speedLimits
        let (events, listeners, streams) = state.withLock { state in
            let events = state.tracker.events(for: trip, thresholds: state.thresholds, speedLimits: speedLimits)
            return (events, state.listeners, state.streams.map(\.continuation))
        }
        for event in events {
            // A listener removed meanwhile (by another one's callback, or its own) hears no more.
            for (key, listener) in listeners where isListening(key) { listener.deliver(event, from: self) }
        }
        for continuation in streams {
            for event in events {
                if case .dropped = continuation.yield(event) {
                    continuation.finish(throwing: TripModel.consumerBehindError(model.name))
                    break
                }
            }
        }
    }

    private func isListening(_ key: ObjectIdentifier) -> Bool {
        state.withLock { state in state.listeners.contains { $0.key == key } }
    }

    /// Ends every iterator, and those made later: normally after the trip ended, with `error`
    /// when following stopped.
    fileprivate func finishAll(error: FleetEngineError? = nil) {
        let streams = state.withLock { state in
            defer { state.streams = [] }
            if state.ending == nil { state.ending = .some(error) }
            return state.streams.map(\.continuation)
        }
        for continuation in streams {
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        }
    }
}

/// The monitor's subscription to its model, kept apart so that the monitor does not expose
/// subscriber methods, and weak so that the model does not keep a forgotten monitor alive.
private final class ModelObserver: TripModelSubscriber {
    let monitor = Mutex(WeakMonitor(nil))

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        monitor.withLock { $0.value }?.modelDelivered(trip)
    }

    func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) {
        let monitor = monitor.withLock { $0.value }
        if case .stopped = state {
            monitor?.finishAll(error: TripModel.serviceStoppedError(model.name))
        } else {
            monitor?.finishAll()
        }
    }
}

private struct WeakMonitor: Sendable {
    weak var value: TripProgressMonitor?

    init(_ value: TripProgressMonitor?) {
        self.value = value
    }
}
