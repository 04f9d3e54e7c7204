import FleetEngineTestSupport
import Testing
import TripTracking

@Suite("Following more trips than the request budget allows")
struct RequestBudgetTests {
    @Test("over budget the calls stay within it, every trip takes its turn, and the intervals stretch alike")
    func overBudget() async throws {
        // 20 trips every 100 ms ask for 200 calls a second; the budget allows 20.
        let budget = RequestBudget(callsPerMinute: 1_200)
        try await withTracking(count: 20, interval: .milliseconds(100), requestBudget: budget) { harness in
            let models = harness.names.map { harness.service.tripModel(for: $0) }
            let recorders = models.map { model in
                let recorder = EventRecorder()
                model.register(recorder)
                return recorder
            }
            let started = ContinuousClock.now
            #expect(await waitUntil { harness.service.waitingRefreshCount >= 10 })
            // Five turns each.
            #expect(await waitUntil { harness.emulator.callCount >= 100 })
            let calls = harness.emulator.callCount
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            // A full bucket (a second's worth) at once, then 20 a second: never more, however fast
            // the machine is; a slower one makes fewer.
            #expect(Double(calls) <= 20 + 20 * seconds + 1, "\(calls) calls in \(seconds) s")
            #expect(harness.service.allowedCallsPerMinute == 1_200)
            let intervals = models.compactMap(\.refreshInterval)
            #expect(intervals.count == 20, "every trip was refreshed more than once")
            // 20 trips taking turns at 20 a second come round about every second, not every 100 ms.
            let mean = intervals.reduce(Duration.zero, +) / intervals.count
            #expect(mean >= .milliseconds(500), "mean interval \(mean)")
            for (model, recorder) in zip(models, recorders) {
                #expect(!recorder.events.contains { $0.name == "updateFailed" }, "\(model.name)")
                model.unregister(recorder)
            }
        }
    }

    @Test("the budget changes while following: unlimited lets every waiting refresh go at once")
    func budgetChangedWhileFollowing() async throws {
        let budget = RequestBudget(callsPerMinute: 60)
        try await withTracking(count: 10, interval: .milliseconds(100), requestBudget: budget) { harness in
            let models = harness.names.map { harness.service.tripModel(for: $0) }
            let recorder = EventRecorder()
            for model in models { model.register(recorder) }
            #expect(await waitUntil { harness.service.waitingRefreshCount >= 5 })
            #expect(harness.service.requestBudget == budget)
            harness.service.requestBudget = .unlimited
            #expect(harness.service.waitingRefreshCount == 0)
            #expect(harness.service.allowedCallsPerMinute == nil)
            // Every trip, most of which had not had their first turn, is fetched.
            #expect(await waitUntil { models.allSatisfy { $0.trip != nil } })
            for model in models { model.unregister(recorder) }
        }
    }
}
