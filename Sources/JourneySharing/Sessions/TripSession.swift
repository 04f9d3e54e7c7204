import FleetEngineCodec
import FleetEngineStatus
import Foundation
import NIOCore
import Synchronization
import TripTracking

/// One trip's journey sharing session: the pages open on it (its viewers), sharing one
/// subscription to the trip's model and one message per change.
///
/// The session is registered with the model exactly while it has a viewer (or a list page asked
/// for the trip's status once, a *peek*): the first viewer makes following active, the last one
/// leaving makes it inactive, and the refreshes stop. Each change of the trip becomes one state
/// message, made once and handed to every viewer's buffer; a viewer joining gets the latest at once.
/// A viewer whose buffer is full (its connection does not take the messages as fast as they come)
/// is dropped: its stream ends, and its page reconnects and starts again from the latest state.
final class TripSession: TripModelSubscriber, Sendable {
    /// The trip's model, shared with whoever else follows the trip in this process.
    let model: TripModel
    /// Messages a viewer may have waiting before it is dropped.
    private let viewerBufferLimit: Int
    /// Told whenever what the list page shows of this trip may have changed.
    private let changed: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var viewers: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        var nextViewerID = 0
        var seq: UInt64 = 0
        /// The last state message, for viewers that join.
        var latest: ByteBuffer?
        var trip: Trip?
        var updatedAt: Int64?
        var error: FleetEngineError?
        /// The trip ended (COMPLETE or CANCELED) and its last state was sent.
        var ended = false
        /// The trip service stopped: no more states will come.
        var stopped = false
        /// Whether the session is (or is being) registered with the model.
        var registered = false
        /// Whether a thread is making the registration match ``wantsRegistration``.
        var reconciling = false
        /// A list page asked for the trip's status: registered until the first event.
        var peeking = false
        /// Viewers dropped for falling behind, since the session began.
        var droppedViewers = 0

