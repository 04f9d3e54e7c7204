import FleetEngineStatus
import Synchronization

extension TripModel {
    /// One refresh's events and who gets them, taken under the lock and delivered after it.
    struct Delivery {
        var events: [TripEvent]
        var subscribers: [(key: ObjectIdentifier, subscriber: any TripModelSubscriber)]
        /// The generation the events belong to: a subscriber is called only while it is still
        /// registered and following has not stopped or restarted since.
        var generation: UInt64
        var streams: [(id: Int, continuation: TripUpdates.Continuation)]
        /// Streams to finish after the events: following ended.
        var finishing: [TripUpdates.Continuation] = []
        var wakeup = Wakeup()
        var ended = false
        /// The subscribers told that following ended, after the events.
        var endingSubscribers: [any TripModelSubscriber] = []
        var endState: TripModelState?

        init(events: [TripEvent], state: State) {
            self.events = events
            subscribers = events.isEmpty ? [] : state.subscribers
            generation = state.generation
            streams = events.isEmpty ? [] : state.streams
        }

        /// Calls the subscribers and feeds the iterators, in event order; an iterator whose buffer
        /// is full is ended with RESOURCE_EXHAUSTED rather than losing events silently.
        func perform(from model: TripModel) {
            for event in events {
                for (key, subscriber) in subscribers where model.stillWants(key, generation: generation) {
                    subscriber.deliver(event, from: model)
                }
            }
            for (_, continuation) in streams {
                for event in events {
                    if case .dropped = continuation.yield(event) {
                        continuation.finish(
                            throwing: TripModel.consumerBehindError(model.name))
                        break
                    }
                }
            }
            for continuation in finishing { continuation.finish() }
            if let endState {
                for subscriber in endingSubscribers
                where model.stillWants(ObjectIdentifier(subscriber), generation: generation) {
                    subscriber.tripModel(model, didEndFollowingWith: endState)
                }
                model.releaseSubscribers()
            }
            wakeup.perform()
        }
    }

    /// Whether the subscriber `key` is still registered and following is still at `generation`:
    /// asked before each callback, so that a subscriber that left, or a following that stopped,
    /// while a refresh was being delivered hears no more of it.
    func stillWants(_ key: ObjectIdentifier, generation: UInt64) -> Bool {
        state.withLock { state in
            state.generation == generation && state.subscribers.contains { $0.key == key }
        }
    }

    /// Lets go of the subscribers once following has ended or stopped and they have been told:
    /// none is called again, and a subscriber that holds its model (the usual way) would otherwise
    /// keep both alive for as long as the service keeps the model.
    func releaseSubscribers() {
        let released = state.withLock { state -> [(key: ObjectIdentifier, subscriber: any TripModelSubscriber)] in
            switch state.phase {
            case .idle, .following: return []
            case .ended, .stopped:
                defer { state.subscribers = [] }
                return state.subscribers
            }
        }
        // Dropped here, outside the lock: a subscriber's deinit may call the model.
        _ = released
    }

    static func consumerBehindError(_ name: String) -> FleetEngineError {
        FleetEngineError(
            code: .resourceExhausted,
            message: "the consumer of \(name)'s updates fell too far behind (see TripModelOptions.updatesBufferLimit)")
    }
}
