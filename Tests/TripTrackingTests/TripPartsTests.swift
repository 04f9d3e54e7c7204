import FleetEngineCodec
import Testing
import TripTracking

@Suite("The parts of a trip, as a follower gets them")
struct TripPartsTests {
    static let fleetDebuggerVector =
        "AQMAAAA7_tIhjf_avysne_M5iOW__WHh1yJy4z9MIcUK8Pvav7QbiLMRiuW_SWY5Y1lx4z-CIIuaN__av1Eb3-fUh-W_iPpHZ7By4z8="

    @Test("an encoded route segment alone becomes the active route: Google's Fleet Debugger vector, to 5 decimals")
    func encodedSegment() throws {
        var trip = Trip()
        trip.currentRouteSegment = Self.fleetDebuggerVector
        let route = try #require(TripParts(trip).activeRoute)
        let rounded = route.map { [($0.latitude * 1e5).rounded() / 1e5, ($0.longitude * 1e5).rounded() / 1e5] }
        #expect(rounded == [[37.42213, -122.0848], [37.4152, -122.0627], [37.427, -122.0854]])
    }

    @Test("a route list wins over the segment; neither gives nil")
    func routeList() {
        var trip = Trip()
        #expect(TripParts(trip).activeRoute == nil)
        trip.currentRouteSegment = Self.fleetDebuggerVector
        trip.route = [LatLng(latitude: 1, longitude: 2)]
        #expect(TripParts(trip).activeRoute == [LatLng(latitude: 1, longitude: 2)])
    }

    @Test("pickup and dropoff ETAs: the first waypoint's from eta_to_first_waypoint, later ones from their own eta")
    func etas() {
        var trip = Trip()
        trip.name = "providers/p/trips/mine"
        trip.etaToFirstWaypoint = Timestamp(seconds: 100, nanos: 0)
        var other = TripWaypoint()
        other.tripID = "someone-else"
        other.waypointType = .pickupWaypointType
        other.eta = Timestamp(seconds: 50, nanos: 0)
        var pickup = TripWaypoint()
        pickup.tripID = "mine"
        pickup.waypointType = .pickupWaypointType
        pickup.eta = Timestamp(seconds: 90, nanos: 0)
        var dropoff = TripWaypoint()
        dropoff.tripID = "mine"
        dropoff.waypointType = .dropOffWaypointType
        dropoff.eta = Timestamp(seconds: 300, nanos: 0)
        trip.remainingWaypoints = [pickup, dropoff]
        #expect(TripParts(trip).pickupETA == Timestamp(seconds: 100, nanos: 0))
        #expect(TripParts(trip).dropoffETA == Timestamp(seconds: 300, nanos: 0))
        trip.remainingWaypoints = [other, pickup, dropoff]
        #expect(TripParts(trip).pickupETA == Timestamp(seconds: 90, nanos: 0))
        trip.remainingWaypoints = [dropoff]
        #expect(TripParts(trip).pickupETA == nil)
        #expect(TripParts(trip).dropoffETA == Timestamp(seconds: 100, nanos: 0))
    }

    @Test("empty lists are nil, and only changed parts are reported")
    func changes() {
        var trip = Trip()
        trip.tripStatus = .new
        let before = TripParts(trip)
        #expect(before.remainingWaypoints == nil)
        #expect(before.intermediateDestinations == nil)
        #expect(before.changedFields(since: .none) == [.tripStatus])
        trip.remainingDistanceMeters = 1_200
        trip.tripStatus = .enrouteToPickup
        #expect(TripParts(trip).changedFields(since: before) == [.tripStatus, .remainingDistance])
        #expect(TripParts(trip).changedFields(since: TripParts(trip)) == [])
    }

    @Test("field names in event order")
    func fieldNames() {
        let fields: TripPropertyFields = [.other, .activeRouteTraffic, .tripStatus]
        #expect(fields.names == ["tripStatus", "activeRouteTraffic", "other"])
        #expect(fields.description == "[tripStatus, activeRouteTraffic, other]")
    }
}