        var wantsRegistration: Bool { (!viewers.isEmpty || peeking) && !ended && !stopped }
    }

    init(model: TripModel, viewerBufferLimit: Int, changed: @escaping @Sendable () -> Void) {
        self.model = model
        self.viewerBufferLimit = max(1, viewerBufferLimit)
        self.changed = changed
    }

    /// The open viewers.
    var viewerCount: Int { state.withLock { $0.viewers.count } }

    /// Viewers dropped for falling behind.
    var droppedViewerCount: Int { state.withLock { $0.droppedViewers } }

    /// Opens a viewer: the latest state at once when there is one, then every new state, until the
    /// trip ends, the service stops, or the viewer falls too far behind. Iterating ends then;
    /// dropping the iterator (or cancelling its task) closes the viewer.
    func openViewer() -> AsyncStream<ByteBuffer> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ByteBuffer.self, bufferingPolicy: .bufferingOldest(viewerBufferLimit))
        let id = state.withLock { state in
            defer { state.nextViewerID += 1 }
            return state.nextViewerID
        }
        continuation.onTermination = { [weak self] _ in self?.closeViewer(id) }
        let isOver = state.withLock { state -> Bool in
            // Under the lock, so that no newer state reaches this viewer before the latest.
            if let latest = state.latest { continuation.yield(latest) }
            guard !state.ended, !state.stopped else { return true }
            state.viewers[id] = continuation
            return false
        }
        if isOver {
            continuation.finish()
        } else {
            changed()
            reconcile()
        }
        return stream
    }

    /// Follows the trip until its first event, for a page that shows its status, when nobody
    /// views it and it has never been fetched.
    func peek() {
        let wanted = state.withLock { state -> Bool in
            guard state.latest == nil, !state.registered, !state.ended, !state.stopped else { return false }
            state.peeking = true
            return true
        }
        if wanted { reconcile() }
    }

    /// What the list page shows of the trip.
    func summary() -> TripSummary {
        let (viewers, trip, updatedAt, ended) = state.withLock { ($0.viewers.count, $0.trip, $0.updatedAt, $0.ended) }
        let modelState = model.modelState
        return TripSummary(
            tripName: model.name, status: trip?.tripStatus, viewers: viewers,
            following: modelState == .following, ended: ended || modelState.hasEnded, updatedAt: updatedAt,
            refreshes: model.refreshCount)
    }

    private func closeViewer(_ id: Int) {
        let removed = state.withLock { $0.viewers.removeValue(forKey: id) != nil }
        if removed {
            changed()
            reconcile()
        }
    }

    /// Registers with the model or unregisters until that matches whether the session is wanted.
    /// One thread does it at a time; one that finds another at it leaves it to that one, which
    /// looks again after each change.
    private func reconcile() {
        let first = state.withLock { state -> Bool in
            guard !state.reconciling else { return false }
            state.reconciling = true
            return true
        }
        guard first else { return }
        while true {
            let register = state.withLock { state -> Bool? in
                let wanted = state.wantsRegistration
                guard wanted != state.registered else {
                    state.reconciling = false
                    return nil
                }
                state.registered = wanted
                return wanted
            }
            guard let register else { return }
            // Outside the lock: registering on an ended model calls back at once.
            if register { model.register(self) } else { model.unregister(self) }
        }
    }

    // MARK: Events of the model

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        let now = Self.millisecondsSince1970()
        publish { state in
            state.trip = trip
            state.updatedAt = now
            state.error = nil
        }
    }

    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {
        publish { state in state.error = error }
    }

    /// Ends every viewer's stream, and the stream of every viewer that opens from now on, and lets
    /// the trip's following go: the pages are shutting down.
    func close() {
        finishViewers(after: { $0.stopped = true })
        reconcile()
    }

    func tripModel(_ model: TripModel, didEndFollowingWith modelState: TripModelState) {
        if modelState.hasEnded {
            let last = model.trip
            publish { state in
                state.ended = true
                if let last { state.trip = last }
            }
            finishViewers(after: { _ in })
        } else {
            // The model let the session go when it stopped.
            finishViewers(after: { state in
                state.stopped = true
                state.registered = false
            })
        }
        changed()
    }

    /// Applies `change` and ends every viewer's stream (outside the lock: ending one calls back).
    private func finishViewers(after change: (inout State) -> Void) {
        let viewers = state.withLock { state in
            change(&state)
            defer { state.viewers = [:] }
            return Array(state.viewers.values)
        }
        for viewer in viewers { viewer.finish() }
    }

    /// Applies `change`, makes the state message once, and hands it to every viewer; drops those
    /// whose buffers are full.
    private func publish(_ change: (inout State) -> Void) {
        // The model calls its subscribers one at a time, so messages are made in order.
        let message = state.withLock { state -> TripStateMessage in
            change(&state)
            state.peeking = false
            state.seq += 1
            return TripStateMessage(
                tripName: model.name, seq: state.seq, sentAt: Self.millisecondsSince1970(),
                updatedAt: state.updatedAt, trip: state.trip, ended: state.ended, error: state.error)
        }
        let buffer = ByteBuffer(bytes: message.eventBytes())
        let dropped = state.withLock { state -> [AsyncStream<ByteBuffer>.Continuation] in
            state.latest = buffer
            var dropped: [AsyncStream<ByteBuffer>.Continuation] = []
            for (id, viewer) in state.viewers {
                if case .dropped = viewer.yield(buffer) {
                    state.viewers[id] = nil
                    dropped.append(viewer)
                }
            }
            state.droppedViewers += dropped.count
            return dropped
        }
        for viewer in dropped { viewer.finish() }
        changed()
        // A peek is over, or the last viewers were dropped.
        reconcile()
    }

    static func millisecondsSince1970() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

extension TripModelState {
    /// Whether the trip was followed to its end (COMPLETE or CANCELED).
    var hasEnded: Bool {
        if case .ended = self { return true }
        return false
    }
}
