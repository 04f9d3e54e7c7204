import FleetEngineCodec
import FleetEngineTestSupport
import Testing

@testable import TripTracking

@Suite("Refresh timers: a timer no longer wanted is taken out, not left to go off")
struct RefreshTimerTests {
    /// Waits, bounded, until the service holds `count` timers: the refresh that `refresh()` waited
    /// for sets its next timer just after it resumes its waiters.
    static func waitForTimers(_ service: TripService, count: Int) async throws {
        await waitUntil { service.timers.pendingCount == count }
    }

    @Test("refreshing on demand with a very long interval keeps one timer, not one per refresh")
    func onDemandRefreshesKeepOneTimer() async throws {
        try await withTracking(count: 1, interval: .seconds(Int64.max)) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            for _ in 0..<50 { await model.refresh() }
            try await Self.waitForTimers(harness.service, count: 1)
            #expect(harness.service.timers.pendingCount == 1)
            model.unregister(recorder)
            #expect(harness.service.timers.pendingCount == 0)
        }
    }

    @Test("following started and stopped again and again leaves no timer behind")
    func restartedFollowingLeavesNoTimers() async throws {
        try await withTracking(count: 1, interval: .seconds(Int64.max)) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            for _ in 0..<20 {
                let recorder = EventRecorder()
                model.register(recorder)
                await model.refresh()
                try await Self.waitForTimers(harness.service, count: 1)
                #expect(harness.service.timers.pendingCount == 1)
                model.unregister(recorder)
                #expect(harness.service.timers.pendingCount == 0)
            }
        }
    }
}
