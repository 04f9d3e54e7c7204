import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Testing
import TripTracking

@Suite("Following a simulated trip from start to COMPLETE over loopback")
struct WholeTripFollowingTests {
    @Test(
        "every refresh fires exactly the events of what changed, and the merged trip equals a full fetch",
        arguments: [0, 1, 2])
    func wholeTrip(index: Int) async throws {
        try await withTracking { harness in
            let simulation = harness.simulations[index]
            let name = simulation.plan.tripName
            let model = harness.service.tripModel(for: name)
            #expect(harness.service.tripModel(for: name) === model)
            let recorder = EventRecorder()
            model.register(recorder)
            #expect(model.modelState == .following)
            var previous: Trip?
            var statuses: [TripStatus] = []
            let steps = Int(simulation.duration.components.seconds) + 2
            for step in 0..<steps {
                if step > 0 {
                    harness.clock.advance(by: .seconds(1))
                }
                await model.refresh()
                let full = try harness.fullFetch(name)
                let events = recorder.take()
                #expect(model.trip == full, "step \(step): the merged trip differs from a full fetch")
                let expectedParts = ExpectedEvents.parts(from: previous, to: full)
                if full == previous {
                    #expect(events.isEmpty, "step \(step): events without a change: \(events.map(\.summary))")
                } else {
                    guard case .tripUpdated(let trip, let fields)? = events.first else {
                        Issue.record("step \(step): the first event is not tripUpdated: \(events.map(\.summary))")
                        return
                    }
                    #expect(trip == full)
                    #expect(Array(events.dropFirst()) == expectedParts, "step \(step)")
                    let partFields = fields.subtracting(.other)
                    #expect(partFields.names == expectedParts.map(\.name), "step \(step)")
                    if expectedParts.isEmpty { #expect(fields == .other) }
                }
                for case .tripStatus(let status) in events { statuses.append(status) }
                previous = full
                if full.tripStatus == .complete { break }
            }
            #expect(model.modelState == .ended(.complete))
            let planned = simulation.events.compactMap { event -> TripStatus? in
                if case .statusChanged(let status, _) = event.kind { return status }
                return nil
            }
            // The simulation's first status change is the trip's first status, at time zero.
            #expect(planned.first == simulation.trip(at: .zero).tripStatus)
            #expect(statuses == planned)
            // Once ended, a refresh does nothing and no further events come.
            harness.clock.advance(by: .seconds(5))
            await model.refresh()
            #expect(recorder.take().isEmpty)
        }
    }

    @Test("two iterators of updates and a subscriber see the same events, and the iterators finish at COMPLETE")
    func iteratorsAndSubscriber() async throws {
        try await withTracking { harness in
            let simulation = harness.simulations[1]
            let model = harness.service.tripModel(for: simulation.plan.tripName)
            let recorder = EventRecorder()
            model.register(recorder)
            let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: [TripEvent].self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        var iterator = model.updates.makeAsyncIterator()
                        readyContinuation.yield()
                        var events: [TripEvent] = []
                        while let event = try await iterator.next() { events.append(event) }
                        return events
                    }
                }
                var readiness = ready.makeAsyncIterator()
                _ = await readiness.next()
                _ = await readiness.next()
                var seconds = 0
                while model.modelState == .following, seconds < 7_200 {
                    await model.refresh()
                    harness.clock.advance(by: .seconds(5))
                    seconds += 5
                }
                #expect(model.modelState == .ended(.complete))
                let fromSubscriber = recorder.events
                var finished = 0
                for try await events in group {
                    finished += 1
                    // The iterators began after the subscriber, so they may have missed its first refresh.
                    #expect(fromSubscriber.hasSuffix(events))
                    #expect(events.contains(.tripStatus(.complete)))
                }
                #expect(finished == 2)
            }
        }
    }
}

extension Array where Element: Equatable {
    func hasSuffix(_ suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
