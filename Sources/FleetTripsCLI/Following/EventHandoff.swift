import Synchronization

/// Hands events from the tasks that read them (one per followed trip and kind) to the one task
/// that writes them, an event at a time: a sender waits until the writer has taken its event.
///
/// So the handoff holds at most one event per sender, and a sender takes its next event from the
/// library only once the writer has room for it. While the output is slow or blocked, events wait
/// in the library's own buffer of each listener, which is bounded
/// (``TripModelOptions/updatesBufferLimit``) and ends that listener with RESOURCE_EXHAUSTED,
/// naming the trip, rather than growing; a merged stream without such a wait would grow without
/// bound instead. Each sender's events are taken in the order it sent them, and senders are served
/// in the order they arrived.
final class EventHandoff<Element: Sendable>: Sendable {
    /// An event whose sender waits for the writer to take it.
    private struct Offer {
        var id: Int
        var element: Element
        var sender: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// Events not yet taken, oldest first; one at most per sender.
        var offers: [Offer] = []
        /// The writer, when it waits for an event.
        var receiver: CheckedContinuation<Element?, any Error>?
        /// How sending ended, once it has: the writer gets it after the last event.
        var end: Result<Void, any Error>?
        /// Whether the writer has stopped taking events.
        var closed = false
        var nextID = 0
    }

    private let state = Mutex(State())

    /// An empty handoff.
    init() {}

    /// Offers `element` and returns once the writer has taken it.
    ///
    /// - Throws: `CancellationError` when the writer stopped taking events (``close()``) or the
    ///   sending task was cancelled before the event was taken.
    func send(_ element: Element) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (sender: CheckedContinuation<Void, any Error>) in
                let receiver = state.withLock { state -> Result<CheckedContinuation<Element?, any Error>?, any Error> in
                    // Checked under the lock: a cancellation handler that ran before this found
                    // no offer to withdraw.
                    if state.closed || Task.isCancelled { return .failure(CancellationError()) }
                    if let receiver = state.receiver {
                        state.receiver = nil
                        return .success(receiver)
                    }
                    state.offers.append(Offer(id: id, element: element, sender: sender))
                    return .success(nil)
                }
                switch receiver {
                case .failure(let error):
                    sender.resume(throwing: error)
                case .success(let receiver?):
                    receiver.resume(returning: element)
                    sender.resume()
                case .success(nil):
                    break
                }
            }
        } onCancel: {
            let withdrawn = state.withLock { state -> Offer? in
                guard let index = state.offers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.offers.remove(at: index)
            }
            withdrawn?.sender.resume(throwing: CancellationError())
        }
    }

    /// The oldest event not yet taken, waiting for one if there is none; nil once sending has
    /// finished and every event was taken.
    ///
    /// - Throws: the error sending finished with (``finish(throwing:)``), after every event sent
    ///   before it; `CancellationError` when the writing task is cancelled while it waits.
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (receiver: CheckedContinuation<Element?, any Error>) in
                let taken = state.withLock { state -> Result<Offer?, any Error>? in
                    if !state.offers.isEmpty { return .success(state.offers.removeFirst()) }
                    switch state.end {
                    case .success: return .success(nil)
                    case .failure(let error): return .failure(error)
                    case nil: break
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.receiver = receiver
                    return nil
                }
                switch taken {
                case .success(let offer?):
                    offer.sender.resume()
                    receiver.resume(returning: offer.element)
                case .success(nil):
                    receiver.resume(returning: nil)
                case .failure(let error):
                    receiver.resume(throwing: error)
                case nil:
                    break
                }
            }
        } onCancel: {
            let receiver = state.withLock { state in
                defer { state.receiver = nil }
                return state.receiver
            }
            receiver?.resume(throwing: CancellationError())
        }
    }

    /// Ends sending: once the events sent before are taken, ``next()`` returns nil, or throws
    /// `error` when there is one. Only the first call counts.
    func finish(throwing error: (any Error)? = nil) {
        let receiver = state.withLock { state -> CheckedContinuation<Element?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.receiver = nil }
            return state.receiver
        }
        if let error {
            receiver?.resume(throwing: error)
        } else {
            receiver?.resume(returning: nil)
        }
    }

    /// Stops taking events: every sender waiting, and every later one, gets `CancellationError`,
    /// so none waits for a writer that is gone.
    func close() {
        let refused = state.withLock { state in
            state.closed = true
            defer { state.offers = [] }
            return state.offers
        }
        for offer in refused { offer.sender.resume(throwing: CancellationError()) }
    }
}
