import FleetEngineCodec
import FleetEngineEmulator
import Testing
import TripTracking

@Suite("One trip service following 1,000 simulated trips at once")
struct ManyTripsTests {
    @Test(
        "1,000 trips followed to COMPLETE: every merged trip equals a full fetch at every step",
        .timeLimit(.minutes(10))
    )
    func thousandTrips() async throws {
        try await withTracking(count: 1_000) { harness in
            let models = harness.names.map { harness.service.tripModel(for: $0) }
            let recorders = models.map { model in
                let recorder = EventRecorder()
                model.register(recorder)
                return recorder
            }
            #expect(harness.service.followedTripCount == 1_000)
            var rounds = 0
            while models.contains(where: { $0.modelState == .following }), rounds < 100 {
                let following = models.indices.filter { models[$0].modelState == .following }
                await withTaskGroup(of: Void.self) { group in
                    for index in following { group.addTask { await models[index].refresh() } }
                }
                for index in following {
                    let model = models[index]
                    let full = try harness.fullFetch(model.name)
                    let failures = recorders[index].events.filter { $0.name == "updateFailed" }.map(\.summary)
                    #expect(model.trip == full, "round \(rounds), \(model.name), failures: \(failures)")
                }
                harness.clock.advance(by: .seconds(90))
                rounds += 1
            }
            #expect(models.allSatisfy { $0.modelState == .ended(.complete) })
            #expect(harness.service.followedTripCount == 0)
            for (model, recorder) in zip(models, recorders) {
                let events = recorder.events
                let statuses = events.compactMap { event -> TripStatus? in
                    if case .tripStatus(let status) = event { return status }
                    return nil
                }
                #expect(statuses.last == .complete, "\(model.name)")
                #expect(!events.contains { $0.name == "updateFailed" }, "\(model.name)")
            }
        }
    }
}
