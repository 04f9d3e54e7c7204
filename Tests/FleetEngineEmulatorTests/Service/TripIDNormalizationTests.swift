import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("Trip ids in Unicode Normalization Form C, as Fleet Engine requires")
struct TripIDNormalizationTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    static let decomposedMessage =
        "the trip id \"cafe\u{301}\" (U+63 U+61 U+66 U+65 U+301) is not in Unicode Normalization Form C, "
        + "as Fleet Engine requires"

    @Test("a decomposed id is refused at CreateTrip, not taken for the composed trip already there")
    func createRefusesDecomposed() throws {
        let harness = ServiceHarness()
        let created = try harness.createTrip(Self.composed)
        #expect(created.name == ServiceFixtures.name(Self.composed))
        let error = try #require(fleetEngineError { try harness.createTrip(Self.decomposed) })
        #expect(error.code == .invalidArgument)
        #expect(error.message == Self.decomposedMessage)
        #expect(ServiceFixtures.badRequestField(error) == "trip_id")
    }

    @Test("GetTrip, UpdateTrip and DeleteTrip of a decomposed name are refused, not answered with another trip")
    func readsAndWritesRefuseDecomposed() throws {
        let harness = ServiceHarness()
        _ = try harness.createTrip(Self.composed)
        let name = ServiceFixtures.name(Self.decomposed)
        var delete = DeleteTripRequest()
        delete.name = name
        var status = Trip()
        status.tripStatus = .canceled
        let errors = [
            fleetEngineError { try harness.get(name) },
            fleetEngineError { try harness.update(name, ["trip_status"], status) },
            fleetEngineError { try harness.service.deleteTrip(delete) },
        ]
        for error in errors {
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == Self.decomposedMessage)
        }
        #expect(try harness.get(ServiceFixtures.name(Self.composed)).tripStatus == .new)
    }

    @Test("ReportBillableTrip refuses a decomposed billable trip id")
    func billableRefusesDecomposed() throws {
        let harness = ServiceHarness()
        _ = try harness.createTrip(Self.composed)
        var request = ReportBillableTripServiceTests.report(Self.decomposed, country: "FR")
        let error = try #require(fleetEngineError { try harness.service.reportBillableTrip(request) })
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix("the billable trip id \"cafe\u{301}\""))
        request = ReportBillableTripServiceTests.report(Self.composed, country: "FR")
        _ = try harness.service.reportBillableTrip(request)
    }

    @Test("ids in NFC pass: ASCII, composed letters, and a combining mark with nothing to compose with")
    func normalizedIDsPass() throws {
        let harness = ServiceHarness()
        for id in ["trip-1", "\u{FC}ber-fahrt", "\u{301}abc", "\u{1D6D1}"] {
            #expect(try harness.createTrip(id).name == ServiceFixtures.name(id))
        }
    }
}
