import FleetEngineClient
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOCore
import Synchronization
import Testing

@testable import TripTracking

@Suite("The wait after a failed refresh: counted from the failure, growing, never nothing")
struct FailureBackoffTests {
    /// A server that fails every call with UNAVAILABLE.
    static let outage: FaultPlan = {
        var faults = FaultPlan()
        faults.failEvery = 1
        faults.failCode = .unavailable
        return faults
    }()

    /// Waits, bounded, until the service holds a timer: the failed refresh has set the next one.
    private func waitForTimer(_ service: TripService) async -> Bool {
        await waitUntil { service.timers.pendingCount > 0 }
        return service.timers.pendingCount == 1
    }

    /// Follows the harness's one trip until its first refresh has failed and a timer waits for the
    /// next: only the refresh that registering started has been made, the next waits its backoff.
    private func expectOneFailureThenTimer(_ harness: TrackingHarness) async {
        let model = harness.service.tripModel(for: harness.names[0])
        let recorder = EventRecorder()
        model.register(recorder)
        #expect(await waitForTimer(harness.service))
        #expect(recorder.events.map(\.summary) == ["updateFailed(UNAVAILABLE)"])
        model.unregister(recorder)
    }

    @Test("with a zero interval, a server failure sets a timer for the next refresh instead of refreshing at once")
    func zeroIntervalServerFailureWaits() async throws {
        // A backoff of a minute: the timer it sets cannot fire before the test has looked.
        try await withTracking(count: 1, faults: Self.outage, interval: .zero, serverFailureRetryDelay: .seconds(60)) {
            harness in
            await expectOneFailureThenTimer(harness)
        }
    }

    @Test("server failures in a row make the wait longer than the interval")
    func backoffGrowsPastInterval() async throws {
        try await withTracking(
            count: 1, faults: Self.outage, interval: .seconds(10), serverFailureRetryDelay: .seconds(10)
        ) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            var lastStarted = NIODeadline.now()
            for _ in 0..<4 {
                lastStarted = NIODeadline.now()
                await model.refresh()
            }
            #expect(await waitForTimer(harness.service))
            let (failures, deadline) = model.state.withLock { ($0.serverFailures, $0.timer?.timer.deadline) }
            #expect(failures >= 4)
            // 10 s doubled three times at least (less 20 % jitter) is past the one-minute ceiling: the
            // timer is a minute after the last failure arrived, so after the last refresh was asked for
            // (where a wait capped at the 10 s interval is at most 10 s after it answered). Measured
            // from then, not from now, so that a slow machine's delays do not count.
            let sinceLastStarted = Int64(deadline ?? 0) - Int64(lastStarted.uptimeNanoseconds)
            #expect(sinceLastStarted > 30_000_000_000)
            model.unregister(recorder)
        }
    }

    @Test("a failure that took longer than the interval to arrive is followed by a wait, not by a refresh at once")
    func waitCountedFromFailure() async throws {
        // The client tries twice, 3 s apart: a refresh's failure arrives after longer than the
        // interval.
        let retries = RetryPolicy(
            maxAttempts: 2, backoff: Backoff(initial: .seconds(3), multiplier: 1, maximum: .seconds(3), jitter: 0),
            retryableCodes: [.unavailable])
        try await withTracking(
            count: 1, faults: Self.outage, retryPolicy: retries, interval: .seconds(2),
            // A backoff of a minute, counted from the failure: the timer cannot fire before the
            // test has looked (counted from the refresh's start and capped at the interval, as it
            // was, the wait was over before the failure arrived).
            serverFailureRetryDelay: .seconds(60)
        ) { harness in
            await expectOneFailureThenTimer(harness)
        }
    }

    @Test("the wait before the next refresh, by interval and failure")
    func waitTable() {
        let floor = TripModel.minimumFailureWait
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: nil) == .seconds(5))
        #expect(TripModel.waitBeforeNextRefresh(interval: .zero, after: nil) == .zero)
        // A client failure keeps the interval, but never retries at once.
        let client = TripModel.FailureWait(backoff: nil, serverDelay: nil)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: client) == .seconds(5))
        #expect(TripModel.waitBeforeNextRefresh(interval: .zero, after: client) == floor)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(-1), after: client) == floor)
        // A server failure's backoff: shorter or longer than the interval, up to the ceiling.
        let short = TripModel.FailureWait(backoff: .seconds(1), serverDelay: nil)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: short) == .seconds(1))
        let long = TripModel.FailureWait(backoff: .seconds(40), serverDelay: nil)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: long) == .seconds(40))
        let huge = TripModel.FailureWait(backoff: .seconds(1000), serverDelay: nil)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(5), after: huge) == TripModel.maximumBackoff)
        #expect(TripModel.waitBeforeNextRefresh(interval: .seconds(3600), after: huge) == .seconds(1000))
        let none = TripModel.FailureWait(backoff: .zero, serverDelay: nil)
        #expect(TripModel.waitBeforeNextRefresh(interval: .zero, after: none) == floor)
    }
}
