public import FleetEngineStatus

/// A monitor's events as an `AsyncSequence`: ``TripProgressMonitor/events``.
///
/// Each iterator is a listener of its own. The sequence finishes once the trip has ended, and ends
/// with an error only when following cannot go on: CANCELLED when the trip service stopped first,
/// RESOURCE_EXHAUSTED when this consumer fell ``TripModelOptions/updatesBufferLimit`` events behind.
public struct TripProgressEvents: AsyncSequence, Sendable {
    public typealias Element = TripProgressEvent
    public typealias Failure = FleetEngineError
    typealias Continuation = AsyncThrowingStream<TripProgressEvent, any Error>.Continuation

    let monitor: TripProgressMonitor

    /// An iterator, listening until it is dropped.
    public func makeAsyncIterator() -> EventIterator<TripProgressEvent> {
        EventIterator(monitor.makeStream(), producer: monitor)
    }
}
