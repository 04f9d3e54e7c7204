import FleetEngineStatus
import NIOCore
import Synchronization

/// Cancels one call from outside the task that awaits it.
///
/// A call is normally cancelled with its task. A caller that makes many calls one after another in
/// one long-lived task (the trip service's refresh workers, which keep their tasks so that a
/// refresh costs no task of its own) cannot cancel one call that way without cancelling the task
/// for good: it passes one of these instead, and ``cancel()`` stops that call as cancelling its task
/// would. The attempt in flight is reset, the wait before a retry ends, a wait for a token or a
/// connection is given up, and the call fails with CANCELLED; no further attempt goes out.
/// Cancelling the task still works as well.
package final class CallCancellation: Sendable {
    private struct State {
        var isCancelled = false
        /// What stops the wait under way: at most one, as a call waits for one thing at a time.
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the call: the wait under way stops at once, and every later check fails the call.
    /// Calling it again does nothing.
    package func cancel() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            defer { state.handler = nil }
            return state.handler
        }
        handler?()
    }

    /// Sets what stops the wait the call begins now; false (and the handler not kept) when the
    /// call is cancelled already, so that the caller gives up the wait itself.
    func setHandler(_ handler: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.handler = handler
            return true
        }
    }

    /// The wait ended by itself: its handler is dropped.
    func clearHandler() {
        state.withLock { $0.handler = nil }
    }
}

extension FleetEngineClient {
    /// Whether the call is cancelled, by its task or by `cancellation`.
    static func isCancelled(_ cancellation: CallCancellation?) -> Bool {
        Task.isCancelled || cancellation?.isCancelled == true
    }

    /// Waits `delay` before a retry; false when the call was cancelled first (by its task, or by
    /// `cancellation`, which ends the wait at once).
    func pauseBeforeRetry(_ delay: Duration, cancellation: CallCancellation?) async -> Bool {
        guard let cancellation else {
            do {
                try await Task.sleep(for: delay)
                return true
            } catch {
                return false
            }
        }
        let eventLoop = self.eventLoop
        let waited = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let resume = ResumeOnce(continuation)
                let timer = eventLoop.scheduleTask(in: TimeAmount(delay)) { resume.resume(returning: true) }
                let stop: @Sendable () -> Void = {
                    timer.cancel()
                    resume.resume(returning: false)
                }
                if !cancellation.setHandler(stop) { stop() }
            }
        } onCancel: {
            cancellation.cancel()
        }
        cancellation.clearHandler()
        return waited && !Self.isCancelled(cancellation)
    }

    /// Runs `body` (a wait for a token or a connection, which follow the task's cancellation) so
    /// that `cancellation` gives it up too: in a task of its own, cancelled by either. Without a
    /// `cancellation` it runs in place.
    func cancellable<Value: Sendable>(
        _ cancellation: CallCancellation?,
        _ body: @escaping @Sendable () async throws(FleetEngineError) -> Value
    ) async throws(FleetEngineError) -> Value {
        guard let cancellation else { return try await body() }
        let task = Task { () async -> Result<Value, FleetEngineError> in
            do throws(FleetEngineError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if !cancellation.setHandler({ task.cancel() }) { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        cancellation.clearHandler()
        return try result.get()
    }
}

/// A continuation resumed by whichever of two events comes first.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<UnsafeContinuation<Value, Never>?>

    init(_ continuation: UnsafeContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(returning value: Value) {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: value)
    }
}
