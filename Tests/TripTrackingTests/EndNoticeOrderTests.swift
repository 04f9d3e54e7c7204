import Dispatch
import FleetEngineCodec
import FleetEngineTestSupport
import Synchronization
import Testing
import TripTracking

@Suite("The end notice of a stopped service is serialized with the subscriber's other callbacks")
struct EndNoticeOrderTests {
    /// Blocks in its first "trip updated", and records whether the end notice came while that
    /// callback ran.
    final class OverlapDetector: TripModelSubscriber {
        let blocker = BlockingSubscriber()
        private let inUpdate = Atomic<Bool>(false)
        let overlapped = Atomic<Bool>(false)
        let endings = Mutex<[TripModelState]>([])

        func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
            inUpdate.store(true, ordering: .sequentiallyConsistent)
            blocker.tripModel(model, didUpdate: trip, updatedPropertyFields: fields)
            inUpdate.store(false, ordering: .sequentiallyConsistent)
        }

        func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) {
            if inUpdate.load(ordering: .sequentiallyConsistent) {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            endings.withLock { $0.append(state) }
        }
    }

    @Test("stopping the service during a callback tells the subscriber after that callback returns, not during it")
    func stopDuringCallback() async throws {
        try await withTracking(count: 1, refreshExecutor: SerialQueueExecutor(label: "end-notice")) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let detector = OverlapDetector()
            model.register(detector)
            async let refreshed: Void = model.refresh()
            await detector.blocker.entered()
            harness.service.beginGracefulShutdown()
            // Told later, by the refresh once its callback returned.
            #expect(detector.endings.withLock { $0 }.isEmpty)
            detector.blocker.release()
            await refreshed
            await waitUntil { !detector.endings.withLock { $0.isEmpty } }
            #expect(detector.endings.withLock { $0 } == [.stopped])
            let overlapped = detector.overlapped.load(ordering: .sequentiallyConsistent)
            #expect(!overlapped)
            #expect(detector.blocker.releaseResult == .success)
        }
    }
}
