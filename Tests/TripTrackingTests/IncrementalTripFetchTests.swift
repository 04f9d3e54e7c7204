import FleetEngineCodec
import FleetEngineEmulator
import Testing
import TripTracking

@Suite("Incremental fetch: versions sent, left-out parts merged back")
struct IncrementalTripFetchTests {
    @Test(
        "at every second of six simulated trips the merged trip equals a full fetch, in both route forms",
        arguments: [PolylineFormatType.latLngListType, .encodedPolylineType])
    func mergedEqualsFull(format: PolylineFormatType) throws {
        let clock = ManualTimeSource(start: TrackingHarness.start)
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        let names = try emulator.simulate(providerID: TrackingHarness.provider, count: 6, seed: TrackingHarness.seed)
        var held: [String: Trip] = [:]
        var leftOut = 0
        for _ in 0..<3_600 {
            for name in names {
                var request = IncrementalTripFetch.request(name: name, holding: held[name])
                request.routeFormatType = format
                let response = try emulator.service.getTrip(request)
                var fullRequest = GetTripRequest()
                fullRequest.name = name
                fullRequest.routeFormatType = format
                let full = try emulator.service.getTrip(fullRequest)
                if response != full { leftOut += 1 }
                let merged = IncrementalTripFetch.merge(response, answering: request, into: held[name])
                #expect(merged == full, "\(name) at \(clock.now().seconds - TrackingHarness.start.seconds) s")
                held[name] = merged
            }
            clock.advance(by: .seconds(1))
        }
        // The server did leave parts out, or the test would prove nothing.
        #expect(leftOut > 3_600)
    }

    @Test("the first request holds no versions; later ones send the three held")
    func requestVersions() {
        let first = IncrementalTripFetch.request(name: "providers/p/trips/t", holding: nil, view: .journeySharingV1s)
        #expect(first.name == "providers/p/trips/t")
        #expect(first.view == .journeySharingV1s)
        #expect(first.currentRouteSegmentVersion == nil)
        #expect(first.currentRouteSegmentTrafficVersion == nil)
        #expect(first.remainingWaypointsRouteVersion == nil)
        var held = Trip()
        held.currentRouteSegmentVersion = Timestamp(seconds: 10, nanos: 1)
        held.currentRouteSegmentTrafficVersion = Timestamp(seconds: 11, nanos: 0)
        held.remainingWaypointsRouteVersion = Timestamp(seconds: 12, nanos: 0)
        held.remainingWaypointsVersion = Timestamp(seconds: 13, nanos: 0)
        let next = IncrementalTripFetch.request(name: "providers/p/trips/t", holding: held)
        #expect(next.currentRouteSegmentVersion == Timestamp(seconds: 10, nanos: 1))
        #expect(next.currentRouteSegmentTrafficVersion == Timestamp(seconds: 11, nanos: 0))
        #expect(next.remainingWaypointsRouteVersion == Timestamp(seconds: 12, nanos: 0))
        #expect(next.remainingWaypointsVersion == nil)
    }

    @Test("a part whose version moved on is taken from the response even when it is empty")
    func newerVersionWins() {
        var held = Trip()
        held.route = [LatLng(latitude: 1, longitude: 2)]
        held.currentRouteSegmentVersion = Timestamp(seconds: 10, nanos: 0)
        let request = IncrementalTripFetch.request(name: "providers/p/trips/t", holding: held)
        var response = Trip()
        response.currentRouteSegmentVersion = Timestamp(seconds: 11, nanos: 0)
        #expect(IncrementalTripFetch.merge(response, answering: request, into: held).route == [])
        response.currentRouteSegmentVersion = Timestamp(seconds: 10, nanos: 0)
        #expect(IncrementalTripFetch.merge(response, answering: request, into: held).route == held.route)
    }
}
