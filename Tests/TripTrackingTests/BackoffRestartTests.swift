import FleetEngineEmulator
import FleetEngineStatus
import Synchronization
import Testing

@testable import TripTracking

@Suite("Backoff after server failures belongs to one following")
struct BackoffRestartTests {
    @Test("following a trip again starts its backoff afresh, not from the failures of the following before")
    func newFollowingForgetsFailures() async throws {
        var faults = FaultPlan()
        faults.failEvery = 1
        faults.failCode = .unavailable
        try await withTracking(count: 1, faults: faults) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            for _ in 0..<5 { await model.refresh() }
            #expect(model.state.withLock { $0.serverFailures } >= 5)
            model.unregister(recorder)

            // The first refresh of the new following fails once; the next is an hour away.
            var iterator = model.updates.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first?.name == "updateFailed")
            #expect(model.state.withLock { $0.serverFailures } == 1)
        }
    }
}
