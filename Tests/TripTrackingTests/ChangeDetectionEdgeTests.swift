import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Testing
import TripTracking

@Suite("Change detection at the edges: repeated stops, hidden changes, a change of view")
struct ChangeDetectionEdgeTests {
    /// What following a scripted trip for two refreshes, one second apart, came to.
    struct TwoRefreshes {
        let model: TripModel
        let name: String
        /// The trip after the first refresh.
        let first: Trip?
        /// The events of the second refresh.
        let events: [String]
    }

    /// Follows trip `tripID`, served as `script` says, with `view`: one refresh, then `between`,
    /// the clock one second on, and a second refresh.
    static func followTwice(
        _ harness: TrackingHarness, tripID: String, view: TripView = .unspecified,
        between: (TripModel) -> Void = { _ in }, script: @escaping @Sendable (Int) -> Trip
    ) async throws -> TwoRefreshes {
        let name = "providers/\(TrackingHarness.provider)/trips/\(tripID)"
        try harness.emulator.addMovingTrip(named: name, motion: ScriptedMotion(script: script))
        let model = harness.service.tripModel(for: name)
        model.options.view = view
        let recorder = EventRecorder()
        model.register(recorder)
        await model.refresh()
        let first = model.trip
        _ = recorder.take()
        between(model)
        harness.clock.advance(by: .seconds(1))
        await model.refresh()
        model.unregister(recorder)
        return TwoRefreshes(model: model, name: name, first: first, events: recorder.take().map(\.summary))
    }

    /// A shared trip whose vehicle picks up another rider first; with `otherPathMoves`, the start
    /// of that rider's path moves with `second` (a change JOURNEY_SHARING_V1S hides), and nothing
    /// else ever changes.
    static func pooled(tripID: String, second: Int, otherPathMoves: Bool) -> Trip {
        let pickup = LatLng(latitude: 52.50, longitude: 13.40)
        let dropoff = LatLng(latitude: 52.54, longitude: 13.44)
        let otherPickup = LatLng(latitude: 52.51, longitude: 13.41)
        let otherDropoff = LatLng(latitude: 52.55, longitude: 13.45)
        let start = LatLng(latitude: 52.505 + (otherPathMoves ? Double(second) / 10_000 : 0), longitude: 13.405)
        var trip = Trip()
        trip.tripType = .shared
        trip.tripStatus = .enrouteToPickup
        trip.pickupPoint = ScriptedMotion.terminal(pickup)
        trip.dropoffPoint = ScriptedMotion.terminal(dropoff)
        trip.remainingWaypoints = [
            ScriptedMotion.waypoint(otherPickup, .pickupWaypointType, trip: "other", path: [start, otherPickup]),
            ScriptedMotion.waypoint(pickup, .pickupWaypointType, trip: tripID, path: [otherPickup, pickup]),
            ScriptedMotion.waypoint(otherDropoff, .dropOffWaypointType, trip: "other", path: [pickup, otherDropoff]),
            ScriptedMotion.waypoint(dropoff, .dropOffWaypointType, trip: tripID, path: [otherDropoff, dropoff]),
        ]
        return trip
    }

