import FleetEngineStatus
import Logging
import NIOCore
import Synchronization

/// Keeps one usable HTTP/2 connection for the client's calls.
///
/// A connection is opened when a call first needs one, by ``run()``, which is where all of the
/// client's background work happens. A failed attempt fails the calls waiting for it (they are
/// retried by their own policy) and holds off the next attempt by the reconnect backoff; calls that
/// arrive in that time fail at once with the last connection error, as gRPC's channels do in
/// TRANSIENT_FAILURE. A GOAWAY or a closed connection makes the next call open a new one; calls
/// in flight on a connection that received GOAWAY finish there.
final class ConnectionManager: Sendable {
    private enum State {
        case idle
        case connecting(waiters: [Int: Waiter])
        case ready(HTTP2Connection)
        case backingOff(until: ContinuousClock.Instant, error: FleetEngineError)
        case shutDown
    }

    /// A call waiting for the connection being made.
    private struct Waiter {
        var continuation: CheckedContinuation<HTTP2Connection, any Error>
        /// Fails the wait at the call's deadline. Cancelled when the wait ends otherwise: left on
        /// the loop, it would hold the manager until that deadline, which may be years away.
        var deadlineTimer: Scheduled<Void>

        func resume(with result: Result<HTTP2Connection, FleetEngineError>) {
            deadlineTimer.cancel()
            continuation.resume(with: result.mapError { $0 as any Error })
        }
    }

    enum Event: Sendable {
        case connect
        case connectionEnded(id: Int)
    }

    private struct Shared {
        var state: State = .idle
        var failedAttempts = 0
        var nextID = 1
        var nextWaiterID = 0
        var connections: [Int: HTTP2Connection] = [:]
        var shutdownRequested = false
        var isRunning = false
    }

    private let connector: Connector
    private let logger: Logger
    private let shared = Mutex(Shared())
    private let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation

    /// The loop every connection runs on.
    var eventLoop: any EventLoop { connector.eventLoop }

