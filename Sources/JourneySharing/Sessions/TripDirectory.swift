import FleetEngineCodec
import NIOCore
import Synchronization
import TripTracking

/// The sessions of the trips being viewed, and the trips the list page shows.
///
/// A listed trip keeps its session (so the list can show its last state); any other trip's session
/// is let go when its last viewer leaves, so a service whose pages show a stream of trips does not
/// keep them all.
final class TripDirectory: Sendable {
    let service: TripService
    private let viewerBufferLimit: Int
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: TripSession] = [:]
        /// Full names, in the order they were listed.
        var listed: [String] = []
        var listedNames: Set<String> = []
        /// The list pages' streams, each told (at most one signal waiting) when a trip changed.
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextWatcherID = 0
        /// The pages are shutting down: every stream ends.
        var closed = false
    }

    init(service: TripService, viewerBufferLimit: Int) {
        self.service = service
        self.viewerBufferLimit = viewerBufferLimit
    }

    /// The full name of `name`, a full name or a trip id of the service's provider, as the service
    /// reads it (without making a model for it).
    func fullName(of name: String) -> String {
        service.fullName(of: name)
    }

    /// Whether the list shows the trip `name` (a full name or a trip id).
    func isListed(_ name: String) -> Bool {
        let fullName = fullName(of: name)
        return state.withLock { $0.listedNames.contains(fullName) }
    }

    /// Takes trips off the list; a trip nobody views lets its session go.
    func unlist(_ names: [String]) {
        let fullNames = Set(names.map(fullName(of:)))
        state.withLock { state in
            state.listed.removeAll { fullNames.contains($0) }
            state.listedNames.subtract(fullNames)
            for name in fullNames {
                if let session = state.sessions[name], session.viewerCount == 0 { state.sessions[name] = nil }
            }
        }
        notifyWatchers()
    }

    /// Adds trips to the list page, in order; a trip listed already keeps its place.
    func list(_ names: [String]) {
        let sessions = names.map { session(for: $0) }
        state.withLock { state in
            for session in sessions where state.listedNames.insert(session.model.name).inserted {
                state.listed.append(session.model.name)
            }
        }
        notifyWatchers()
    }

    /// The full names of the listed trips, in order.
    var listedNames: [String] { state.withLock { $0.listed } }

    /// The session of the trip `name` (a full name or a trip id), made when there is none.
    func session(for name: String) -> TripSession {
        let model = service.tripModel(for: name)
        return state.withLock { state in
            if let session = state.sessions[model.name] { return session }
            let session = TripSession(model: model, viewerBufferLimit: viewerBufferLimit) { [weak self] in
                self?.sessionChanged(model.name)
            }
            state.sessions[model.name] = session
            if state.closed { session.close() }
            return session
        }
    }

    /// Ends every stream, of the list and of the trips, and every stream opened from now on.
    func close() {
        let (sessions, watchers) = state.withLock { state in
            state.closed = true
            defer { state.watchers = [:] }
            return (Array(state.sessions.values), Array(state.watchers.values))
        }
        for watcher in watchers { watcher.finish() }
        for session in sessions { session.close() }
    }

    /// The session of `name` when there is one.
    func existingSession(for name: String) -> TripSession? {
        state.withLock { $0.sessions[name] }
    }

    /// `{"trips": [...]}`: every listed trip's summary, in order.
    func summariesJSON() -> [UInt8] {
        let sessions = state.withLock { state in state.listed.compactMap { state.sessions[$0] } }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("trips")
        writer.beginArray()
        for session in sessions {
            writer.arrayElement()
            session.summary().write(to: &writer)
        }
        writer.endArray()
        writer.endObject()
        return writer.takeBytes()
    }

    /// Asks every listed trip nobody views and nobody has fetched for its status once.
    func peekAtListed() {
        let sessions = state.withLock { state in state.listed.compactMap { state.sessions[$0] } }
        for session in sessions { session.peek() }
    }

    /// A signal each time a listed trip may have changed (signals while one waits are merged);
    /// ends when the iterator is dropped.
    func watch() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            defer { state.nextWatcherID += 1 }
            state.watchers[state.nextWatcherID] = continuation
            return state.nextWatcherID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    private func sessionChanged(_ name: String) {
        let watchers = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            guard state.listedNames.contains(name) else {
                // Viewed by nobody and not listed: let it go (its last state with it).
                if let session = state.sessions[name], session.viewerCount == 0 { state.sessions[name] = nil }
                return []
            }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield() }
    }

    private func notifyWatchers() {
        let watchers = state.withLock { Array($0.watchers.values) }
        for watcher in watchers { watcher.yield() }
    }
}