    @Test("a trip that visits the same stop twice: the merged trip equals a full fetch, and nothing fires unchanged")
    func repeatedStopMerge() async throws {
        try await withTracking(count: 1) { harness in
            let tripID = "revisit"
            let x = LatLng(latitude: 52.50, longitude: 13.40)
            let y = LatLng(latitude: 52.52, longitude: 13.42)
            let dropoff = LatLng(latitude: 52.54, longitude: 13.44)
            let result = try await Self.followTwice(harness, tripID: tripID) { second in
                var trip = Trip()
                trip.tripType = .exclusive
                trip.tripStatus = .enrouteToIntermediateDestination
                trip.intermediateDestinations = [x, y, x].map(ScriptedMotion.terminal)
                trip.dropoffPoint = ScriptedMotion.terminal(dropoff)
                trip.remainingWaypoints = [
                    ScriptedMotion.waypoint(
                        x, .intermediateDestinationWaypointType, trip: tripID,
                        path: [LatLng(latitude: 52.49, longitude: 13.39), x]),
                    ScriptedMotion.waypoint(y, .intermediateDestinationWaypointType, trip: tripID, path: [x, y]),
                    ScriptedMotion.waypoint(x, .intermediateDestinationWaypointType, trip: tripID, path: [y, x]),
                    ScriptedMotion.waypoint(dropoff, .dropOffWaypointType, trip: tripID, path: [x, dropoff]),
                ]
                trip.remainingDistanceMeters = Int32(5_000 - 10 * second)
                return trip
            }
            // Only the remaining distance changed.
            #expect(result.model.trip == (try harness.fullFetch(result.name)), "the merged trip differs")
            #expect(result.events == ["tripUpdated[remainingDistance]", "remainingDistance"])
        }
    }

    @Test("a change of eta_to_first_waypoint that is no pickup or dropoff ETA still fires trip updated (other)")
    func etaToFirstWaypointOfAnotherStop() async throws {
        try await withTracking(count: 1) { harness in
            let tripID = "stuck"
            let stop = LatLng(latitude: 52.50, longitude: 13.40)
            let dropoff = LatLng(latitude: 52.54, longitude: 13.44)
            let start = TrackingHarness.start.seconds
            let result = try await Self.followTwice(harness, tripID: tripID) { second in
                var trip = Trip()
                trip.tripType = .exclusive
                trip.tripStatus = .enrouteToIntermediateDestination
                trip.intermediateDestinations = [ScriptedMotion.terminal(stop)]
                trip.dropoffPoint = ScriptedMotion.terminal(dropoff)
                trip.remainingWaypoints = [
                    ScriptedMotion.waypoint(stop, .intermediateDestinationWaypointType, trip: tripID),
                    ScriptedMotion.waypoint(
                        dropoff, .dropOffWaypointType, trip: tripID, eta: Timestamp(seconds: start + 1_200, nanos: 0)),
                ]
                // The vehicle is held up: the ETA to the next stop slips.
                trip.etaToFirstWaypoint = Timestamp(seconds: start + 600 + Int64(second), nanos: 0)
                return trip
            }
            let now = try harness.fullFetch(result.name)
            #expect(result.first != now)
            #expect(result.model.trip == now)
            #expect(result.events == ["tripUpdated[other]"], "the trip changed but nothing fired")
        }
    }

    @Test("under JOURNEY_SHARING_V1S, a change that moves only the trip's versions still fires trip updated (other)")
    func versionOnlyChange() async throws {
        try await withTracking(count: 1) { harness in
            let result = try await Self.followTwice(harness, tripID: "hidden", view: .journeySharingV1s) { second in
                Self.pooled(tripID: "hidden", second: second, otherPathMoves: true)
            }
            #expect(result.model.trip != result.first, "the trip's versions moved on")
            #expect(result.events == ["tripUpdated[other]"], "the trip changed but nothing fired")
        }
    }

    @Test("switching the view from JOURNEY_SHARING_V1S to SDK fetches what the narrower view left out")
    func viewChangeTakesEffect() async throws {
        try await withTracking(count: 1) { harness in
            let result = try await Self.followTwice(
                harness, tripID: "pooled", view: .journeySharingV1s, between: { $0.options.view = .sdk }
            ) { second in
                Self.pooled(tripID: "pooled", second: second, otherPathMoves: false)
            }
            // A full SDK-view fetch: the other rider's stops with their paths.
            let full = try harness.fullFetch(result.name)
            #expect(full.remainingWaypoints[0].pathToWaypoint.count == 2)
            #expect(result.model.trip?.remainingWaypoints == full.remainingWaypoints)
        }
    }
}
