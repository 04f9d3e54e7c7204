import FleetEngineClient
import TripTracking

/// Mallocs per refresh of a followed trip: a `TripService` follows the gate emulator's one trip
/// (whose vehicle moves, so every refresh fetches, merges and delivers an update) with an
/// interval of an hour, so that no timer refresh runs, and `TripModel.refresh()` is called
/// again and again; the mallocs over K refreshes are divided by K. The service has no request
/// budget: refreshes asked for back to back outrun any budget, and whether one waits its turn
/// (a timer, a queue entry) would then depend on the machine's speed, which the count must not.
enum RefreshAllocations {
    /// Mallocs per refresh of ``GateEmulator/tripName`` on 127.0.0.1:`port`.
    static func perRefresh(port: Int) async throws -> Double {
        let operation = GatedOperation.followedTripRefresh
        let (warmup, iterations) = operation.warmupAndIterations
        return try await withFleetEngineClient(
            configuration: .plaintext(port: port), tokenProvider: NoTokenProvider()
        ) { client in
            let service = TripService(
                client: client, providerID: GateEmulator.providerID,
                defaultOptions: TripModelOptions(autoRefreshTimeInterval: .seconds(3600)), requestBudget: .unlimited)
            return try await withThrowingTaskGroup(of: Void.self, returning: Double.self) { group in
                group.addTask { await service.run() }
                defer { service.beginGracefulShutdown() }
                let model = service.tripModel(for: GateEmulator.tripName)
                let subscriber = UpdateCountingSubscriber()
                model.register(subscriber)
                defer { model.unregister(subscriber) }
                let perRefresh = try await withTaskExecutorPreference(client.taskExecutor) {
                    try await MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
                        () async throws(AllocationGateError) in
                        await model.refresh()
                    }
                }
                if let failure = subscriber.firstFailure.withLock({ $0 }) {
                    throw AllocationGateError("\(operation.rawValue): a refresh failed: \(failure)")
                }
                // Every refresh asked for delivered an update (the one started by registering may have
                // served the first): otherwise some found nothing new and the count mixes two kinds.
                let updates = subscriber.updates.load(ordering: .relaxed)
                guard (warmup + iterations...warmup + iterations + 1).contains(updates) else {
                    throw AllocationGateError(
                        "\(operation.rawValue): \(warmup + iterations) refreshes delivered \(updates) updates")
                }
                return perRefresh
            }
        }
    }
}
