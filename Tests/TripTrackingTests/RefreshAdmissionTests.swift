import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import TripTracking

/// The admission on NIO's testing event loop, whose clock moves only when the test moves it: every
/// count below is exact.
@Suite("Refreshes start within the request budget")
struct RefreshAdmissionTests {
    /// An admission of numbered refreshes that records which started, in order.
    final class Harness: Sendable {
        /// What the admission started, and what it should pass over.
        final class Log: Sendable {
            let started = Mutex<[Int]>([])
            let unwanted = Mutex<Set<Int>>([])
        }

        let loop = NIOAsyncTestingEventLoop()
        let log = Log()
        let admission: RefreshAdmission<Int>

        init(budget: RequestBudget) {
            let log = self.log
            admission = RefreshAdmission(
                budget: budget, eventLoop: loop,
                isWanted: { refresh in log.unwanted.withLock { !$0.contains(refresh) } },
                start: { refresh in log.started.withLock { $0.append(refresh) } })
        }

        var startedRefreshes: [Int] { log.started.withLock { $0 } }

        /// Runs what is left on the loop (a cancelled timer's failure) and shuts it down.
        func finish() async {
            await loop.run()
            await loop.shutdownGracefully()
        }
    }

    @Test("with calls to spare a refresh starts at once; past a second's worth the rest go at the budget's rate")
    func rate() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 600))
        for refresh in 0..<25 { harness.admission.request(refresh, urgent: false) }
        // A full bucket holds a second's worth: 10 calls.
        #expect(harness.startedRefreshes == Array(0..<10))
        #expect(harness.admission.waitingCount == 15)
        await harness.loop.advanceTime(by: .milliseconds(500))
        #expect(harness.startedRefreshes == Array(0..<15))
        await harness.loop.advanceTime(by: .milliseconds(1000))
        #expect(harness.startedRefreshes == Array(0..<25))
        #expect(harness.admission.waitingCount == 0)
        await harness.finish()
    }

    @Test("urgent refreshes go first, but every fourth turn goes to one that waited longer")
    func urgentFirst() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 60))
        harness.admission.request(0, urgent: false)  // takes the one call the bucket holds
        for refresh in 1...4 { harness.admission.request(refresh, urgent: false) }
        for refresh in 101...106 { harness.admission.request(refresh, urgent: true) }
        await harness.loop.advanceTime(by: .seconds(10))
        #expect(harness.startedRefreshes == [0, 101, 102, 103, 1, 104, 105, 106, 2, 3, 4])
        await harness.finish()
    }

    @Test("a refresh whose following ended while it waited is passed over without spending a call")
    func unwantedPassedOver() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 60))
        for refresh in 0..<4 { harness.admission.request(refresh, urgent: false) }
        harness.log.unwanted.withLock { $0 = [1, 2] }
        await harness.loop.advanceTime(by: .seconds(1))
        #expect(harness.startedRefreshes == [0, 3])
        await harness.finish()
    }

    @Test("a budget changed while refreshes wait applies at once: unlimited lets them all go")
    func budgetChange() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 60))
        for refresh in 0..<5 { harness.admission.request(refresh, urgent: false) }
        #expect(harness.startedRefreshes == [0])
        harness.admission.budget = RequestBudget(callsPerMinute: 120)
        #expect(harness.admission.callsPerMinute == 120)
        await harness.loop.advanceTime(by: .milliseconds(500))
        #expect(harness.startedRefreshes == [0, 1])
        harness.admission.budget = .unlimited
        #expect(harness.startedRefreshes == [0, 1, 2, 3, 4])
        #expect(harness.admission.callsPerMinute == nil)
        harness.admission.request(5, urgent: false)
        #expect(harness.startedRefreshes == [0, 1, 2, 3, 4, 5])
        await harness.finish()
    }

    @Test("RESOURCE_EXHAUSTED halves the rate once, holds refreshes for the server's delay; successes climb back")
    func throttled() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 600))
        for refresh in 0..<10 { harness.admission.request(refresh, urgent: false) }
        harness.admission.throttled(retryDelay: .seconds(3))
        // Three refusals of the same burst halve the rate once.
        harness.admission.throttled(retryDelay: .seconds(3))
        harness.admission.throttled(retryDelay: nil)
        #expect(harness.admission.callsPerMinute == 300)
        harness.admission.request(10, urgent: false)
        await harness.loop.advanceTime(by: .milliseconds(2900))
        #expect(harness.startedRefreshes.count == 10, "nothing starts while the server's delay runs")
        await harness.loop.advanceTime(by: .milliseconds(200))
        #expect(harness.startedRefreshes.count == 11)
        // Each second of successes adds a twentieth of the budget back, up to the budget.
        for _ in 0..<4 {
            await harness.loop.advanceTime(by: .seconds(1))
            harness.admission.succeeded()
        }
        #expect(harness.admission.callsPerMinute == 420)
        for _ in 0..<8 {
            await harness.loop.advanceTime(by: .seconds(1))
            harness.admission.succeeded()
        }
        #expect(harness.admission.callsPerMinute == 600)
        await harness.finish()
    }

    @Test("a RetryInfo delay past a minute holds the refreshes for a minute only")
    func pauseCeiling() async {
        let harness = Harness(budget: RequestBudget(callsPerMinute: 60))
        harness.admission.request(0, urgent: false)
        harness.admission.throttled(retryDelay: .seconds(3600))
        harness.admission.request(1, urgent: false)
        await harness.loop.advanceTime(by: .seconds(59))
        #expect(harness.startedRefreshes == [0])
        await harness.loop.advanceTime(by: .seconds(3))
        #expect(harness.startedRefreshes == [0, 1])
        await harness.finish()
    }

    @Test("without a budget every refresh starts at once, and refusals change nothing")
    func unlimited() async {
        let harness = Harness(budget: .unlimited)
        for refresh in 0..<1_000 { harness.admission.request(refresh, urgent: refresh % 2 == 0) }
        harness.admission.throttled(retryDelay: .seconds(10))
        harness.admission.request(1_000, urgent: false)
        #expect(harness.startedRefreshes == Array(0...1_000))
        #expect(harness.admission.callsPerMinute == nil)
        await harness.finish()
    }
}
