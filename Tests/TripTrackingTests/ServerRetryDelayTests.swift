import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOCore
import Synchronization
import Testing

@testable import TripTracking

@Suite("The delay a server asks for before a retry holds off the next refresh")
struct ServerRetryDelayTests {
    @Test("RESOURCE_EXHAUSTED with a RetryInfo puts the next refresh as far away as the server asked, not one interval")
    func rateLimitedRefreshWaitsServerDelay() async throws {
        var faults = FaultPlan()
        // One call every 1,000 s: the first is let through, the next is refused with a RetryInfo
        // for what is left of the 1,000 s, far more than the 200 ms interval however slow the
        // machine is between the two calls.
        faults.queriesPerSecond = 0.001
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
            #expect(asked > .seconds(1))
            #expect(await waitUntil { harness.service.timers.pendingCount > 0 })
            let deadline = try #require(model.state.withLock { $0.timer?.timer.deadline })
            // The timer was set once the refusal came, after the refused refresh started, for the
            // delay the server asked: at least that delay after the start, less the rounding of
            // timers to their tick.
            let sinceLastStarted = Int64(deadline) - Int64(lastStarted.uptimeNanoseconds)
            let askedNanoseconds =
                asked.components.seconds * 1_000_000_000 + asked.components.attoseconds / 1_000_000_000
            #expect(sinceLastStarted >= askedNanoseconds - Int64(RefreshTimers.tick))
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
