import FleetEngineTestSupport
import Testing
import TripTracking

@Suite("TripModel.refreshCount")
struct RefreshCountTests {
    @Test("counts each refresh over every following, one per refresh however many listen, none while idle")
    func countsRefreshes() async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            #expect(model.refreshCount == 0)
            let first = EventRecorder()
            let second = EventRecorder()
            model.register(first)
            #expect(await waitUntil { !first.events.isEmpty })
            #expect(model.refreshCount == 1)
            model.register(second)
            harness.clock.advance(by: .seconds(1))
            await model.refresh()
            #expect(model.refreshCount == 2)
            model.unregister(first)
            model.unregister(second)
            #expect(model.modelState == .idle)
            await model.refresh()
            #expect(model.refreshCount == 2)
            // A new following goes on counting.
            model.register(first)
            #expect(await waitUntil { model.refreshCount == 3 })
            model.unregister(first)
        }
    }
}
