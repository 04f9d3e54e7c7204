import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOCore
import Testing

@testable import TripTracking

@Suite("The delay a server asks for before a retry holds off the next refresh")
struct ServerRetryDelayTests {
    @Test("RESOURCE_EXHAUSTED with a RetryInfo of 20 s puts the next refresh 20 s away, not one interval")
    func rateLimitedRefreshWaitsServerDelay() async throws {
        var faults = FaultPlan()
        // One call every 20 s: the first is let through, the next is refused with a RetryInfo.
        faults.queriesPerSecond = 0.05
        try await withTracking(count: 1, faults: faults, interval: .milliseconds(200)) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            var refused: FleetEngineError?
            var lastStarted = NIODeadline.now()
            for _ in 0..<5 where refused == nil {
                lastStarted = NIODeadline.now()
                await model.refresh()
                for case .updateFailed(let error) in recorder.take() { refused = error }
            }
            #expect(refused?.code == .resourceExhausted)
            let asked = try #require(refused?.retryDelay)
            #expect(asked > .seconds(10))
            #expect(await waitUntil { harness.service.timers.pendingCount > 0 })
            let deadline = try #require(model.state.withLock { $0.timer?.timer.deadline })
            // About the 20 s the server asked for after the refused refresh was asked for, far past
            // the 200 ms interval; measured from then, not from now, so that a slow machine's delays
            // do not count.
            let sinceLastStarted = Int64(deadline) - Int64(lastStarted.uptimeNanoseconds)
            #expect(sinceLastStarted > 10_000_000_000)
            #expect(recorder.take().isEmpty)
            model.unregister(recorder)
        }
    }

    @Test("a server's delay is a floor under the wait of either family of failure")
    func serverDelayIsFloor() {
        let asked = TripModel.FailureWait(backoff: nil, serverDelay: .seconds(20))
        #expect(TripModel.waitBeforeNextRefresh(interval: .milliseconds(200), after: asked) == .seconds(20))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(60), after: asked) == .seconds(60))
        let backedOff = TripModel.FailureWait(backoff: .seconds(1), serverDelay: .seconds(3))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: backedOff) == .seconds(3))
        let negative = TripModel.FailureWait(backoff: nil, serverDelay: .seconds(-3))
        #expect(TripModel.waitBeforeNextRefresh(interval: .zero, after: negative) == TripModel.minimumFailureWait)
    }
}
