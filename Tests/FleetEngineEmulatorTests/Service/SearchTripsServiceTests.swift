import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

@testable import FleetEngineEmulator

@Suite("SearchTrips: paging, filters and staleness")
struct SearchTripsServiceTests {
    static func request(
        pageSize: Int32 = 0,
        pageToken: String = "",
        vehicleID: String = "",
        activeOnly: Bool = false
    ) -> SearchTripsRequest {
        var request = SearchTripsRequest()
        request.parent = "providers/test-project"
        request.pageSize = pageSize
        request.pageToken = pageToken
        request.vehicleID = vehicleID
        request.activeTripsOnly = activeOnly
        return request
    }

    /// The token for the page after `name`, worked out here with Foundation: base64url, unpadded,
    /// of `after:` and the name.
    static func expectedToken(after name: String) -> String {
        Data(("after:" + name).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func ids(_ response: SearchTripsResponse) -> [String] {
        response.trips.map { String($0.name.split(separator: "/").last ?? "") }
    }

    static func tripIDs(_ range: Range<Int>) -> [String] {
        range.map { "trip-" + ($0 < 10 ? "0" : "") + String($0) }
    }

    @Test("25 trips in pages of 10 come as 10, 10 and 5 in name order, each token naming the last trip")
    func pagesAreExact() throws {
        let harness = ServiceHarness()
        // Created out of order: the pages are in name order whatever the creation order.
        for index in (0..<25).reversed() { try harness.createTrip(Self.tripIDs(index..<(index + 1))[0]) }
        try harness.createTrip("trip-00", provider: "other-project")

        let first = try harness.service.searchTrips(Self.request(pageSize: 10))
        #expect(Self.ids(first) == Self.tripIDs(0..<10))
        #expect(first.nextPageToken == Self.expectedToken(after: "providers/test-project/trips/trip-09"))

        let second = try harness.service.searchTrips(Self.request(pageSize: 10, pageToken: first.nextPageToken))
        #expect(Self.ids(second) == Self.tripIDs(10..<20))
        #expect(second.nextPageToken == Self.expectedToken(after: "providers/test-project/trips/trip-19"))

        let third = try harness.service.searchTrips(Self.request(pageSize: 10, pageToken: second.nextPageToken))
        #expect(Self.ids(third) == Self.tripIDs(20..<25))
        #expect(third.nextPageToken == "")
    }

    @Test("a page that ends exactly at the last trip has no next token")
    func exactLastPageHasNoToken() throws {
        let harness = ServiceHarness()
        for id in Self.tripIDs(0..<6) { try harness.createTrip(id) }
        let first = try harness.service.searchTrips(Self.request(pageSize: 3))
        let second = try harness.service.searchTrips(Self.request(pageSize: 3, pageToken: first.nextPageToken))
        #expect(Self.ids(second) == Self.tripIDs(3..<6))
        #expect(second.nextPageToken == "")
    }

    @Test("a page token continues after its trip even when trips are added and removed between pages")
    func tokenSurvivesChanges() throws {
        let harness = ServiceHarness()
        for id in Self.tripIDs(0..<8) { try harness.createTrip(id) }
        let first = try harness.service.searchTrips(Self.request(pageSize: 4))
        #expect(Self.ids(first) == Self.tripIDs(0..<4))

        var delete = DeleteTripRequest()
        delete.name = ServiceFixtures.name("trip-03")
        _ = try harness.service.deleteTrip(delete)
        delete.name = ServiceFixtures.name("trip-04")
        _ = try harness.service.deleteTrip(delete)
        try harness.createTrip("trip-035")
        try harness.createTrip("trip-00a")

        let second = try harness.service.searchTrips(Self.request(pageSize: 4, pageToken: first.nextPageToken))
        #expect(Self.ids(second) == ["trip-035", "trip-05", "trip-06", "trip-07"])
        #expect(second.nextPageToken == "")
    }

    @Test("page_size 0 means 50, and a page_size over 500 gives 500")
    func pageSizeDefaultsAndCap() throws {
        let harness = ServiceHarness()
        for index in 0..<501 { try harness.createTrip(String(format: "trip-%03d", index)) }
        let byDefault = try harness.service.searchTrips(Self.request())
        #expect(byDefault.trips.count == 50)
        #expect(byDefault.nextPageToken == Self.expectedToken(after: "providers/test-project/trips/trip-049"))
        let capped = try harness.service.searchTrips(Self.request(pageSize: 10_000))
        #expect(capped.trips.count == 500)
        #expect(capped.nextPageToken == Self.expectedToken(after: "providers/test-project/trips/trip-499"))
        let rest = try harness.service.searchTrips(Self.request(pageSize: 10_000, pageToken: capped.nextPageToken))
        #expect(Self.ids(rest) == ["trip-500"])
        #expect(rest.nextPageToken == "")
    }

    /// How the query that continues a page differs from the one that made its token.
    enum OtherQuery: String, CaseIterable, CustomTestStringConvertible {
        case otherVehicle, noVehicle, activeOnly, withStaleness

        var testDescription: String { rawValue }

        var request: SearchTripsRequest {
            var request = SearchTripsServiceTests.request(pageSize: 1, vehicleID: "vehicle-a")
            switch self {
            case .otherVehicle: request.vehicleID = "vehicle-b"
            case .noVehicle: request.vehicleID = ""
            case .activeOnly: request.activeTripsOnly = true
            case .withStaleness: request.minimumStaleness = SearchTripsServiceTests.staleness(seconds: 0)
            }
            return request
        }
    }

    @Test(
        "a page token continues only its own query: another vehicle_id, active_trips_only or minimum_staleness is INVALID_ARGUMENT on page_token",
        arguments: OtherQuery.allCases)
    func tokenOfAnotherQuery(_ other: OtherQuery) throws {
        let harness = ServiceHarness()
        for id in ["a1", "a2", "a3"] { try harness.createTrip(id, vehicleID: "vehicle-a") }
        for id in ["b1", "b2", "b3"] { try harness.createTrip(id, vehicleID: "vehicle-b") }
        let first = try harness.service.searchTrips(Self.request(pageSize: 1, vehicleID: "vehicle-a"))
        #expect(Self.ids(first) == ["a1"])
        // The same query goes on, with another page size too (AIP-158 allows that).
        let same = try harness.service.searchTrips(
            Self.request(pageSize: 5, pageToken: first.nextPageToken, vehicleID: "vehicle-a"))
        #expect(Self.ids(same) == ["a2", "a3"])

        var request = other.request
        request.pageToken = first.nextPageToken
        let error = try #require(fleetEngineError { try harness.service.searchTrips(request) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "page_token")
        #expect(
            error.message.contains(
                "the page token was issued for another query: vehicle_id, active_trips_only and minimum_staleness must stay the same from page to page"
            ))
    }

    @Test("vehicle_id keeps only that vehicle's trips")
    func vehicleFilter() throws {
        let harness = ServiceHarness()
        try harness.createTrip("a1", vehicleID: "vehicle-a")
        try harness.createTrip("b1", vehicleID: "vehicle-b")
        try harness.createTrip("a2", vehicleID: "vehicle-a")
        try harness.createTrip("none")
        #expect(Self.ids(try harness.service.searchTrips(Self.request(vehicleID: "vehicle-a"))) == ["a1", "a2"])
        #expect(Self.ids(try harness.service.searchTrips(Self.request(vehicleID: "vehicle-b"))) == ["b1"])
        #expect(Self.ids(try harness.service.searchTrips(Self.request(vehicleID: "vehicle-c"))) == [])
        #expect(Self.ids(try harness.service.searchTrips(Self.request())) == ["a1", "a2", "b1", "none"])
    }

    @Test("active_trips_only leaves out COMPLETE and CANCELED trips")
    func activeTripsOnly() throws {
        let harness = ServiceHarness()
        for id in ["new", "moving", "done", "dropped"] { try harness.createTrip(id, vehicleID: "vehicle-1") }
        var change = Trip()
        change.tripStatus = .enrouteToPickup
        try harness.update(ServiceFixtures.name("moving"), ["trip_status"], change)
        change.tripStatus = .complete
        try harness.update(ServiceFixtures.name("done"), ["trip_status"], change)
        change.tripStatus = .canceled
        try harness.update(ServiceFixtures.name("dropped"), ["trip_status"], change)

        let active = try harness.service.searchTrips(Self.request(vehicleID: "vehicle-1", activeOnly: true))
        #expect(Self.ids(active) == ["moving", "new"])
        let all = try harness.service.searchTrips(Self.request(vehicleID: "vehicle-1"))
        #expect(Self.ids(all) == ["done", "dropped", "moving", "new"])
    }

    static func staleness(seconds: Int64, nanos: Int32 = 0) -> ProtobufDuration {
        var duration = ProtobufDuration()
        duration.seconds = seconds
        duration.nanos = nanos
        return duration
    }

    /// Staleness in seconds, and the trips it keeps: changed at 0, 10 and 20 s, searched at 30 s.
    static let stalenessCases: [(Int64, [String])] = [
        (0, ["t0", "t10", "t20"]),
        (10, ["t0", "t10", "t20"]),
        (11, ["t0", "t10"]),
        (20, ["t0", "t10"]),
        (25, ["t0"]),
        (30, ["t0"]),
        (31, []),
        // Centuries, up to google.protobuf.Duration's largest: every trip is too fresh.
        (10_000_000_000, []),
        (315_576_000_000, []),
    ]

    @Test("without a vehicle id the trips found leave out the route fields, as Fleet Engine's reference says")
    func routeFieldsOnlyForAVehicle() throws {
        let harness = ServiceHarness()
        let created = try harness.createTrip("routed", vehicleID: "vehicle-1")
        #expect(!created.remainingWaypoints.isEmpty)
        let forVehicle = try harness.service.searchTrips(Self.request(vehicleID: "vehicle-1"))
        #expect(forVehicle.trips == [created])
        let found = try #require(try harness.service.searchTrips(Self.request()).trips.first)
        #expect(found.remainingWaypoints.isEmpty)
        #expect(found.remainingDistanceMeters == nil && found.etaToFirstWaypoint == nil)
        #expect(found.currentRouteSegment.isEmpty)
        var rest = created
        rest.remainingWaypoints = []
        rest.remainingDistanceMeters = nil
        rest.etaToFirstWaypoint = nil
        rest.currentRouteSegment = ""
        #expect(found == rest)
    }

    @Test(
        "minimum_staleness keeps trips last changed at least that long ago, the boundary included",
        arguments: stalenessCases)
    func minimumStaleness(seconds: Int64, expected: [String]) throws {
        let harness = ServiceHarness()
        try harness.createTrip("t0")
        harness.clock.advance(by: .seconds(10))
        try harness.createTrip("t10")
        try harness.createTrip("t20")
        harness.clock.advance(by: .seconds(10))
        var change = Trip()
        change.vehicleID = "vehicle-1"
        try harness.update(ServiceFixtures.name("t20"), ["vehicle_id"], change)
        harness.clock.advance(by: .seconds(10))
        // Reading a trip, or an update that changes nothing, does not make it fresh.
        _ = try harness.get(ServiceFixtures.name("t0"))
        try harness.update(ServiceFixtures.name("t20"), ["vehicle_id"], change)

        var request = Self.request()
        request.minimumStaleness = Self.staleness(seconds: seconds)
        #expect(Self.ids(try harness.service.searchTrips(request)) == expected)
    }

    @Test("minimum_staleness with a fraction of a second compares exactly")
    func fractionalStaleness() throws {
        let harness = ServiceHarness()
        try harness.createTrip("early")
        harness.clock.advance(by: .milliseconds(1_700))
        try harness.createTrip("late")
        harness.clock.advance(by: .milliseconds(300))
        // Now is 2.0 s; 0.5 s of staleness keeps what changed by 1.5 s: "early" (0 s), not "late" (1.7 s).
        var request = Self.request()
        request.minimumStaleness = Self.staleness(seconds: 0, nanos: 500_000_000)
        #expect(Self.ids(try harness.service.searchTrips(request)) == ["early"])
        // 0.3 s keeps what changed by exactly 1.7 s: both.
        request.minimumStaleness = Self.staleness(seconds: 0, nanos: 300_000_000)
        #expect(Self.ids(try harness.service.searchTrips(request)) == ["early", "late"])
        // 1.25 s keeps what changed by 0.75 s: "early".
        request.minimumStaleness = Self.staleness(seconds: 1, nanos: 250_000_000)
        #expect(Self.ids(try harness.service.searchTrips(request)) == ["early"])
    }

    enum BadRequestCase: String, CaseIterable, CustomTestStringConvertible {
        case tokenNotBase64, tokenNotOurs, tokenOfAnotherProvider, negativePageSize, negativeStaleness
        case negativeStalenessNanos, stalenessPastDurationRange, stalenessNanosOfASecond, badParent

        var testDescription: String { rawValue }

        var request: SearchTripsRequest {
            var request = SearchTripsServiceTests.request()
            switch self {
            case .tokenNotBase64: request.pageToken = "not a token!"
            case .tokenNotOurs: request.pageToken = "aGVsbG8gd29ybGQ"  // base64url of "hello world"
            case .tokenOfAnotherProvider:
                request.pageToken = SearchTripsServiceTests.expectedToken(after: "providers/other-project/trips/a")
            case .negativePageSize: request.pageSize = -1
            case .negativeStaleness: request.minimumStaleness = SearchTripsServiceTests.staleness(seconds: -1)
            case .negativeStalenessNanos:
                request.minimumStaleness = SearchTripsServiceTests.staleness(seconds: 0, nanos: -1)
            case .stalenessPastDurationRange:
                request.minimumStaleness = SearchTripsServiceTests.staleness(seconds: 315_576_000_001)
            case .stalenessNanosOfASecond:
                request.minimumStaleness = SearchTripsServiceTests.staleness(seconds: 0, nanos: 1_000_000_000)
            case .badParent: request.parent = "providers/test-project/trips"
            }
            return request
        }

        var field: String {
            switch self {
            case .tokenNotBase64, .tokenNotOurs, .tokenOfAnotherProvider: "page_token"
            case .negativePageSize: "page_size"
            case .negativeStaleness, .negativeStalenessNanos, .stalenessPastDurationRange, .stalenessNanosOfASecond:
                "minimum_staleness"
            case .badParent: "parent"
            }
        }
    }

    @Test(
        "a bad token, a negative page size or staleness, or a bad parent is INVALID_ARGUMENT on that field",
        arguments: BadRequestCase.allCases)
    func badRequestsAreRefused(_ bad: BadRequestCase) throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        let error = try #require(fleetEngineError { try harness.service.searchTrips(bad.request) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == bad.field)
    }
}
