public import FleetEngineStatus
import Synchronization

/// A trip's events as an `AsyncSequence`: ``TripModel/updates``.
///
/// Each iterator is a listener of its own, like a registered subscriber: making the first one
/// starts following, and dropping (or cancelling) the last listener stops it. Every iterator gets
/// every event from the moment it was made, in order, buffered for it alone, so a slow consumer
/// holds up neither other consumers nor other trips. The sequence finishes after the events of a
/// `COMPLETE` or `CANCELED` trip. It ends with an error only when following cannot go on: CANCELLED
/// when the trip service stopped first (or forgot the model, ``TripService/forgetTripModel(for:)``),
/// RESOURCE_EXHAUSTED when this consumer fell
/// ``TripModelOptions/updatesBufferLimit`` events behind. Failed refreshes are events
/// (``TripEvent/updateFailed(_:)``), not errors: following goes on after them.
public struct TripUpdates: AsyncSequence, Sendable {
    public typealias Element = TripEvent
    public typealias Failure = FleetEngineError
    typealias Continuation = AsyncThrowingStream<TripEvent, any Error>.Continuation

    let model: TripModel

    /// An iterator, registered with the model until it is dropped.
    public func makeAsyncIterator() -> EventIterator<TripEvent> {
        EventIterator(model.makeUpdatesStream(), producer: model)
    }
}

extension TripModel {
    /// The trip's events as an `AsyncSequence`: `for try await event in model.updates { ... }`.
    public var updates: TripUpdates { TripUpdates(model: self) }

    /// A stream registered as a listener.
    func makeUpdatesStream() -> AsyncThrowingStream<TripEvent, any Error> {
        let limit = max(1, options.updatesBufferLimit)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: TripEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(limit))
        let registration = state.withLock { state -> (id: Int, start: UInt64?)? in
            switch state.phase {
            case .ended:
                continuation.finish()
                return nil
            case .stopped:
                continuation.finish(throwing: state.stopError ?? TripModel.serviceStoppedError(name))
                return nil
            case .idle, .following:
                state.nextStreamID += 1
                state.streams.append((state.nextStreamID, continuation))
                return (state.nextStreamID, state.listenerAdded())
            }
        }
        guard let registration else { return stream }
        continuation.onTermination = { [weak self] _ in
            self?.removeStream(registration.id)
        }
        if let start = registration.start { requestRefresh(generation: start, urgent: true) }
        return stream
    }

    private func removeStream(_ id: Int) {
        let wakeup = state.withLock { state -> Wakeup? in
            guard let index = state.streams.firstIndex(where: { $0.id == id }) else { return nil }
            state.streams.remove(at: index)
            return state.listenerRemoved()
        }
        wakeup?.perform()
    }

    static func serviceStoppedError(_ name: String) -> FleetEngineError {
        FleetEngineError(code: .cancelled, message: "the trip service stopped before \(name) ended")
    }

    static func forgottenError(_ name: String) -> FleetEngineError {
        FleetEngineError(code: .cancelled, message: "the model of \(name) was forgotten by its trip service")
    }
}
