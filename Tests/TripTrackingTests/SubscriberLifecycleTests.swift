import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Testing
import TripTracking

@Suite("Subscribers and the end of following: unregistering mid-delivery, stopping, registering late")
struct SubscriberLifecycleTests {
    @Test("a subscriber that unregisters in a callback gets no further callbacks")
    func unregisterInsideCallback() async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let stays = EventRecorder()
            let leaver = CallbackNameRecorder(leavesOnFirstUpdate: true)
            model.register(leaver)
            model.register(stays)
            await model.refresh()
            #expect(stays.take().count > 1, "the first refresh fires several events")
            #expect(leaver.names == ["tripUpdated"])
            model.unregister(stays)
        }
    }

    /// Starts a refresh of the first trip with `subscriber` registered behind a subscriber that
    /// blocks in the refresh's first callback, runs `act` while it blocks, then lets the delivery
    /// go on and waits for the refresh. Refreshes run on a queue of their own.
    static func whileDeliveryIsHeld(
        _ harness: TrackingHarness, for subscriber: any TripModelSubscriber, _ act: (TripModel) -> Void
    ) async {
        let model = harness.service.tripModel(for: harness.names[0])
        let blocker = BlockingSubscriber()
        model.register(blocker)
        model.register(subscriber)
        async let refreshed: Void = model.refresh()
        await blocker.entered()
        act(model)
        blocker.release()
        await refreshed
        model.unregister(blocker)
    }

    @Test(
        "a subscriber unregistered while a refresh is being delivered gets none of its events after unregister returns")
    func unregisterDuringDelivery() async throws {
        try await withTracking(count: 1, refreshExecutor: SerialQueueExecutor(label: "refreshes")) { harness in
            let leaving = EventRecorder()
            await Self.whileDeliveryIsHeld(harness, for: leaving) { model in
                model.unregister(leaving)
                #expect(leaving.take().isEmpty, "the blocked callback came first")
            }
            #expect(leaving.take().map(\.summary) == [], "callbacks after unregister returned")
        }
    }

    @Test("once told that following stopped, a subscriber gets no more events")
    func noEventsAfterStopped() async throws {
        try await withTracking(count: 1, refreshExecutor: SerialQueueExecutor(label: "refreshes")) { harness in
            let recorder = CallbackNameRecorder()
            await Self.whileDeliveryIsHeld(harness, for: recorder) { _ in
                harness.service.beginGracefulShutdown()
                // The refresh being delivered tells it, once its callback in progress returned.
                #expect(recorder.names.isEmpty)
            }
            // The rest of the delivery comes from the refresh queue.
            await waitUntil { !recorder.names.isEmpty }
            #expect(recorder.names == ["ended(stopped)"], "events around didEndFollowingWith")
        }
    }

    @Test("a subscriber registered on a model that already stopped or ended is told so, as an iterator is")
    func registerAfterEnd() async throws {
        try await withTracking(count: 1) { harness in
            // Ended: a trip that is COMPLETE at the first refresh.
            let name = "providers/\(TrackingHarness.provider)/trips/done"
            try harness.addCompletedTrip(named: name)
            let ended = harness.service.tripModel(for: name)
            let first = CallbackNameRecorder()
            ended.register(first)
            await ended.refresh()
            #expect(ended.modelState == .ended(.complete))
            #expect(first.names.last?.hasPrefix("ended(") == true)
            var iterator = ended.updates.makeAsyncIterator()
            #expect(try await iterator.next() == nil, "an iterator made now finishes at once")
            let late = CallbackNameRecorder()
            ended.register(late)
            #expect(late.names.count == 1, "a subscriber registered now is never told anything: \(late.names)")

            // Stopped: an idle model of a service that stopped.
            let idle = harness.service.tripModel(for: harness.names[0])
            harness.service.beginGracefulShutdown()
            #expect(idle.modelState == .stopped)
            let afterStop = CallbackNameRecorder()
            idle.register(afterStop)
            #expect(afterStop.names == ["ended(stopped)"], "never told: \(afterStop.names)")
        }
    }

    @Test("a very long refresh interval (refresh only on demand) does not crash")
    func hugeInterval() async throws {
        try await withTracking(count: 1, interval: .seconds(Int64.max)) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            await model.refresh()
            #expect(!recorder.take().isEmpty)
            harness.clock.advance(by: .seconds(60))
            await model.refresh()
            #expect(model.modelState == .following)
            model.unregister(recorder)
        }
    }
}
