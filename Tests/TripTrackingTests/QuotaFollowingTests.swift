import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport
import Synchronization
import Testing
import TripTracking

/// Following simulated trips (on the system clock, sped up) against an emulator that enforces a
/// project-wide quota, as Fleet Engine does.
@Suite("Following against a server that enforces a quota")
struct QuotaFollowingTests {
    static let provider = "quota-tests"

    /// The longest time between two updates of each trip; every refresh of a moving trip is one.
    final class UpdateGaps: TripModelSubscriber {
        private let state = Mutex<[String: (last: ContinuousClock.Instant, longest: Duration)]>([:])

        func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
            let now = ContinuousClock.now
            state.withLock { state in
                let previous = state[model.name]
                let gap = previous.map { now - $0.last } ?? .zero
                state[model.name] = (now, max(previous?.longest ?? .zero, gap))
            }
        }

        var longest: [String: Duration] { state.withLock { $0.mapValues(\.longest) } }
    }

    /// Follows `count` simulated trips at `speed` with a 100 ms interval and `budget`, against an
    /// emulator with `quota`, and hands the test the emulator, the service and the models.
    func following(
        count: Int, speed: Double = 300, budget: RequestBudget, quota: Int?,
        _ body: @Sendable (FleetEngineEmulator, TripService, [TripModel]) async throws -> Void
    ) async throws {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.quotaPerMinute = quota
        try await withEmulatorAndClient(
            configuration, configure: { $0.defaultDeadline = LoopbackClient.callDeadline }
        ) { emulator, client in
            let names = try emulator.simulate(providerID: Self.provider, count: count, seed: 11, speed: speed)
            let service = TripService(
                client: client, providerID: Self.provider,
                defaultOptions: TripModelOptions(autoRefreshTimeInterval: .milliseconds(100)), requestBudget: budget)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await service.run() }
                defer { service.beginGracefulShutdown() }
                try await body(emulator, service, names.map { service.tripModel(for: $0) })
            }
        }
    }

    /// Every trip ended COMPLETE, holding what the server holds.
    func expectCompleted(_ models: [TripModel], on emulator: FleetEngineEmulator) throws {
        for model in models {
            #expect(model.modelState == .ended(.complete), "\(model.name)")
            var request = GetTripRequest()
            request.name = model.name
            #expect(model.trip == (try emulator.service.getTrip(request)), "\(model.name)")
        }
    }

    @Test(
        "a budget below the server's quota: no call is refused, and every trip reaches COMPLETE",
        .timeLimit(.minutes(10)))
    func budgetBelowQuota() async throws {
        // 8 trips every 100 ms ask for 80 calls a second; the budget allows 20, the quota 30.
        try await following(count: 8, budget: RequestBudget(callsPerMinute: 1_200), quota: 1_800) {
            emulator, service, models in
            let gaps = UpdateGaps()
            for model in models { model.register(gaps) }
            #expect(await waitUntil(atMost: .seconds(600)) { models.allSatisfy { $0.modelState != .following } })
            try expectCompleted(models, on: emulator)
            #expect(emulator.quotaUsage.refused == 0, "\(emulator.quotaUsage)")
            #expect(service.allowedCallsPerMinute == 1_200)
            // 8 trips at 20 calls a second come round every 0.4 s; none was left waiting for long.
            for (name, gap) in gaps.longest { #expect(gap < .seconds(20), "\(name): \(gap)") }
        }
    }

    @Test(
        "a quota lowered below the budget mid-run: the service slows down, backs off, and every trip still completes",
        .timeLimit(.minutes(10)))
    func quotaLoweredMidRun() async throws {
        // Speed 20: the trips last long enough after the quota is lowered for their refreshes to meet
        // it, however slowly a loaded machine starts them (at speed 300 a trip can be over by its
        // second refresh).
        try await following(count: 8, speed: 20, budget: RequestBudget(callsPerMinute: 1_200), quota: nil) {
            emulator, service, models in
            let gaps = UpdateGaps()
            for model in models { model.register(gaps) }
            // Lowered once every trip has been fetched, while all are still under way.
            #expect(await waitUntil { models.allSatisfy { $0.trip != nil } })
            try emulator.setQuotaPerMinute(300)
            #expect(await waitUntil { emulator.quotaUsage.refused > 0 })
            #expect(await waitUntil { (service.allowedCallsPerMinute ?? .infinity) < 1_200 })
            #expect(await waitUntil(atMost: .seconds(600)) { models.allSatisfy { $0.modelState != .following } })
            try expectCompleted(models, on: emulator)
            let usage = emulator.quotaUsage
            // Halving and waiting out each RetryInfo, the service presses the quota a little at the
            // top of each climb: most of its calls are admitted.
            #expect(usage.refused < usage.admitted, "\(usage)")
            for (name, gap) in gaps.longest { #expect(gap < .seconds(30), "\(name): \(gap)") }
        }
    }
}
