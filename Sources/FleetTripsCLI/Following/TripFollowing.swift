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
    func run(client: FleetEngineClient, output: inout some ByteSink) async throws {
        let service = TripService(
            client: client, providerID: providerID,
            defaultOptions: TripModelOptions(autoRefreshTimeInterval: interval))
        let models = names.map { service.tripModel(for: $0) }
        let (events, sink) = AsyncThrowingStream.makeStream(of: (String, Line).self)
        let progress = self.progress
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await service.run() }
            group.addTask {
                do {
                    try await withThrowingTaskGroup(of: Void.self) { followers in
                        for model in models {
                            if progress {
                                let monitor = TripProgressMonitor(model: model)
                                followers.addTask {
                                    for try await event in monitor.events { sink.yield((model.name, .progress(event))) }
                                }
                            }
                            followers.addTask {
                                for try await event in model.updates { sink.yield((model.name, .trip(event))) }
                            }
                        }
                        try await followers.waitForAll()
                    }
                    sink.finish()
                } catch {
                    sink.finish(throwing: error)
                }
            }
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
