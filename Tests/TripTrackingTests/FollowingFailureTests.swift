import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Testing
import TripTracking

@Suite("Failed refreshes: reported, and following goes on")
struct FollowingFailureTests {
    @Test(
        "UNAVAILABLE injected on every third call mid-trip: each is one updateFailed, and the next refresh catches up")
    func serverFailuresMidTrip() async throws {
        var faults = FaultPlan()
        faults.failEvery = 3
        faults.failCode = .unavailable
        try await withTracking(faults: faults) { harness in
            let name = harness.names[0]
            let model = harness.service.tripModel(for: name)
            let recorder = EventRecorder()
            model.register(recorder)
            var delivered: Trip?
            var failures = 0
            // Registering makes the first call, unless the first refresh below catches it before it
            // begins; each other refresh makes one more.
            var calls = 1
            while model.modelState == .following, calls < 400 {
                await model.refresh()
                calls += 1
                let events = recorder.take()
                let full = try harness.fullFetch(name)
                if case .updateFailed(let error)? = events.first {
                    failures += 1
                    #expect(events.count == 1, "call \(calls): \(events.map(\.summary))")
                    #expect(error.code == .unavailable)
                    #expect(error.family == .serverOrNetwork)
                    #expect(error.message.contains("injected fault"))
                } else {
                    #expect(model.trip == full, "call \(calls)")
                    if full != delivered {
                        #expect(events.first.map(\.name) == "tripUpdated", "call \(calls)")
                        #expect(Array(events.dropFirst()) == ExpectedEvents.parts(from: delivered, to: full))
                    } else {
                        #expect(events.isEmpty)
                    }
                    delivered = full
                }
                harness.clock.advance(by: .seconds(3))
            }
            #expect(model.modelState == .ended(.complete))
            // Exactly every third call failed, and each failure was one event.
            #expect(failures == calls / 3 || failures == (calls - 1) / 3)
            #expect(failures > 10)
        }
    }

    @Test("a trip that does not exist fails with NOT_FOUND on every refresh until it is created, then is followed")
    func notFoundThenCreated() async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: "late-trip")
            #expect(model.name == "providers/\(TrackingHarness.provider)/trips/late-trip")
            let recorder = EventRecorder()
            model.register(recorder)
            for _ in 0..<3 {
                await model.refresh()
                let events = recorder.take()
                #expect(events.map(\.summary) == ["updateFailed(NOT_FOUND)"])
                if case .updateFailed(let error)? = events.first { #expect(error.family == .client) }
            }
            var request = CreateTripRequest()
            request.parent = "providers/\(TrackingHarness.provider)"
            request.tripID = "late-trip"
            var trip = Trip()
            trip.tripType = .exclusive
            var pickup = TerminalLocation()
            pickup.point = LatLng(latitude: 52.52, longitude: 13.405)
            trip.pickupPoint = pickup
            request.trip = trip
            let created = try await harness.client.createTrip(request)
            await model.refresh()
            let events = recorder.take()
            #expect(events.first == .tripUpdated(created, fields: TripPropertyFields(events: events).union(.other)))
            #expect(Array(events.dropFirst()) == ExpectedEvents.parts(from: nil, to: created))
            #expect(events.contains(.tripStatus(.new)))
            #expect(events.contains(.pickupLocation(created.pickupPoint)))
            #expect(model.trip == created)
        }
    }

    @Test(
        "malformed names and names of another provider fail locally with INVALID_ARGUMENT, refresh after refresh",
        arguments: ["providers/tracking-tests/trips/", "providers/someone-else/trips/abc", "providers//trips/x/y"])
    func invalidNames(name: String) async throws {
        try await withTracking(count: 1) { harness in
            let model = harness.service.tripModel(for: name)
            let recorder = EventRecorder()
            model.register(recorder)
            await model.refresh()
            await model.refresh()
            let events = recorder.take()
            #expect(events.count >= 2)
            for event in events {
                guard case .updateFailed(let error) = event else {
                    Issue.record("unexpected \(event.summary)")
                    continue
                }
                #expect(error.code == .invalidArgument)
                #expect(error.origin == .local)
                #expect(error.family == .client)
            }
            #expect(model.modelState == .following)
        }
    }

    @Test(
        "with a short interval, following recovers by itself after server failures and reaches COMPLETE",
        .timeLimit(.minutes(10)))
    func recoversOnItsOwn() async throws {
        var faults = FaultPlan()
        faults.failEvery = 2
        faults.failCode = .unavailable
        try await withTracking(
            count: 1, faults: faults, interval: .milliseconds(20), serverFailureRetryDelay: .milliseconds(5)
        ) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            var failures = 0
            var statuses: [TripStatus] = []
            var updates = 0
            for try await event in model.updates {
                switch event {
                case .updateFailed(let error):
                    #expect(error.code == .unavailable)
                    failures += 1
                case .tripStatus(let status):
                    statuses.append(status)
                case .tripUpdated:
                    updates += 1
                    // Each success moves the simulation on by a minute.
                    harness.clock.advance(by: .seconds(60))
                default:
                    break
                }
                if failures > 200 { break }
            }
            #expect(statuses.last == .complete)
            #expect(failures >= 1)
            #expect(model.modelState == .ended(.complete))
        }
    }
    @Test("server failures in a row, with the longest retry delay a Duration holds, back off without trapping")
    func longestServerFailureRetryDelay() async throws {
        var faults = FaultPlan()
        faults.failEvery = 1
        faults.failCode = .unavailable
        try await withTracking(
            count: 1, faults: faults, interval: .seconds(Int64.max), serverFailureRetryDelay: .seconds(Int64.max)
        ) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            // Registering makes a call of its own, which this first refresh may or may not serve.
            await model.refresh()
            _ = recorder.take()
            // The backoff doubles with each failure: the sixth is past Duration's range unless capped.
            for failure in 1...8 {
                await model.refresh()
                #expect(recorder.take().map(\.name) == ["updateFailed"], "failure \(failure)")
            }
            #expect(model.modelState == .following)
            model.unregister(recorder)
        }
    }
}
