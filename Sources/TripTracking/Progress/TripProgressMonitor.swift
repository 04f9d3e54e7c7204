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
/// refreshes and the last one leaving lets them stop. Iterators finish when the trip has ended.
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
        var observing = false
        var ended = false

        var listenerCount: Int { listeners.count + streams.count }
    }

    /// A monitor of `model`'s trip.
    ///
    /// - Parameters:
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

    /// The thresholds; a change applies from the next refresh on.
    public var thresholds: ProgressThresholds {
        get { state.withLock { $0.thresholds } }
        set { state.withLock { $0.thresholds = newValue } }
    }

    /// Starts sending `listener` the events; registering twice has no further effect.
    public func addListener(_ listener: any TripProgressListener) {
        let start = state.withLock { state -> Bool in
            let key = ObjectIdentifier(listener)
            guard !state.listeners.contains(where: { $0.key == key }) else { return false }
            state.listeners.append((key, listener))
            return listenerAdded(&state)
        }
        if start { model.register(observer) }
    }

    /// Stops sending `listener` events.
    public func removeListener(_ listener: any TripProgressListener) {
        let stop = state.withLock { state -> Bool in
            let key = ObjectIdentifier(listener)
            state.listeners.removeAll { $0.key == key }
            return listenerRemoved(&state)
        }
        if stop { model.unregister(observer) }
    }

    /// The events as an `AsyncSequence`; each iterator gets every event from when it was made,
    /// buffered for it alone, and finishes once the trip has ended.
    public var events: TripProgressEvents { TripProgressEvents(monitor: self) }

    func makeStream() -> AsyncThrowingStream<TripProgressEvent, any Error> {
        let limit = max(1, model.options.updatesBufferLimit)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: TripProgressEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(limit))
        let registration = state.withLock { state -> (id: Int, start: Bool)? in
            guard !state.ended else { return nil }
            state.nextStreamID += 1
            state.streams.append((state.nextStreamID, continuation))
            return (state.nextStreamID, listenerAdded(&state))
        }
        guard let registration else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.removeStream(registration.id) }
        if registration.start { model.register(observer) }
        if case .ended = model.modelState { finishAll() }
        if case .stopped = model.modelState { finishAll(error: TripModel.serviceStoppedError(model.name)) }
        return stream
    }

    private func removeStream(_ id: Int) {
        let stop = state.withLock { state -> Bool in
            guard let index = state.streams.firstIndex(where: { $0.id == id }) else { return false }
            state.streams.remove(at: index)
            return listenerRemoved(&state)
        }
        if stop { model.unregister(observer) }
    }

    private func listenerAdded(_ state: inout State) -> Bool {
        guard !state.observing, state.listenerCount > 0 else { return false }
        state.observing = true
        return true
    }

    private func listenerRemoved(_ state: inout State) -> Bool {
        guard state.observing, state.listenerCount == 0 else { return false }
        state.observing = false
        return true
    }

    /// Turns the model's next whole trip into events and delivers them.
    fileprivate func modelDelivered(_ trip: Trip) {
        let speedLimits = self.speedLimits
        let (events, listeners, streams) = state.withLock { state in
            let events = state.tracker.events(for: trip, thresholds: state.thresholds, speedLimits: speedLimits)
            return (events, state.listeners.map(\.listener), state.streams.map(\.continuation))
        }
        for event in events {
            for listener in listeners { listener.deliver(event, from: self) }
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

    /// Ends every iterator: normally after the trip ended, with `error` when following stopped.
    fileprivate func finishAll(error: FleetEngineError? = nil) {
        let streams = state.withLock { state in
            defer { state.streams = [] }
            state.ended = true
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
