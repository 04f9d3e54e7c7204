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
    /// The GetTrip calls per minute all the trips share.
    var requestBudget = RequestBudget.fleetEngineDefault

    /// An event of either kind.
    enum Line: Sendable {
        case trip(TripEvent)
        case progress(TripProgressEvent)
    }

    /// Follows every trip over `client`, writing events to `output` in the order they arrive
    /// (each trip's in its own order), and returns once every trip ended (COMPLETE or CANCELED).
    /// A trip given more than once, by id or by name, is followed once.
    ///
    /// An event is taken from the library only once the one before is written (``EventHandoff``),
    /// so memory stays bounded while `output` blocks: the events waiting are the library's, at most
    /// 10,000 per trip and kind (``TripModelOptions/updatesBufferLimit``), and a trip whose events
    /// would pass that ends the run with RESOURCE_EXHAUSTED naming it, after every event before was
    /// written.
    ///
    /// As JSON, a trip that holds fields the schema does not define, which the `message` of its
    /// `tripUpdated` lines cannot show, gets a `note:` line on `notices` as `fleettrips decode`
    /// writes, when they first appear and whenever they change.
    ///
    /// - Throws: the library's ``FleetEngineError`` that ended a trip's events (RESOURCE_EXHAUSTED
    ///   for one whose output fell behind), or what `output` throws.
    func run(client: FleetEngineClient, output: inout some ByteSink, notices: inout some ByteSink) async throws {
        try await run(service: tripService(client: client), output: &output, notices: &notices)
    }

    /// The `TripService` that ``run(client:output:notices:)`` follows with, for a caller that
    /// needs a hold on it (to shut it down) and runs it with ``run(service:output:notices:)``.
    func tripService(client: FleetEngineClient) -> TripService {
        TripService(
            client: client, providerID: providerID, defaultOptions: TripModelOptions(autoRefreshTimeInterval: interval),
            requestBudget: requestBudget)
    }

    /// Follows every trip with `service`, which this runs (it must not be running already), as
    /// ``run(client:output:notices:)`` does; its models' options say how often and how many events
    /// may wait.
    func run(service: TripService, output: inout some ByteSink, notices: inout some ByteSink) async throws {
        // A trip named twice (or by its id and by its full name) is one model; following it twice
        // would print each of its events twice.
        var seen = Set<String>()
        let models = names.map { service.tripModel(for: $0) }.filter { seen.insert($0.name).inserted }
        let events = EventHandoff<(String, Line)>()
        // Each listener says when it is registered; the service runs only once all are, so none
        // misses the first refresh's events (a model does not replay what it delivered before).
        let (registered, registration) = AsyncStream.makeStream(of: Void.self)
        let progress = self.progress
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The readers and the service run on Swift's global executor whatever executor the caller
            // prefers: a writer that blocks its thread (standard output not read) must not hold them up.
            group.addTask(executorPreference: globalConcurrentExecutor) {
                do {
                    try await withThrowingTaskGroup(of: Void.self) { followers in
                        for model in models {
                            if progress {
                                let monitor = TripProgressMonitor(model: model)
                                followers.addTask {
                                    try await Self.forward(
                                        monitor.events, of: model, kind: "progress", to: events,
                                        registration: registration, as: Line.progress)
                                }
                            }
                            followers.addTask {
                                try await Self.forward(
                                    model.updates, of: model, kind: "trip", to: events,
                                    registration: registration, as: Line.trip)
                            }
                        }
                        try await followers.waitForAll()
                    }
                    events.finish()
                } catch {
                    events.finish(throwing: error)
                }
            }
            var waiting = models.count * (progress ? 2 : 1)
            if waiting > 0 {
                for await _ in registered {
                    waiting -= 1
                    if waiting == 0 { break }
                }
            }
            group.addTask(executorPreference: globalConcurrentExecutor) { await service.run() }
            // The last note of each trip: the same fields are not noted again at every refresh.
            var noted: [String: [UInt8]] = [:]
            do {
                while let next = try await events.next() {
                    let (name, line) = next
                    switch line {
                    case .trip(let event):
                        let line = TripEventLine(trip: name, event: event)
                        try output.write(format == .json ? try line.json() : line.human())
                        if format == .json, case .tripUpdated(let trip, _) = event {
                            let notice = trip.unknownFieldsNotice(context: "the trip \(name) of a tripUpdated line")
                            if let notice, noted[name] != notice { try notices.write(notice) }
                            noted[name] = notice
                        }
                    case .progress(let event):
                        let line = ProgressEventLine(trip: name, event: event)
                        try output.write(format == .json ? try line.json() : line.human())
                    }
                }
            } catch {
                // The senders waiting would otherwise wait for this loop for ever.
                events.close()
                service.beginGracefulShutdown()
                throw error
            }
            service.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    /// Hands `sequence`'s events to `events`, each once the one before was taken, after saying on
    /// `registration` that its listener is registered.
    ///
    /// - Throws: what ends `sequence`; its RESOURCE_EXHAUSTED, which says the library held as many
    ///   events as `model`'s options let it while the output had not taken them, in follow's words.
    private static func forward<Events: AsyncSequence>(
        _ sequence: Events, of model: TripModel, kind: String, to events: EventHandoff<(String, Line)>,
        registration: AsyncStream<Void>.Continuation, as line: (Events.Element) -> Line
    ) async throws where Events.Failure == FleetEngineError {
        let trip = model.name
        var iterator = sequence.makeAsyncIterator()
        registration.yield()
        do {
            while let event = try await iterator.next() {
                try await events.send((trip, line(event)))
            }
        } catch let error as FleetEngineError where error.code == .resourceExhausted {
            throw FleetEngineError(
                code: .resourceExhausted,
                message:
                    "\(max(1, model.options.updatesBufferLimit)) \(kind) events of \(trip) waited to be written, the most follow holds for one "
                    + "trip: its output is not read as fast as the trip changes",
                cause: error)
        }
    }
}
