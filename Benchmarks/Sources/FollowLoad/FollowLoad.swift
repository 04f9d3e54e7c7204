import ArgumentParser
import FleetEngineClient
import FleetEngineCodec
import ProcessMeasures
import TripTracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One ``TripService`` following many trips of an emulator, printing one JSON line of results.
///
///     FollowLoad --port P --provider ID [--names-file FILE] [--interval 5] [--warmup 20] [--seconds 60]
///
/// The trip names come one per line from --names-file or standard input. A counting subscriber is
/// registered with each trip, the registrations spread evenly over one refresh interval (as trips
/// that begin at different times would be). After the warm-up the measured window opens: CPU time
/// is the whole process's (getrusage, every thread) over the window's wall time; memory per trip
/// is the growth of resident memory from before the first model was made to the end of the window,
/// divided by the number of trips; a location's age is the wall clock when its event arrives minus
/// its `update_time`. "window open" and "window closed" go to standard error as the window opens
/// and closes, so that Scripts/follow-load.py, which starts the emulator and runs this against it,
/// can measure the emulator over the same window.
@main
struct FollowLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow many trips with one TripService; prints one JSON line."
    )

    @Option(help: "The port of the plaintext emulator on 127.0.0.1.")
    var port: Int

    @Option(help: "The provider (project) id of the trips.")
    var provider = "emulator-project"

    @Option(help: "A file with one trip name per line; standard input when not given.")
    var namesFile: String?

    @Option(help: "The refresh interval, in seconds.")
    var interval = 5.0

    @Option(help: "How long to follow before measuring, in seconds (at least the registration spread).")
    var warmup = 20.0

    @Option(help: "How long the measured window lasts, in seconds.")
    var seconds = 60.0

    @Option(help: "Spread the registrations over this many seconds; one interval when not given, 0 for all at once.")
    var spread: Double?

    @Option(help: "The GetTrip view: unspecified, sdk or journey-sharing-v1s.")
    var view = "unspecified"

    @Option(help: "The trip service's request budget, in GetTrip calls per minute; unlimited when not given.")
    var maxCallsPerMinute: Int?

    @Flag(help: "Instead of following, fetch each trip once and hold it: the control for memory per trip.")
    var heldTripsControl = false

    @Flag(help: "Run the refreshes (and subscribers) on Swift's global executor instead of the client's event loop.")
    var globalExecutor = false

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be a TCP port") }
        guard interval > 0, seconds > 0 else { throw ValidationError("--interval and --seconds must be positive") }
        guard (maxCallsPerMinute ?? 1) > 0 else { throw ValidationError("--max-calls-per-minute must be positive") }
        guard warmup >= 0, (spread ?? 0) >= 0 else {
            throw ValidationError("--warmup and --spread must not be negative")
        }
        guard tripView != nil else { throw ValidationError("--view must be unspecified, sdk or journey-sharing-v1s") }
    }

    private var tripView: TripView? {
        switch view {
        case "unspecified": .unspecified
        case "sdk": .sdk
        case "journey-sharing-v1s": .journeySharingV1s
        default: nil
        }
    }

    func run() async throws {
        let names = try TripNames.read(from: namesFile)
        guard !names.isEmpty else { throw FollowLoadError("no trip names: give --names-file or names on stdin") }
        let client = try FleetEngineClient(configuration: .plaintext(port: port), tokenProvider: NoTokenProvider())
        let options = TripModelOptions(
            autoRefreshTimeInterval: Duration.seconds(interval), view: tripView ?? .unspecified)
        let service = TripService(
            client: client, providerID: provider, defaultOptions: options,
            requestBudget: RequestBudget(callsPerMinute: maxCallsPerMinute),
            refreshExecutor: globalExecutor ? globalConcurrentExecutor : nil)
        if heldTripsControl {
            let line = try await withThrowingTaskGroup(of: Void.self, returning: String.self) { group in
                group.addTask { try await client.run() }
                defer { client.beginGracefulShutdown() }
                // The first call connects, so that the connection is not counted per trip.
                _ = try await client.getTrip(named: HeldTripsControl.fullName(names[0], provider: provider))
                return try await HeldTripsControl(names: names, providerID: provider).run(client: client)
            }
            print(line)
            return
        }
        let report = try await withThrowingTaskGroup(of: Void.self, returning: FollowReport.self) { group in
            group.addTask { try await client.run() }
            group.addTask { await service.run() }
            do {
                let report = try await measure(names: names, client: client, service: service)
                service.beginGracefulShutdown()
                client.beginGracefulShutdown()
                try await group.waitForAll()
                return report
            } catch {
                group.cancelAll()
                throw error
            }
        }
        print(report.jsonLine)
    }

    private func measure(names: [String], client: FleetEngineClient, service: TripService) async throws -> FollowReport
    {
        let recorder = FollowRecorder()
        // One call first, so that the connection, its buffers and the event loops' threads exist
        // before the baseline and are not counted as memory per trip; it also checks the server.
        let first = HeldTripsControl.fullName(names[0], provider: provider)
        do {
            _ = try await client.getTrip(named: first)
        } catch {
            throw FollowLoadError("GetTrip of \(first) on 127.0.0.1:\(port) failed: \(error)")
        }
        guard let baseline = ResidentMemory.read() else { throw FollowLoadError("no /proc/self/status to read") }
        let clock = ContinuousClock()
        let started = clock.now
        let models = names.map { service.tripModel(for: $0) }
        let spreadSeconds = spread ?? interval
        let subscribers = try await register(models: models, recorder: recorder, over: Duration.seconds(spreadSeconds))
        try await clock.sleep(until: started + Duration.seconds(max(warmup, spreadSeconds)))

        Self.announce("window open")
        recorder.open()
        let cpuBefore = ProcessCPUTime.now()
        let windowStart = clock.now
        try await clock.sleep(until: windowStart + Duration.seconds(seconds))
        let cpuAfter = ProcessCPUTime.now()
        let windowEnd = clock.now
        let window = recorder.close()
        Self.announce("window closed")
        guard let end = ResidentMemory.read() else { throw FollowLoadError("no /proc/self/status to read") }
        #if canImport(Glibc)
            // glibc's per-arena totals, to standard error: "in use bytes" against "system bytes" tells
            // live allocations from memory the allocator holds but has not returned.
            // Looked up at run time: Glibc's module map leaves out malloc.h.
            if let symbol = dlsym(nil, "malloc_stats") {
                unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
            }
        #endif

        var encodedBytes = 0
        var held = 0
        var ended = 0
        for model in models {
            if let trip = model.trip {
                held += 1
                encodedBytes += trip.serializedBytes().count
            }
            if case .ended = model.modelState { ended += 1 }
        }
        return FollowReport(
            trips: names.count, intervalSeconds: interval, warmupSeconds: max(warmup, spreadSeconds),
            registrationSpreadSeconds: spreadSeconds, measuredSeconds: (windowEnd - windowStart).inSeconds,
            cpuSeconds: (cpuAfter - cpuBefore).inSeconds, residentBaseline: baseline, residentEnd: end,
            encodedTripBytes: encodedBytes, tripsHeld: held, followedAtEnd: service.followedTripCount,
            endedTrips: ended,
            tripsNeverUpdated: subscribers.count(where: { $0.updates.load(ordering: .relaxed) == 0 }), window: window)
    }

    /// Registers one counting subscriber with each model, in batches spread evenly over `spread`.
    private func register(
        models: [TripModel], recorder: FollowRecorder, over spread: Duration
    ) async throws -> [CountingSubscriber] {
        let subscribers = models.map { _ in CountingSubscriber(recorder: recorder) }
        let batches = spread > .zero ? min(models.count, 100) : 1
        let clock = ContinuousClock()
        let start = clock.now
        for batch in 0..<batches {
            let range = (models.count * batch / batches)..<(models.count * (batch + 1) / batches)
            for index in range { models[index].register(subscribers[index]) }
            if batch + 1 < batches {
                try await clock.sleep(until: start + spread * (Double(batch + 1) / Double(batches)))
            }
        }
        return subscribers
    }

    private static func announce(_ line: String) {
        StandardErrorLine.write(line)
    }
}