    init(connector: Connector, logger: Logger) {
        self.connector = connector
        self.logger = logger
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// The ready connection when it accepts new calls, else nil: ``connection(deadline:)``'s fast
    /// path, synchronous, so that a call on a ready connection does not allocate that async
    /// function's frame.
    func readyConnection() -> HTTP2Connection? {
        shared.withLock { shared in
            guard case .ready(let connection) = shared.state, connection.acceptsNewCalls else { return nil }
            return connection
        }
    }

    /// A connection that accepts new calls, opening one if needed; DEADLINE_EXCEEDED when none is
    /// ready by `deadline` (so a call never waits forever, even when ``run()`` is not running), and
    /// CANCELLED when the calling task is cancelled while it waits.
    func connection(deadline: ContinuousClock.Instant) async throws(FleetEngineError) -> HTTP2Connection {
        enum Decision {
            case use(HTTP2Connection)
            case wait
            case fail(FleetEngineError)
        }
        // Fast path: the ready connection, without suspending.
        if let ready = readyConnection() { return ready }
        let waiterID = shared.withLock { shared in
            shared.nextWaiterID += 1
            return shared.nextWaiterID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<HTTP2Connection, any Error>) in
                    let decision: Decision = shared.withLock { shared in
                        if Task.isCancelled { return .fail(Self.cancelledWhileWaiting) }
                        switch shared.state {
                        case .ready(let connection) where connection.acceptsNewCalls:
                            return .use(connection)
                        case .ready, .idle:
                            shared.state = .connecting(
                                waiters: [waiterID: waiter(waiterID, continuation, deadline: deadline)])
                            eventSink.yield(.connect)
                            return .wait
                        case .connecting(var waiters):
                            waiters[waiterID] = waiter(waiterID, continuation, deadline: deadline)
                            shared.state = .connecting(waiters: waiters)
                            return .wait
                        case .backingOff(let until, let error):
                            if ContinuousClock.now < until { return .fail(error) }
                            shared.state = .connecting(
                                waiters: [waiterID: waiter(waiterID, continuation, deadline: deadline)])
                            eventSink.yield(.connect)
                            return .wait
                        case .shutDown:
                            return .fail(Self.shutDownError)
                        }
                    }
                    switch decision {
                    case .use(let connection):
                        continuation.resume(returning: connection)
                    case .fail(let error):
                        continuation.resume(throwing: error)
                    case .wait:
                        // Resumed by the connection attempt, the wait's deadline timer (set with
                        // the waiter, under the lock), cancellation or shutdown.
                        break
                    }
                }
            } onCancel: {
                resumeWaiter(waiterID, throwing: Self.cancelledWhileWaiting)
            }
        } catch let error as FleetEngineError {
            throw error
        } catch {
            throw FleetEngineError(
                code: .unavailable, message: ConnectionFailureText.describe(error),
                origin: .connection(requestSent: false), cause: error)
        }
    }

    private static let cancelledWhileWaiting = FleetEngineError(
        code: .cancelled, message: "the call was cancelled while it waited for a connection", origin: .local)

    /// A waiting call, with the timer that fails it with DEADLINE_EXCEEDED at `deadline`.
    private func waiter(
        _ id: Int, _ continuation: CheckedContinuation<HTTP2Connection, any Error>, deadline: ContinuousClock.Instant
    ) -> Waiter {
        let remaining = max(deadline - .now, .zero)
        let timer = connector.eventLoop.scheduleTask(in: TimeAmount(remaining)) { [self] in
            resumeWaiter(
                id,
                throwing: FleetEngineError(
                    code: .deadlineExceeded,
                    message: "no connection to \(connector.configuration.endpoint) was ready within "
                        + "the call's deadline",
                    origin: .local
                ))
        }
        return Waiter(continuation: continuation, deadlineTimer: timer)
    }

    /// Fails one waiting call, if it is still waiting.
    private func resumeWaiter(_ id: Int, throwing error: FleetEngineError) {
        let waiter: Waiter? = shared.withLock { shared in
            guard case .connecting(var waiters) = shared.state, let waiter = waiters.removeValue(forKey: id) else {
                return nil
            }
            shared.state = .connecting(waiters: waiters)
            return waiter
        }
        waiter?.resume(with: .failure(error))
    }

    /// Whether ``beginGracefulShutdown()`` was called: no call is sent again after that.
    var isShutDown: Bool { shared.withLock { $0.shutdownRequested } }

    static let shutDownError = FleetEngineError(
        code: .unavailable,
        message: "the client is shut down, or its run() is not running",
        origin: .connection(requestSent: false)
    )

    static let alreadyRunningError = FleetEngineError(
        code: .failedPrecondition,
        message: "the client's run() is already running: a client runs once at a time",
        origin: .local
    )

    /// Opens connections as calls need them, until ``beginGracefulShutdown()`` or cancellation.
    /// After a graceful shutdown it returns once the calls in flight have finished. A second
    /// call while one runs fails with FAILED_PRECONDITION: both would wait on one event stream.
    func run() async throws(FleetEngineError) {
        let isOnlyRun = shared.withLock { shared -> Bool in
            guard !shared.isRunning else { return false }
            shared.isRunning = true
            return true
        }
        guard isOnlyRun else { throw Self.alreadyRunningError }
        defer { shared.withLock { $0.isRunning = false } }
        await withTaskCancellationHandler {
            await handleEvents()
        } onCancel: {
            beginGracefulShutdown()
            for connection in shared.withLock({ Array($0.connections.values) }) { connection.close() }
        }
        // Whatever is still open when run() ends is closed: nothing outlives it.
        for connection in shared.withLock({ Array($0.connections.values) }) { connection.close() }
    }

    private func handleEvents() async {
        for await event in events {
            switch event {
            case .connect:
                await connect()
            case .connectionEnded(let id):
                let isLast = shared.withLock { shared -> Bool in
                    shared.connections[id] = nil
                    if case .ready(let connection) = shared.state, connection.id == id { shared.state = .idle }
                    return shared.shutdownRequested && shared.connections.isEmpty
                }
                if isLast { eventSink.finish() }
            }
        }
    }

    private func connect() async {
        let id: Int? = shared.withLock { shared in
            guard case .connecting = shared.state else { return nil }
            defer { shared.nextID += 1 }
            return shared.nextID
        }
        guard let id else { return }
        logger.debug(
            "connecting", metadata: ["endpoint": "\(connector.configuration.endpoint)", "connection": "\(id)"])
        do {
            let connection = try await connector.connect(
                id: id,
                onGoAway: { [weak self] connection in self?.goAwayReceived(on: connection) },
                onClose: { [eventSink] connection in eventSink.yield(.connectionEnded(id: connection.id)) }
            )
            let waiters = shared.withLock { shared -> [Waiter] in
                shared.connections[id] = connection
                shared.failedAttempts = 0
                guard case .connecting(let waiters) = shared.state else {
                    // Shut down while connecting: the new connection is not used.
                    return []
                }
                shared.state = .ready(connection)
                return Array(waiters.values)
            }
            if shared.withLock({ $0.shutdownRequested }) { connection.close() }
            logger.debug("connected", metadata: ["connection": "\(id)"])
            for waiter in waiters { waiter.resume(with: .success(connection)) }
        } catch {
            var generator = SystemRandomNumberGenerator()
            let waiters = shared.withLock { shared -> [Waiter] in
                let delay = connector.configuration.reconnectBackoff.delay(
                    afterRetry: shared.failedAttempts, using: &generator)
                shared.failedAttempts += 1
                guard case .connecting(let waiters) = shared.state else { return [] }
                shared.state = .backingOff(until: .now + delay, error: error)
                return Array(waiters.values)
            }
            logger.debug("connection attempt failed", metadata: ["connection": "\(id)", "error": "\(error)"])
            for waiter in waiters { waiter.resume(with: .failure(error)) }
        }
    }

    private func goAwayReceived(on connection: HTTP2Connection) {
        logger.debug("GOAWAY received", metadata: ["connection": "\(connection.id)"])
        shared.withLock { shared in
            if case .ready(let current) = shared.state, current.id == connection.id { shared.state = .idle }
        }
    }

    /// Stops new calls; calls in flight finish, then the connections close and ``run()`` returns.
    func beginGracefulShutdown() {
        let (waiters, connections) = shared.withLock { shared in
            shared.shutdownRequested = true
            var waiters: [Waiter] = []
            if case .connecting(let pending) = shared.state { waiters = Array(pending.values) }
            shared.state = .shutDown
            return (waiters, Array(shared.connections.values))
        }
        for waiter in waiters { waiter.resume(with: .failure(Self.shutDownError)) }
        if connections.isEmpty { eventSink.finish() }
        for connection in connections { connection.closeWhenIdle() }
    }
}
