import FleetEngineClient
import FleetEngineTestSupport
import Testing

@testable import TripTracking

/// Refreshes run in `TripService.run()`'s worker tasks, one after another, not in a task each.
@Suite("Refresh workers")
struct RefreshWorkerTests {
    @Test("many trips' refreshes share workers: at most 128 are kept idle, and idle ones take later refreshes")
    func workersAreReused() async throws {
        try await withTracking(count: 200) { harness in
            let models = harness.names.map { harness.service.tripModel(for: $0) }
            let recorders = models.map { _ in EventRecorder() }
            for (model, recorder) in zip(models, recorders) { model.register(recorder) }
            #expect(await waitUntil { models.allSatisfy { $0.trip != nil } })
            // Every first refresh has ended; the workers that found nothing more to do while 128
            // others waited have ended too.
            #expect(await waitUntil { harness.service.refreshWorkerCount <= RefreshStarts.maximumIdleWorkers })
            let workers = harness.service.refreshWorkerCount
            #expect(workers >= 1)
            for model in models.prefix(5) { await model.refresh() }
            #expect(harness.service.refreshWorkerCount == workers)
            #expect(recorders.allSatisfy { !$0.events.isEmpty })
        }
    }

    @Test("a graceful shutdown ends every worker, idle or busy, and run() returns")
    func shutdownEndsWorkers() async throws {
        try await withTracking(count: 3) { harness in
            let service = TripService(client: harness.client, providerID: TrackingHarness.provider)
            let models = harness.names.map { service.tripModel(for: $0) }
            let recorder = EventRecorder()
            await withDiscardingTaskGroup { group in
                group.addTask { await service.run() }
                for model in models { model.register(recorder) }
                #expect(await waitUntil { models.allSatisfy { $0.trip != nil } })
                #expect(service.refreshWorkerCount >= 1)
                service.beginGracefulShutdown()
            }
            #expect(service.refreshWorkerCount == 0)
            #expect(models.allSatisfy { $0.modelState == .stopped })
        }
    }
}
