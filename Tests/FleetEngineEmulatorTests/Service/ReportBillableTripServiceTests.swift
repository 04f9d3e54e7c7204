import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("ReportBillableTrip: providers/{provider}/billableTrips/{trip_id}, recorded for an existing trip")
struct ReportBillableTripServiceTests {
    static func report(_ tripID: String, country: String) -> ReportBillableTripRequest {
        var request = ReportBillableTripRequest()
        request.name = ServiceFixtures.billableName(tripID)
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

    @Test("the documented name providers/{provider}/billableTrips/{billable_trip} reports the trip of that id")
    func billableNameIsRecorded() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        try harness.createTrip("\u{301}marked")
        let reports = [Self.report("trip-1", country: "US"), Self.report("\u{301}marked", country: "FR")]
        #expect(
            reports.map(\.name) == ["trip-1", "\u{301}marked"].map { "providers/test-project/billableTrips/\($0)" })
        for report in reports {
            #expect(try harness.service.reportBillableTrip(report) == Empty())
        }
        #expect(harness.store.billingReports == reports)
        let parsed = try BillableTripName(parsing: "providers/test-project/billableTrips/\u{301}marked")
        #expect(parsed.providerID == "test-project")
        #expect(parsed.billableTripID == "\u{301}marked")
        #expect(parsed.tripName == (try TripName(parsing: ServiceFixtures.name("\u{301}marked"))))
        #expect(BillableTripName(reporting: parsed.tripName) == parsed)
        #expect(parsed.description == "providers/test-project/billableTrips/\u{301}marked")
    }

    @Test("a trip name, providers/{provider}/trips/{trip_id}, is INVALID_ARGUMENT naming the form, and not recorded")
    func tripNameIsRefused() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        var report = Self.report("trip-1", country: "US")
        report.name = ServiceFixtures.name("trip-1")
        let error = try #require(fleetEngineError { try harness.service.reportBillableTrip(report) })
        #expect(error.code == .invalidArgument)
        #expect(
            error.message
                == "\"providers/test-project/trips/trip-1\" is not a billable trip name of the form "
                + "providers/{provider}/billableTrips/{billable_trip}")
        #expect(ServiceFixtures.badRequestField(error) == "name")
        #expect(harness.store.billingReports == [])
    }

    @Test("a malformed billable trip name is INVALID_ARGUMENT on name, by the rules of a trip name")
    func malformedBillableNameIsRefused() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        let form = "is not a billable trip name of the form providers/{provider}/billableTrips/{billable_trip}"
        let cases: [(String, String)] = [
            ("", "\"\" \(form)"),
            ("providers/test-project/billableTrips", "\"providers/test-project/billableTrips\" \(form)"),
            ("providers/test-project/billabletrips/trip-1", "\"providers/test-project/billabletrips/trip-1\" \(form)"),
            ("providers/test-project/billableTrips/a/b", "\"providers/test-project/billableTrips/a/b\" \(form)"),
            ("providers//billableTrips/trip-1", "the provider id is empty"),
            ("providers/tést/billableTrips/trip-1", "the provider id \"tést\" is not a project id"),
            ("providers/test-project/billableTrips/", "the billable trip id is empty"),
            ("providers/test-project/billableTrips/a#b", "the billable trip id contains \"#\", which is not allowed"),
            ("providers/test-project/billableTrips/a\u{7}b", "the billable trip id contains a control character"),
            (
                "providers/test-project/billableTrips/" + String(repeating: "t", count: 65),
                "the billable trip id is longer than 64 characters"
            ),
        ]
        for (name, message) in cases {
            var report = Self.report("trip-1", country: "US")
            report.name = name
            let error = fleetEngineError { try harness.service.reportBillableTrip(report) }
            #expect(error?.code == .invalidArgument, "\(name)")
            #expect(error?.message == message)
            #expect(error.flatMap(ServiceFixtures.badRequestField) == "name")
        }
        #expect(harness.store.billingReports == [])
    }

    @Test("a billable trip id of a trip another provider holds is NOT_FOUND")
    func otherProvidersTripIsNotFound() throws {
        let harness = ServiceHarness()
        try harness.createTrip("trip-1")
        var report = Self.report("trip-1", country: "US")
        report.name = ServiceFixtures.billableName("trip-1", provider: "other-project")
        let error = try #require(fleetEngineError { try harness.service.reportBillableTrip(report) })
        #expect(error.code == .notFound)
        #expect(error.message == "trip providers/other-project/trips/trip-1 not found")
        #expect(harness.store.billingReports == [])
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
