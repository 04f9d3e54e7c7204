import FleetEngineCodec
import Testing

@testable import FleetEngineCapture

@Suite("--trip: a call is kept when one of its messages names the trip, not when the bytes merely contain it")
struct CaptureFilterTripTests {
    static func getTrip(_ name: String) -> [UInt8] {
        var request = GetTripRequest()
        request.name = name
        return request.serializedBytes()
    }

    /// A trip whose own name is another trip's, with a waypoint of `waypointTrip` three levels down.
    static func tripWithWaypoint(of waypointTrip: String) -> [UInt8] {
        var waypoint = TripWaypoint()
        waypoint.tripID = waypointTrip
        var trip = Trip()
        trip.name = "providers/test-project/trips/other"
        trip.remainingWaypoints = [waypoint]
        var response = SearchTripsResponse()
        response.trips = [trip]
        return response.serializedBytes()
    }

    @Test(
        "names and ids that match",
        arguments: [
            ("providers/test-project/trips/trip-1", "providers/test-project/trips/trip-1"),
            ("trip-1", "providers/test-project/trips/trip-1"),
            ("trip-1", "providers/p/trips/trip-1"),
        ])
    func matching(trip: String, name: String) {
        #expect(CaptureFilter.TripPattern(trip).isCarried(in: Self.getTrip(name)[...]))
    }

    @Test(
        "names and ids that only share bytes do not match",
        arguments: [
            ("trip-1", "providers/test-project/trips/trip-10"),
            ("trip-1", "providers/test-project/trips/xtrip-1"),
            ("trip-1", "providers/a/b/trips/trip-1"),
            ("providers/test-project/trips/trip-1", "providers/test-project/trips/trip-10"),
            ("test-project", "providers/test-project/trips/trip-1"),
            ("trips", "providers/test-project/trips/trip-1"),
        ])
    func notMatching(trip: String, name: String) {
        #expect(!CaptureFilter.TripPattern(trip).isCarried(in: Self.getTrip(name)[...]))
    }

    @Test("a trip id in a nested message matches: a waypoint's trip_id in a search response")
    func nestedTripID() {
        let bytes = Self.tripWithWaypoint(of: "trip-7")
        #expect(CaptureFilter.TripPattern("trip-7").isCarried(in: bytes[...]))
        #expect(CaptureFilter.TripPattern("other").isCarried(in: bytes[...]))
        #expect(!CaptureFilter.TripPattern("trip-70").isCarried(in: bytes[...]))
        #expect(!CaptureFilter.TripPattern("trip").isCarried(in: bytes[...]))
    }

    @Test("malformed and cut-off payloads match nothing and do not trap")
    func malformed() {
        let whole = Self.getTrip("providers/test-project/trips/trip-1")
        for length in 0..<whole.count {
            _ = CaptureFilter.TripPattern("trip-1").isCarried(in: whole.prefix(length))
        }
        let garbage: [[UInt8]] = [
            [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], [0x0B], [0x09], [0xFF],
        ]
        for bytes in garbage { #expect(!CaptureFilter.TripPattern("trip-1").isCarried(in: bytes[...])) }
        #expect(!CaptureFilter.TripPattern("trip-1").isCarried(in: whole.dropLast()))
    }
}
