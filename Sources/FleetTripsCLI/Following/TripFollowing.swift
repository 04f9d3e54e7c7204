import FleetEngineClient
import FleetEngineStatus
import TripTracking

/// Follows trips with a ``TripService`` until every one has ended, writing each event as it comes:
/// what `fleettrips follow` and `fleettrips demo` share.
struct TripFollowing {
    /// Printed form of the events.
    enum Format {
        case json
        case human
    }

    var names: [String]
    var providerID: String
    var interval: Duration
    var format: Format
    /// Whether navigation-style progress events are printed too.
    var progress = false

    /// An event of either kind.
    enum Line: Sendable {
        case trip(TripEvent)
        case progress(TripProgressEvent)
    }

    /// Follows every trip over `client`, writing events to `output` in the order they arrive
    /// (each trip's in its own order), and returns once every trip ended (COMPLETE or CANCELED).
    /// A trip given more than once, by id or by name, is followed once.
    func run(client: FleetEngineClient, output: inout some ByteSink) async throws {
        let service = TripService(
            client: client, providerID: providerID,
            defaultOptions: TripModelOptions(autoRefreshTimeInterval: interval))
        // A trip named twice (or by its id and by its full name) is one model; following it twice
        // would print each of its events twice.
        var seen = Set<String>()
        let models = names.map { service.tripModel(for: $0) }.filter { seen.insert($0.name).inserted }
        let (events, sink) = AsyncThrowingStream.makeStream(of: (String, Line).self)
        // Each listener says when it is registered; the service runs only once all are, so none
        // misses the first refresh's events (a model does not replay what it delivered before).
        let (registered, registration) = AsyncStream.makeStream(of: Void.self)
        let progress = self.progress
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await withThrowingTaskGroup(of: Void.self) { followers in
                        for model in models {
                            if progress {
                                let monitor = TripProgressMonitor(model: model)
                                followers.addTask {
                                    var iterator = monitor.events.makeAsyncIterator()
                                    registration.yield()
                                    while let event = try await iterator.next() {
                                        sink.yield((model.name, .progress(event)))
                                    }
                                }
                            }
                            followers.addTask {
                                var iterator = model.updates.makeAsyncIterator()
                                registration.yield()
                                while let event = try await iterator.next() { sink.yield((model.name, .trip(event))) }
                            }
                        }
                        try await followers.waitForAll()
                    }
                    sink.finish()
                } catch {
                    sink.finish(throwing: error)
                }
            }
            var waiting = models.count * (progress ? 2 : 1)
            if waiting > 0 {
                for await _ in registered {
                    waiting -= 1
                    if waiting == 0 { break }
                }
            }
            group.addTask { await service.run() }
            do {
                for try await (name, line) in events {
                    switch line {
                    case .trip(let event):
                        let line = TripEventLine(trip: name, event: event)
                        try output.write(format == .json ? try line.json() : line.human())
                    case .progress(let event):
                        let line = ProgressEventLine(trip: name, event: event)
                        try output.write(format == .json ? try line.json() : line.human())
                    }
                }
            } catch {
                service.beginGracefulShutdown()
                throw error
            }
            service.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
