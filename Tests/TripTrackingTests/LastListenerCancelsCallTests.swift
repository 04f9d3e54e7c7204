import FleetEngineClient
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Testing
import TripTracking

@Suite("The last listener leaving cancels the call in flight")
struct LastListenerCancelsCallTests {
    @Test("unregistering mid-call stops the client's retries: no attempt goes out after the last subscriber left")
    func unregisterCancelsRetries() async throws {
        var faults = FaultPlan()
        faults.failEvery = 1
        faults.failCode = .unavailable
        // Three attempts, 30 s apart: the first is answered at once, the others would follow (far
        // enough apart that a slow machine's delay before unregistering does not reach the second).
        let retries = RetryPolicy(
            maxAttempts: 3, backoff: Backoff(initial: .seconds(30), multiplier: 1, maximum: .seconds(30), jitter: 0),
            retryableCodes: [.unavailable])
        try await withTracking(count: 1, faults: faults, retryPolicy: retries) { harness in
            // A service of the test's own, whose run() returns only once its refreshes have ended.
            let service = TripService(client: harness.client, providerID: TrackingHarness.provider)
            let model = service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            await withDiscardingTaskGroup { group in
                group.addTask { await service.run() }
                model.register(recorder)
                #expect(await waitUntil { harness.emulator.callCount > 0 })
                model.unregister(recorder)
                service.beginGracefulShutdown()
            }
            // The first attempt only; the refresh ended without telling anyone.
            #expect(harness.emulator.callCount == 1)
            #expect(recorder.events.isEmpty)
        }
    }
}
