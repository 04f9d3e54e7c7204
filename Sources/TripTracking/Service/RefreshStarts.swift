import Synchronization

/// The queue through which trip models ask ``TripService/run()`` to start their refresh loops.
/// Once closed (the service stopped), a model that asks is stopped instead.
final class RefreshStarts: Sendable {
    struct Start: Sendable {
        var model: TripModel
        var generation: UInt64
    }

    let stream: AsyncStream<Start>
    private let continuation: AsyncStream<Start>.Continuation
    private let closed = Mutex(false)

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Start.self)
    }

    /// Queues a start, or stops the model when the service has stopped.
    func start(_ model: TripModel, generation: UInt64) {
        let accepted = closed.withLock { closed -> Bool in
            guard !closed else { return false }
            continuation.yield(Start(model: model, generation: generation))
            return true
        }
        if !accepted { model.stop() }
    }

    /// Refuses further starts; returns false when already closed.
    func close() -> Bool {
        closed.withLock { closed in
            defer { closed = true }
            guard !closed else { return false }
            continuation.finish()
            return true
        }
    }
}
