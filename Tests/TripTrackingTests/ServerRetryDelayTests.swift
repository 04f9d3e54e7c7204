import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

@testable import TripTracking

@Suite("The delay a server asks for before a retry holds off the next refresh")
struct ServerRetryDelayTests {
    @Test("RESOURCE_EXHAUSTED with a RetryInfo of an hour puts the next refresh a minute away, and says so in the log")
    func rateLimitedRefreshWaitsServerDelay() async throws {
        var faults = FaultPlan()
        // One call an hour: the first is let through, the next is refused with a RetryInfo for
        // what is left of the hour, far more than the 200 ms interval and the minute's ceiling
        // however slow the machine is between the two calls.
        faults.queriesPerSecond = 1.0 / 3600
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        let name = try await withTracking(count: 1, faults: faults, interval: .milliseconds(200), logger: logger) {
            harness in
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
            #expect(asked > .seconds(3500))
            #expect(await waitUntil { harness.service.timers.pendingCount > 0 })
            let deadline = try #require(model.state.withLock { $0.timer?.timer.deadline })
            let setBy = NIODeadline.now()
            // The timer was set once the refusal came, after the refused refresh started, for the
            // minute the server's delay is cut to: at least that after the start, less the rounding
            // of timers to their tick, and no more than that after now, plus the rounding.
            let minute = Int64(60_000_000_000)
            #expect(Int64(deadline) - Int64(lastStarted.uptimeNanoseconds) >= minute - Int64(RefreshTimers.tick))
            #expect(Int64(deadline) - Int64(setBy.uptimeNanoseconds) <= minute + Int64(RefreshTimers.tick))
            #expect(recorder.take().isEmpty)
            model.unregister(recorder)
            return harness.names[0]
        }
        let cut = try #require(records.all.first { $0.level == .warning })
        #expect(cut.message == "the server's retry delay is longer than following waits; waiting the maximum")
        #expect(cut.metadata["trip"] == name)
        #expect(cut.metadata["waiting"] == "60.0 seconds")
    }

    @Test("a server's delay, up to a minute, is a floor under the wait of either family of failure")
    func serverDelayIsFloor() {
        let asked = TripModel.FailureWait(backoff: nil, serverDelay: .seconds(20))
        #expect(TripModel.waitBeforeNextRefresh(interval: .milliseconds(200), after: asked) == .seconds(20))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(60), after: asked) == .seconds(60))
        let backedOff = TripModel.FailureWait(backoff: .seconds(1), serverDelay: .seconds(3))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: backedOff) == .seconds(3))
        let anHour = TripModel.FailureWait(backoff: .seconds(1), serverDelay: .seconds(3600))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: anHour) == .seconds(60))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(300), after: anHour) == .seconds(60))
        let noBackoff = TripModel.FailureWait(backoff: nil, serverDelay: .seconds(3600))
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(300), after: noBackoff) == .seconds(300))
        let negative = TripModel.FailureWait(backoff: nil, serverDelay: .seconds(-3))
        #expect(TripModel.waitBeforeNextRefresh(interval: .zero, after: negative) == TripModel.minimumFailureWait)
    }
}
