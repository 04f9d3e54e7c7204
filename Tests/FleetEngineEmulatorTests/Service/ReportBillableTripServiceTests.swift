import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("ReportBillableTrip: recorded for an existing trip")
struct ReportBillableTripServiceTests {
    static func report(_ tripID: String, country: String) -> ReportBillableTripRequest {
        var request = ReportBillableTripRequest()
        request.name = ServiceFixtures.name(tripID)
        request.countryCode = country
        request.platform = .ios
        request.relatedIDs = ["related-1"]
        request.solutionType = .onDemandRidesharingAndDeliveries
        return request
    }

    @Test("reports are recorded whole and in order")
    func reportsAreRecorded() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        try harness.createTrip("trip-2")
        let first = Self.report("trip-1", country: "US")
        let second = Self.report("trip-2", country: "DE")
        #expect(try harness.service.reportBillableTrip(first) == Empty())
        #expect(try harness.service.reportBillableTrip(second) == Empty())
        #expect(try harness.service.reportBillableTrip(first) == Empty())
        #expect(harness.store.billingReports == [first, second, first])
    }

    @Test("a report without a country code is INVALID_ARGUMENT on country_code, and not recorded")
    func countryCodeIsRequired() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        let error = try #require(
            fleetEngineError { try harness.service.reportBillableTrip(Self.report("trip-1", country: "")) })
        #expect(error.code == .invalidArgument)
        #expect(error.message == "country_code is required")
        #expect(ServiceFixtures.badRequestField(error) == "country_code")
        #expect(harness.store.billingReports == [])
    }

    @Test("more than 50 related_ids is INVALID_ARGUMENT on related_ids, and not recorded; 50 are taken")
    func relatedIDsAreLimited() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        var report = Self.report("trip-1", country: "US")
        report.relatedIDs = (1...51).map { "related-\($0)" }
        let error = try #require(fleetEngineError { try harness.service.reportBillableTrip(report) })
        #expect(error.code == .invalidArgument)
        #expect(error.message == "related_ids has 51 ids; at most 50 are allowed")
        #expect(ServiceFixtures.badRequestField(error) == "related_ids")
        #expect(harness.store.billingReports == [])

        report.relatedIDs.removeLast()
        #expect(try harness.service.reportBillableTrip(report) == Empty())
        #expect(harness.store.billingReports == [report])
    }

    @Test("a report for a trip that does not exist is NOT_FOUND, and not recorded")
    func unknownTripIsNotFound() throws {
        let harness = ServiceHarness()
        let error = try #require(
            fleetEngineError { try harness.service.reportBillableTrip(Self.report("ghost", country: "US")) })
        #expect(error.code == .notFound)
        #expect(ServiceFixtures.errorInfoReason(error) == "TRIP_NOT_FOUND")
        #expect(harness.store.billingReports == [])
    }

    @Test("the emulator exposes the reports as billingReports")
    func emulatorExposesReports() throws {
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth))
        _ = try emulator.service.createTrip(
            ServiceFixtures.createRequest(tripID: "trip-1", trip: ServiceFixtures.tripToCreate()))
        let report = Self.report("trip-1", country: "JP")
        _ = try emulator.service.reportBillableTrip(report)
        #expect(emulator.billingReports == [report])
    }
}
