import FleetEngineStatus

extension TripModel {
    /// One refresh's events and who gets them, taken under the lock and delivered after it.
    struct Delivery {
        var events: [TripEvent]
        var subscribers: [any TripModelSubscriber]
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
            subscribers = events.isEmpty ? [] : state.subscribers.map(\.subscriber)
            streams = events.isEmpty ? [] : state.streams
        }

        /// Calls the subscribers and feeds the iterators, in event order; an iterator whose buffer
        /// is full is ended with RESOURCE_EXHAUSTED rather than losing events silently.
        func perform(from model: TripModel) {
            for event in events {
                for subscriber in subscribers { subscriber.deliver(event, from: model) }
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
                for subscriber in endingSubscribers { subscriber.tripModel(model, didEndFollowingWith: endState) }
            }
            wakeup.perform()
        }
    }

    static func consumerBehindError(_ name: String) -> FleetEngineError {
        FleetEngineError(
            code: .resourceExhausted,
            message: "the consumer of \(name)'s updates fell too far behind (see TripModelOptions.updatesBufferLimit)")
    }
}
