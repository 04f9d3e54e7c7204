import Dispatch
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Synchronization
import Testing
import TripTracking

@Suite(
    "Progress monitors come and go: dropped iterators, forgotten monitors, racing listeners, late iterators",
    .timeLimit(.minutes(10)))
struct ProgressMonitorLifecycleTests {
    @Test("dropping the only progress iterator (the monitor made just to iterate) lets the model go idle")
    func progressIteratorDropped() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            do {
                let iterator = TripProgressMonitor(model: model).events.makeAsyncIterator()
                #expect(model.modelState == .following)
                _ = iterator
            }
            #expect(model.modelState == .idle)
        }
    }

    @Test("a progress iterator dropped while its monitor lives on also lets the model go idle (control)")
    func progressIteratorDroppedMonitorKept() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let monitor = TripProgressMonitor(model: model)
            do {
                let iterator = monitor.events.makeAsyncIterator()
                #expect(model.modelState == .following)
                _ = iterator
            }
            #expect(model.modelState == .idle)
            withExtendedLifetime(monitor) {}
        }
    }

    @Test("a monitor that is let go with its listener still added does not keep the trip refreshing")
    func forgottenMonitor() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = ProgressRecorder()
            do {
                let monitor = TripProgressMonitor(model: model)
                monitor.addListener(recorder)
                #expect(model.modelState == .following)
            }
            // Nobody can hear this trip's progress any more.
            await model.refresh()
            #expect(recorder.events.isEmpty)
            #expect(model.modelState == .idle)
        }
    }

    @Test("one listener leaving while another joins: the one that joined keeps the model following")
    func concurrentLeaveAndJoin() async throws {
        // The service is not running, so the starts the model asks for wait in its queue instead of
        // each sending a GetTrip: the race is between the monitor's registrations alone, and the
        // rounds do not flood the other tests' event loops.
        var configuration = ClientConfiguration.plaintext(port: 9)
        configuration.retryPolicy = .none
        try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
            let service = TripService(client: client, providerID: TrackingHarness.provider)
            defer { service.beginGracefulShutdown() }
            let model = service.tripModel(for: "providers/\(TrackingHarness.provider)/trips/race")
            var lost: Int?
            for round in 0..<200_000 {
                let monitor = TripProgressMonitor(model: model)
                let leaving = ProgressRecorder()
                let joining = ProgressRecorder()
                monitor.addListener(leaving)
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 { monitor.removeListener(leaving) } else { monitor.addListener(joining) }
                }
                let following = model.modelState == .following
                monitor.removeListener(joining)
                if !following {
                    lost = round
                    break
                }
            }
            #expect(lost == nil, "round \(lost ?? -1): a listener is registered but the model is idle")
        }
    }

    /// A listener that removes itself from the monitor at its first callback, counting every call.
    final class LeavesAtFirstEvent: TripProgressListener {
        let calls = Mutex<[String]>([])

        private func handle(_ monitor: TripProgressMonitor, _ name: String) {
            calls.withLock { $0.append(name) }
            monitor.removeListener(self)
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didArriveAt waypoint: TripWaypoint) {
            handle(monitor, "arrived")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didChangeRoute route: [LatLng]) {
            handle(monitor, "route")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingTime seconds: Double) {
            handle(monitor, "time")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingDistance meters: Double) {
            handle(monitor, "distance")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didChangeDelayCategory category: DelayCategory) {
            handle(monitor, "delay")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didChangeSuggestedLightingMode mode: LightingMode) {
            handle(monitor, "lighting")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didUpdateSpeedingPercentage percent: Double) {
            handle(monitor, "speeding")
        }
        func progressMonitor(_ monitor: TripProgressMonitor, didUpdateLocation location: RoadSnappedLocation) {
            handle(monitor, "location")
        }
    }

    @Test("a listener that removes itself in a callback hears nothing more, as a model subscriber would")
    func removedInsideCallback() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let monitor = TripProgressMonitor(model: model)
            let listener = LeavesAtFirstEvent()
            let stays = ProgressRecorder()
            monitor.addListener(listener)
            monitor.addListener(stays)
            await model.refresh()
            #expect(stays.events.count > 1, "the first refresh has several events")
            #expect(listener.calls.withLock { $0 }.count == 1, "\(listener.calls.withLock { $0 })")
            monitor.removeListener(stays)
        }
    }

    @Test("a monitor listened to again after its last listener left starts over, as a model subscriber does")
    func listenedToAgainStartsOver() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            harness.clock.advance(by: .seconds(60))
            let monitor = TripProgressMonitor(model: model)
            let first = ProgressRecorder()
            monitor.addListener(first)
            await model.refresh()
            let heard = first.take()
            #expect(heard.map(\.name).contains("locationUpdated"), "\(heard.map(\.name))")
            monitor.removeListener(first)
            #expect(model.modelState == .idle)
            // The trip has not moved on: a listener that comes now hears it as the first one did,
            // not nothing because the monitor still compares with the trip from before the gap.
            let second = ProgressRecorder()
            monitor.addListener(second)
            await model.refresh()
            #expect(second.take() == heard)
            monitor.removeListener(second)
        }
    }

    @Test(
        "after the trip service stopped, every progress iterator of the monitor ends with CANCELLED, the later one too")
    func laterIteratorAfterStop() async throws {
        try await withTracking { harness in
            let model = harness.service.tripModel(for: harness.names[1])
            let monitor = TripProgressMonitor(model: model)
            var first = monitor.events.makeAsyncIterator()
            harness.service.beginGracefulShutdown()
            let error = await #expect(throws: FleetEngineError.self) { _ = try await first.next() }
            #expect(error?.code == .cancelled)
            // The trip did not end: following could not go on. A second iterator must say so too.
            var second = monitor.events.makeAsyncIterator()
            let again = await #expect(throws: FleetEngineError.self) { _ = try await second.next() }
            #expect(again?.code == .cancelled)
        }
    }
}
