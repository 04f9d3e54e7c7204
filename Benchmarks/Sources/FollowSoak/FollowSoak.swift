import ArgumentParser
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import ProcessMeasures
import TripTracking

/// One ``TripService`` following many simulated trips of an emulator in this process for half an
/// hour or more while the emulator injects faults, then for a while without them; prints one JSON
/// report.
///
///     FollowSoak [--trips 1000] [--interval 5] [--fault-minutes 30] [--max-minutes 60] [--speed 1]
///
/// Faults while they are on: every `--fail-every`-th call fails UNAVAILABLE, every
/// `--delay-every`-th waits `--delay-seconds`, and in every other minute each connection is closed
/// abruptly at its `--drop-connection-at`-th call. GOAWAY retires each connection at
/// `--goaway-after-seconds` of age for the whole run, on purpose: a healthy server retires old
/// connections too (gRPC's max connection age), so it is part of the calm that follows the faults.
/// After `--fault-minutes` the failures, delays and drops stop, and following goes on until
/// every trip has ended, or `--max-minutes` after the start.
///
/// The report says whether every trip reached COMPLETE, whether each trip's last merged state equals
/// a full fetch of it, the longest a trip went without an update once the faults stopped (against
/// the bound: the interval, the following's longest backoff of a minute, and 10 s), resident memory
/// after the warm-up against its highest later, and open file descriptors at the start, the end
/// and their most.
@main
struct FollowSoak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow many simulated trips through faults for a long run; prints one JSON report."
    )

    @Option(help: "How many simulated trips to follow.")
    var trips = 1000

    @Option(help: "The refresh interval, in seconds.")
    var interval = 5.0

    @Option(help: "How long the faults last, in minutes from the start.")
    var faultMinutes = 30.0

    @Option(help: "The whole run's limit, in minutes: following stops then even if trips are still under way.")
    var maxMinutes = 60.0

    @Option(help: "How many times faster than real time the simulated trips move.")
    var speed = 1.0

    @Option(help: "The seed of the simulated trips.")
    var seed: UInt64 = 1

    @Option(help: "While faults are on, every Nth call fails UNAVAILABLE.")
    var failEvery = 3

    @Option(help: "While faults are on, every Nth call waits --delay-seconds first.")
    var delayEvery = 50

    @Option(help: "The delay of the delayed calls, in seconds.")
    var delaySeconds = 3.0

    @Option(help: "In every other minute of faults, each connection is closed at its Nth call.")
    var dropConnectionAt = 300

    @Option(help: "GOAWAY retires each connection at this age, in seconds, for the whole run.")
    var goawayAfterSeconds = 10.0

    // Ten minutes: with 1,000 trips followed from the start, resident memory rose for about seven
    // (held trips filling in their routes, connections coming and going) before it levelled off.
    @Option(help: "Memory is compared with its reading this many minutes after the start.")
    var warmupMinutes = 10.0

    @Option(help: "How often to read memory and open descriptors, in seconds.")
    var sampleSeconds = 10.0

    @Option(help: "The trip service's request budget in calls per minute; Fleet Engine's default when not given.")
    var maxCallsPerMinute: Int?

    func validate() throws {
        guard trips > 0, trips <= FleetEngineEmulator.maximumSimulatedTrips else {
            throw ValidationError("--trips must be from 1 to \(FleetEngineEmulator.maximumSimulatedTrips)")
        }
        guard interval > 0, faultMinutes >= 0, maxMinutes > faultMinutes, speed > 0, sampleSeconds > 0 else {
            throw ValidationError(
                "--interval, --speed and --sample-seconds must be positive, and --max-minutes above --fault-minutes")
        }
        guard failEvery > 0, delayEvery > 0, dropConnectionAt > 0, delaySeconds >= 0, goawayAfterSeconds > 0 else {
            throw ValidationError("the fault settings must be positive")
        }
        guard (maxCallsPerMinute ?? 1) > 0 else { throw ValidationError("--max-calls-per-minute must be positive") }
    }

    /// The faults of one minute of the fault phase (`minute` from 0).
    func faults(minute: Int, transport: FaultPlan) -> FaultPlan {
        var plan = transport
        plan.failEvery = failEvery
        plan.failCode = .unavailable
        plan.delay = Duration.seconds(delaySeconds)
        plan.delayEvery = delayEvery
        plan.dropConnectionAtCall = minute.isMultiple(of: 2) ? dropConnectionAt : nil
        return plan
    }

    func run() async throws {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.faults.goAwayAfter = Duration.seconds(goawayAfterSeconds)
        configuration.faults.goAwayGraceTime = .seconds(5)
        let transport = configuration.faults
        configuration.faults = faults(minute: 0, transport: transport)
        let report = try await withFleetEngineEmulator(configuration) { emulator in
            let port = try await emulator.listeningPort()
            let names = try emulator.simulate(providerID: "soak-project", count: trips, seed: seed, speed: speed)
            let client = try FleetEngineClient(configuration: .plaintext(port: port), tokenProvider: NoTokenProvider())
            let service = TripService(
                client: client, providerID: "soak-project",
                defaultOptions: TripModelOptions(autoRefreshTimeInterval: Duration.seconds(interval)),
                requestBudget: maxCallsPerMinute.map { RequestBudget(callsPerMinute: $0) } ?? .fleetEngineDefault)
            return try await withThrowingTaskGroup(of: Void.self, returning: SoakReport.self) { group in
                group.addTask { try await client.run() }
                group.addTask { await service.run() }
                do {
                    let report = try await soak(
                        names: names, emulator: emulator, transport: transport, client: client, service: service)
                    service.beginGracefulShutdown()
                    client.beginGracefulShutdown()
                    try await group.waitForAll()
                    return report
                } catch {
                    group.cancelAll()
                    throw error
                }
            }
        }
        print(report.json)
    }

    private func soak(
        names: [String], emulator: FleetEngineEmulator, transport: FaultPlan, client: FleetEngineClient,
        service: TripService
    ) async throws -> SoakReport {
        let clock = ContinuousClock()
        let start = clock.now
        let faultClock = SoakFaultClock()
        let descriptorsAtStart = OpenFileDescriptors.count() ?? -1
        let models = names.map { service.tripModel(for: $0) }
        let records = models.map { _ in SoakTripRecord(faults: faultClock) }
        for (model, record) in zip(models, records) { model.register(record) }

        var samples: [SoakSample] = []
        var minute = 0
        var next = start
        let faultEnd = start + Duration.seconds(faultMinutes * 60)
        let end = start + Duration.seconds(maxMinutes * 60)
        while clock.now < end {
            let now = clock.now
            if faultClock.stoppedAt == nil {
                if now >= faultEnd {
                    try emulator.setFaultPlan(transport)
                    faultClock.stopNow()
                    Self.announce("faults stopped after \(Int((now - start).inSeconds)) s")
                } else if Int((now - start).inSeconds / 60) != minute {
                    minute = Int((now - start).inSeconds / 60)
                    try emulator.setFaultPlan(faults(minute: minute, transport: transport))
                }
            }
            let ended = records.count(where: { $0.ended != nil })
            let sample = SoakSample(
                seconds: (now - start).inSeconds, residentBytes: ResidentMemory.read()?.current ?? -1,
                openFileDescriptors: OpenFileDescriptors.count() ?? -1, followedTrips: service.followedTripCount,
                faultsOn: faultClock.stoppedAt == nil)
            samples.append(sample)
            Self.announce(
                "\(Int(sample.seconds)) s: \(ended) of \(names.count) trips ended, resident "
                    + "\(sample.residentBytes / 1_048_576) MB, \(sample.openFileDescriptors) descriptors, "
                    + "\(emulator.callCount) calls")
            if ended == names.count, faultClock.stoppedAt != nil { break }
            next += Duration.seconds(sampleSeconds)
            try await clock.sleep(until: min(next, end))
        }
        let finished = clock.now
        if faultClock.stoppedAt == nil {
            try emulator.setFaultPlan(transport)
            faultClock.stopNow()
        }

        // Each ended trip's last merged state against a full fetch of it, now that no fault hits.
        var mismatches: [String] = []
        for (model, record) in zip(models, records) {
            guard case .ended = record.ended, let held = model.trip else { continue }
            let fetched = try await client.getTrip(named: model.name)
            if held != fetched { mismatches.append(model.name) }
        }
        return SoakReport(
            command: self, trips: names.count, seconds: (finished - start).inSeconds,
            faultSeconds: ((faultClock.stoppedAt ?? finished) - start).inSeconds, records: records,
            mismatches: mismatches, longestQuietGap: records.compactMap { $0.longestQuietGap(now: finished) }.max(),
            samples: samples, descriptorsAtStart: descriptorsAtStart,
            descriptorsAtEnd: OpenFileDescriptors.count() ?? -1, calls: emulator.callCount)
    }

    static func announce(_ line: String) {
        StandardErrorLine.write(line)
    }
}
