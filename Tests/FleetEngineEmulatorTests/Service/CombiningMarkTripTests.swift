import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("A trip id that begins with a combining mark: the '/' before it is not part of the id")
struct CombiningMarkTripTests {
    static let tripID = "\u{301}abc"

    @Test("such a trip is searched, paged past, and its waypoints carry its own id")
    func searchedAndPaged() throws {
        let harness = ServiceHarness()
        let marked = try harness.createTrip(Self.tripID)
        _ = try harness.createTrip("zz")
        #expect(marked.remainingWaypoints.map(\.tripID) == [Self.tripID, Self.tripID])
        let all = try harness.service.searchTrips(SearchTripsServiceTests.request()).trips.map(\.name)
        #expect(Set(all) == [marked.name, ServiceFixtures.name("zz")])
        // One trip a page: the first page's token leads to the other trip, whichever sorts first.
        let first = try harness.service.searchTrips(SearchTripsServiceTests.request(pageSize: 1))
        let second = try harness.service.searchTrips(
            SearchTripsServiceTests.request(pageSize: 1, pageToken: first.nextPageToken))
        #expect((first.trips + second.trips).map(\.name) == all)
        #expect(second.nextPageToken.isEmpty)
    }

    @Test("a consumer token for it names it")
    func consumerTokenNamesIt() {
        #expect(AccessPolicy.tripID(in: "providers/p/trips/\(Self.tripID)", method: .getTrip) == Self.tripID)
        #expect(
            AccessPolicy.tripID(in: "providers/p/billableTrips/\(Self.tripID)", method: .reportBillableTrip)
                == Self.tripID)
        #expect(TripName.lastSegment(of: "providers/p/trips/\(Self.tripID)") == Self.tripID)
        #expect(TripName.lastSegment(of: "no-slash") == "no-slash")
    }
}
