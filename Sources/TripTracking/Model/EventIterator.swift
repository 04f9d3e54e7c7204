public import FleetEngineStatus

/// Iterates one consumer's events of ``TripUpdates`` or ``TripProgressEvents``, with typed throws.
public struct EventIterator<Element: Sendable>: AsyncIteratorProtocol {
    public typealias Failure = FleetEngineError
    /// Held so that what produces the events (a monitor made just to iterate) lives as long as
    /// the iterator.
    private let producer: AnyObject
    private var iterator: AsyncThrowingStream<Element, any Error>.AsyncIterator

    init(_ stream: AsyncThrowingStream<Element, any Error>, producer: AnyObject) {
        self.producer = producer
        iterator = stream.makeAsyncIterator()
    }

    /// The next event; nil once following has ended.
    public mutating func next() async throws(FleetEngineError) -> Element? {
        try await next(isolation: nil)
    }

    /// The next event; nil once following has ended.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(FleetEngineError) -> Element? {
        do {
            return try await iterator.next(isolation: actor)
        } catch let error as FleetEngineError {
            throw error
        } catch {
            throw FleetEngineError(code: .cancelled, message: "following the trip was cancelled", cause: error)
        }
    }
}
