import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

@Suite("Trip names: providers/{provider_id}/trips/{trip_id}, checked on every method")
struct TripNameServiceTests {
    static let goodNames = [
        "providers/test-project/trips/trip-1",
        "providers/p/trips/x",
        "providers/my_project.eu-1/trips/ABC_def-123",
        "providers/test-project/trips/über-fahrt-𝛑",
        "providers/test-project/trips/with space and \\ backslash",
        "providers/test-project/trips/" + String(repeating: "t", count: 64),
        "providers/test-project/trips/" + String(repeating: "é", count: 64),
        "providers/" + String(repeating: "p", count: 63) + "/trips/~!$&'()*+;=@[]{}|^`\"<>%\\",
        "providers/test-project/trips/\u{301}x",
    ]

    static let badNames = [
        "",
        "trip-1",
        "providers/test-project",
        "providers/test-project/trips",
        "providers/test-project/trips/",
        "providers//trips/trip-1",
        "providers/test-project/vehicles/trip-1",
        "provider/test-project/trips/trip-1",
        "Providers/test-project/trips/trip-1",
        "/providers/test-project/trips/trip-1",
        "providers/test-project/trips/trip-1/",
        "providers/test-project/trips/a/b",
        "providers/test project/trips/trip-1",
        "providers/tést/trips/trip-1",
        "providers/test-project/trips/a:b",
        "providers/test-project/trips/a?b",
        "providers/test-project/trips/a#b",
        "providers/test-project/trips/a,b",
        "providers/test-project/trips/a" + String(repeating: "\u{301}", count: 64),
        "providers/test-project/trips/a\u{7}b",
        "providers/test-project/trips/" + String(repeating: "t", count: 65),
        "providers/" + String(repeating: "p", count: 64) + "/trips/trip-1",
        "providers/test-project/trips/a\u{7F}b",
        "providers/test-project/trips/a\tb",
        "providers/test-project/trips/a\r\nb",
        "providers/test-project/trips/trip-1\u{0}",
        "providers/test-project/trips//",
        "providers/test-project/trips/x/\u{301}",
        "providers/test-project/trips/x#\u{301}",
        "providers/test-project/trips/x:\u{308}y",
    ]

    @Test("a well-formed name of no trip is NOT_FOUND, not INVALID_ARGUMENT", arguments: goodNames)
    func goodNameIsLookedUp(_ name: String) throws {
        let harness = ServiceHarness()
        let error = try #require(fleetEngineError { try harness.get(name) })
        #expect(error.code == .notFound)
        let parsed = try TripName(parsing: name)
        #expect(parsed.description == name)
        #expect(!parsed.providerID.unicodeScalars.contains("/") && !parsed.tripID.unicodeScalars.contains("/"))
    }

    @Test("a well-formed name can be created and read back", arguments: goodNames)
    func goodNameRoundTrips(_ name: String) throws {
        let harness = ServiceHarness()
        let parsed = try TripName(parsing: name)
        let created = try harness.createTrip(parsed.tripID, provider: parsed.providerID)
        #expect(created.name == name)
        #expect(try harness.get(name).name == name)
    }

    @Test("a malformed name is INVALID_ARGUMENT with a BadRequest violation of field name", arguments: badNames)
    func badNameIsInvalidArgument(_ name: String) throws {
        let harness = ServiceHarness()
        let error = try #require(fleetEngineError { try harness.get(name) })
        #expect(error.code == .invalidArgument)
        #expect(ServiceFixtures.badRequestField(error) == "name")
    }

    @Test("every method that takes a name refuses a malformed one with field name", arguments: badNames.prefix(6))
    func everyMethodChecksTheName(_ name: String) throws {
        let harness = ServiceHarness()
        var update = UpdateTripRequest()
        update.name = name
        update.trip = Trip()
        update.updateMask = FieldMask()
        var delete = DeleteTripRequest()
        delete.name = name
        var report = ReportBillableTripRequest()
        report.name = name
        report.countryCode = "US"
        let errors = [
            fleetEngineError { try harness.service.updateTrip(update) },
            fleetEngineError { try harness.service.deleteTrip(delete) },
            fleetEngineError { try harness.service.reportBillableTrip(report) },
        ]
        for error in errors {
            #expect(error?.code == .invalidArgument)
            #expect(error.flatMap(ServiceFixtures.badRequestField) == "name")
        }
    }

    @Test("the message says what is wrong with the name")
    func messageExplainsTheProblem() {
        let cases: [(String, String)] = [
            ("trips/x", "\"trips/x\" is not a trip name of the form providers/{provider_id}/trips/{trip_id}"),
            ("providers//trips/x", "the provider id is empty"),
            ("providers/p/trips/", "the trip id is empty"),
            ("providers/p/trips/a#b", "the trip id contains \"#\", which is not allowed"),
            ("providers/p/trips/" + String(repeating: "x", count: 65), "the trip id is longer than 64 characters"),
        ]
        for (name, message) in cases {
            #expect(fleetEngineError { try TripName(parsing: name) }?.message == message)
        }
    }
}
