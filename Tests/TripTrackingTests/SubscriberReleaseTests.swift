import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport
import Synchronization
import Testing
import TripTracking

@Suite("A model lets go of its subscribers once following has ended or stopped")
struct SubscriberReleaseTests {
    /// A subscriber that holds its model, as one usually does, and records how following ended.
    final class ModelHolder: TripModelSubscriber {
        let model: TripModel
        let endings = Mutex<[TripModelState]>([])

        init(model: TripModel) {
            self.model = model
        }

        /// One registered on `model`.
        static func registered(on model: TripModel) -> ModelHolder {
            let holder = ModelHolder(model: model)
            model.register(holder)
            return holder
        }

        func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) {
            endings.withLock { $0.append(state) }
        }
    }

    @Test("after a COMPLETE trip, the subscriber is told and then let go")
    func releasedAfterEnd() async throws {
        try await withTracking(count: 1) { harness in
            let name = "providers/\(TrackingHarness.provider)/trips/finished"
            try harness.addCompletedTrip(named: name)
            let model = harness.service.tripModel(for: name)
            weak var weakHolder: ModelHolder?
            do {
                let holder = ModelHolder.registered(on: model)
                weakHolder = holder
                await model.refresh()
                #expect(holder.endings.withLock { $0 } == [.ended(.complete)])
            }
            #expect(model.modelState == .ended(.complete))
            #expect(await waitUntil { weakHolder == nil })
        }
    }

    @Test("after the service stopped, the subscriber is told and then let go")
    func releasedAfterStop() async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            weak var weakHolder: ModelHolder?
            do {
                let holder = ModelHolder.registered(on: model)
                weakHolder = holder
                await model.refresh()
                harness.service.beginGracefulShutdown()
                // refresh() returns once its events are delivered, before the refresh itself ends;
                // a stop that comes in between leaves the end notice to that refresh, once it ends.
                #expect(await waitUntil { holder.endings.withLock { $0 } == [.stopped] })
                #expect(holder.endings.withLock { $0 } == [.stopped])
            }
            #expect(model.modelState == .stopped)
            #expect(await waitUntil { weakHolder == nil })
        }
    }
}
