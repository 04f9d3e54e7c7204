import Dispatch
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Testing
import TripTracking

@Suite("Registering and unregistering: the first listener starts following, the last one stops it")
struct SubscriptionTests {
    @Test("unsubscribing mid-trip stops the events; subscribing again starts over with the whole trip")
    func unsubscribeMidTrip() async throws {
        try await withTracking { harness in
            let name = harness.names[2]
            let model = harness.service.tripModel(for: name)
            #expect(model.modelState == .idle)
            let first = EventRecorder()
            let second = EventRecorder()
            model.register(first)
            model.register(second)
            model.register(first)
            for _ in 0..<5 {
                await model.refresh()
                harness.clock.advance(by: .seconds(30))
            }
            let seenByFirst = first.take()
            #expect(seenByFirst == second.take())
            #expect(seenByFirst.first.map(\.name) == "tripUpdated")
            model.unregister(first)
            await model.refresh()
            #expect(first.take().isEmpty)
            #expect(second.take().count > 1, "the second subscriber still follows")
            model.unregister(second)
            #expect(model.modelState == .idle)
            harness.clock.advance(by: .seconds(30))
            await model.refresh()
            #expect(first.take().isEmpty)
            #expect(second.take().isEmpty)
            #expect(harness.service.followedTripCount == 0)

            let third = EventRecorder()
            model.register(third)
            await model.refresh()
            let full = try harness.fullFetch(name)
            let events = third.take()
            #expect(events.first == .tripUpdated(full, fields: TripPropertyFields(events: events).union(.other)))
            #expect(Array(events.dropFirst()) == ExpectedEvents.parts(from: nil, to: full))
        }
    }

    @Test("a model nobody follows can be forgotten; the next request for its name makes a new one")
    func forgetting() async throws {
        try await withTracking(count: 1) { harness in
            let name = harness.names[0]
            let model = harness.service.tripModel(for: name)
            let recorder = EventRecorder()
            model.register(recorder)
            #expect(!harness.service.forgetTripModel(for: name), "a followed model is kept")
            #expect(harness.service.tripModel(for: name) === model)
            model.unregister(recorder)
            #expect(harness.service.forgetTripModel(for: name))
            #expect(!harness.service.forgetTripModel(for: name), "already forgotten")
            #expect(harness.service.tripModel(for: name) !== model)
        }
    }

    @Test(
        "refreshes run on the client's event loop, or on the refresh executor given: subscribers are called there",
        arguments: [false, true])
    func subscribersCalledWhereRefreshesRun(onGlobalExecutor: Bool) async throws {
        let executor: (any TaskExecutor)? = onGlobalExecutor ? globalConcurrentExecutor : nil
        try await withTracking(count: 1, refreshExecutor: executor) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let subscriber = LoopCheckingSubscriber(eventLoop: harness.client.eventLoop)
            model.register(subscriber)
            for _ in 0..<3 {
                await model.refresh()
                harness.clock.advance(by: .seconds(30))
            }
            model.unregister(subscriber)
            let calls = subscriber.onLoop
            #expect(calls.count == 3, "each refresh of a moving trip updates it")
            #expect(calls.allSatisfy { $0 == !onGlobalExecutor })
        }
    }

    @Test("a subscriber that blocks, with refreshes on the global executor, holds up no call of the client")
    func blockingSubscriberOffTheLoop() async throws {
        try await withTracking(count: 2, refreshExecutor: globalConcurrentExecutor) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let subscriber = BlockingSubscriber()
            model.register(subscriber)
            async let refreshed: Void = model.refresh()
            await subscriber.entered()
            // The subscriber holds its thread; the client still answers on its own.
            let other = try await harness.client.getTrip(named: harness.names[1])
            #expect(other.name == harness.names[1])
            #expect(subscriber.releaseResult == nil, "the call finished while the subscriber was blocked")
            subscriber.release()
            await refreshed
            #expect(subscriber.releaseResult == .success)
            model.unregister(subscriber)
        }
    }

    @Test("ending the only iteration of updates stops following")
    func iteratorEnds() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            var received: [TripEvent] = []
            for try await event in model.updates {
                received.append(event)
                if case .tripStatus = event { break }
            }
            #expect(received.first.map(\.name) == "tripUpdated")
            #expect(model.modelState == .idle)
        }
    }

    @Test("a trip service that stops ends its iterators with CANCELLED, and later listeners get the same")
    func serviceStops() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            await model.refresh()
            var iterator = model.updates.makeAsyncIterator()
            harness.service.beginGracefulShutdown()
            #expect(model.modelState == .stopped)
            let error = await #expect(throws: FleetEngineError.self) { _ = try await iterator.next() }
            #expect(error?.code == .cancelled)
            var late = model.updates.makeAsyncIterator()
            let lateError = await #expect(throws: FleetEngineError.self) { _ = try await late.next() }
            #expect(lateError?.code == .cancelled)
            #expect(recorder.take().first.map(\.name) == "tripUpdated")
        }
    }

    @Test("changing the interval while waiting applies at once", .timeLimit(.minutes(10)))
    func intervalChange() async throws {
        try await withTracking(interval: .seconds(3600)) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            var iterator = model.updates.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first.map(\.name) == "tripUpdated")
            // Without the change, the next refresh would be an hour away and this test would hang.
            harness.clock.advance(by: .seconds(60))
            model.options.autoRefreshTimeInterval = .milliseconds(10)
            var next = try await iterator.next()
            while let event = next, event.name != "tripUpdated" { next = try await iterator.next() }
            #expect(next.map(\.name) == "tripUpdated")
        }
    }
    @Test("a forgotten model is stopped: a caller still holding it cannot follow the trip behind the service's back")
    func forgottenModelIsStopped() async throws {
        try await withTracking(count: 1) { harness in
            let name = harness.names[0]
            let model = harness.service.tripModel(for: name)
            #expect(harness.service.forgetTripModel(for: name))
            #expect(model.modelState == .stopped)
            var iterator = model.updates.makeAsyncIterator()
            let error = await #expect(throws: FleetEngineError.self) { _ = try await iterator.next() }
            #expect(error?.code == .cancelled)
            #expect(error?.message == "the model of \(name) was forgotten by its trip service")
            let late = CallbackNameRecorder()
            model.register(late)
            #expect(late.names == ["ended(stopped)"])
            #expect(harness.service.followedTripCount == 0)
            #expect(harness.service.tripModel(for: name).modelState == .idle)
        }
    }

    @Test("run() called again while it runs returns at once; the first run goes on refreshing")
    func secondRunReturns() async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            // A refresh that delivers shows that the first run() (the harness's) is running.
            await model.refresh()
            #expect(recorder.take().first?.name == "tripUpdated")
            await harness.service.run()
            harness.clock.advance(by: .seconds(30))
            await model.refresh()
            #expect(model.modelState == .following)
            #expect(!recorder.take().isEmpty, "the trip moved, so the refresh after the second run() delivers")
        }
    }
}
