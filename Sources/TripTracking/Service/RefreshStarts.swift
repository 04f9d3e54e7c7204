import NIOCore
import Synchronization

/// The refreshes due to start, and the worker tasks of ``TripService/run()`` that run them, one
/// after another in each worker. Once closed (the service stopped), a model that asks is stopped
/// instead.
///
/// A refresh has no task of its own: a task made per refresh cost an allocation for the task and
/// one for each of the refresh's async frames (a task's allocator starts with no memory), a few
/// thousand a second when following a fleet. A worker keeps its task, and its allocator keeps the
/// memory the frames of its first refresh took. An idle worker waits for the next start; when a
/// start finds none idle, the service adds a worker (up to ``maximumWorkers``, past which starts
/// wait in order), and a worker that finds nothing to do while ``maximumIdleWorkers`` others wait
/// ends, so that the workers follow how many calls are in flight at once.
final class RefreshStarts: Sendable {
    struct Start: Sendable {
        var model: TripModel
        var generation: UInt64
    }

    /// The most workers at once: refreshes in flight together, beyond which starts wait.
    static let maximumWorkers = 1_024
    /// The most workers kept waiting for work.
    static let maximumIdleWorkers = 128

    private struct State {
        var queue = CircularBuffer<Start>()
        var idle: [UnsafeContinuation<Start?, Never>] = []
        var workers = 0
        var closed = false
    }

    /// One element per worker to add, read by ``TripService/run()``.
    let workerRequests: AsyncStream<Void>
    private let requestContinuation: AsyncStream<Void>.Continuation
    private let state = Mutex(State())

    init() {
        (workerRequests, requestContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Hands a start to an idle worker, or queues it (asking for a worker when there is room for
    /// one); stops the model when the service has stopped.
    func start(_ model: TripModel, generation: UInt64) {
        let start = Start(model: model, generation: generation)
        enum Action {
            case resume(UnsafeContinuation<Start?, Never>)
            case queued
            case stop
        }
        let action = state.withLock { state -> Action in
            guard !state.closed else { return .stop }
            if let worker = state.idle.popLast() { return .resume(worker) }
            state.queue.append(start)
            if state.workers < Self.maximumWorkers {
                state.workers += 1
                requestContinuation.yield()
            }
            return .queued
        }
        switch action {
        case .resume(let worker): worker.resume(returning: start)
        case .queued: break
        case .stop: model.stop()
        }
    }

    /// What a worker asking for work gets now.
    private enum Taken {
        case start(Start)
        /// The worker ends: the service stopped, or enough others wait.
        case end
        case wait
    }

    /// The next start for a worker, waiting for one; nil when the worker should end (the service
    /// stopped, or enough others wait).
    func next() async -> Start? {
        switch state.withLock({ Self.take(&$0) }) {
        case .start(let start): return start
        case .end: return nil
        case .wait: break
        }
        return await withUnsafeContinuation { continuation in
            // Looked at again under the lock a start takes: one queued meanwhile is taken here.
            let taken = state.withLock { state -> Taken in
                let taken = Self.take(&state)
                if case .wait = taken { state.idle.append(continuation) }
                return taken
            }
            switch taken {
            case .start(let start): continuation.resume(returning: start)
            case .end: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// The queued start first, else the end of the worker, else a wait.
    private static func take(_ state: inout State) -> Taken {
        if let start = state.queue.popFirst() { return .start(start) }
        guard state.closed || state.idle.count >= maximumIdleWorkers else { return .wait }
        state.workers -= 1
        return .end
    }

    /// Refuses further starts, drops the queued ones and ends the idle workers; returns false when
    /// already closed. Workers in a refresh end after it.
    @discardableResult
    func close() -> Bool {
        let idle = state.withLock { state -> [UnsafeContinuation<Start?, Never>]? in
            guard !state.closed else { return nil }
            state.closed = true
            state.queue.removeAll()
            state.workers -= state.idle.count
            defer { state.idle.removeAll() }
            return state.idle
        }
        guard let idle else { return false }
        requestContinuation.finish()
        for worker in idle { worker.resume(returning: nil) }
        return true
    }

    /// The workers there are, busy or idle.
    var workerCount: Int { state.withLock { $0.workers } }
}
