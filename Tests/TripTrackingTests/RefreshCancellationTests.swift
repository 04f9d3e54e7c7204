import FleetEngineEmulator
import FleetEngineTestSupport
import Synchronization
import Testing

@testable import TripTracking

@Suite("refresh() returns when its caller is cancelled")
struct RefreshCancellationTests {
    /// Cancels a task waiting in `model.refresh()` and reports whether it returned, waiting for that
    /// a bounded while, then lets it go whatever happened (`release`).
    private func cancelledRefreshReturns(_ model: TripModel, release: () -> Void) async -> Bool {
        let returned = Atomic<Bool>(false)
        let task = Task {
            await model.refresh()
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        // Bounded: until the caller waits (or it returned already, which the test then reports).
        await waitUntil { model.state.withLock { !$0.refreshWaiters.isEmpty || !$0.servedWaiters.isEmpty } }
        task.cancel()
        await waitUntil { returned.load(ordering: .sequentiallyConsistent) }
        let result = returned.load(ordering: .sequentiallyConsistent)
        release()
        await task.value
        return result
    }

    @Test("a cancelled caller returns while the trip service's run() is not running")
    func cancelledWithoutRun() async throws {
        try await withTracking(count: 1) { harness in
            // A service whose run() is never started: the refresh waits for it.
            let idle = TripService(client: harness.client, providerID: TrackingHarness.provider)
            let model = idle.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            #expect(await cancelledRefreshReturns(model) { model.unregister(recorder) })
            #expect(recorder.events.isEmpty)
        }
    }

    @Test("a cancelled caller returns while the refresh serving it waits for a slow answer")
    func cancelledDuringCall() async throws {
        var faults = FaultPlan()
        faults.delay = .seconds(10)
        try await withTracking(count: 1, faults: faults) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            #expect(await waitUntil { harness.emulator.callCount > 0 })
            // The caller waits for the refresh after the one in flight.
            #expect(await cancelledRefreshReturns(model) { model.unregister(recorder) })
        }
    }
}
