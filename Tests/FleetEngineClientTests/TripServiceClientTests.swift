import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import NIOCore
import Testing

@Suite("Every TripService method against the emulator, over loopback")
struct TripServiceClientTests {
    @Test("create, get, update, search, report and delete a trip: each call returns what the server holds")
    func everyMethod() async throws {
        try await withEmulatorAndClient { emulator, client in
            let created = try await client.createTrip(Fixtures.create("trip-1", vehicleID: "vehicle-1"))
            #expect(created.name == Fixtures.name("trip-1"))
            #expect(created.vehicleID == "vehicle-1")
            #expect(created.tripStatus == .new)

            let fetched = try await client.getTrip(named: Fixtures.name("trip-1"))
            #expect(fetched == created)

            var update = UpdateTripRequest()
            update.name = Fixtures.name("trip-1")
            var changes = Trip()
            changes.tripStatus = .enrouteToPickup
            changes.numberOfPassengers = 3
            update.trip = changes
            var mask = FieldMask()
            mask.paths = ["trip_status", "number_of_passengers"]
            update.updateMask = mask
            let updated = try await client.updateTrip(update)
            #expect(updated.tripStatus == .enrouteToPickup)
            #expect(updated.numberOfPassengers == 3)
            #expect(try await client.getTrip(named: Fixtures.name("trip-1")) == updated)

            var search = SearchTripsRequest()
            search.parent = "providers/\(Fixtures.provider)"
            search.vehicleID = "vehicle-1"
            var found: [Trip] = []
            for try await trip in client.searchTrips(search) { found.append(trip) }
            #expect(found == [updated])

            var report = ReportBillableTripRequest()
            report.name = BillableTripName(reporting: try TripName(parsing: Fixtures.name("trip-1"))).description
            #expect(report.name == Fixtures.billableName("trip-1"))
            report.countryCode = "US"
            try await client.reportBillableTrip(report)
            #expect(emulator.billingReports.map(\.name) == [Fixtures.billableName("trip-1")])

            // Fleet Engine deletes only trips that are not active.
            update.trip?.tripStatus = .canceled
            update.updateMask?.paths = ["trip_status"]
            _ = try await client.updateTrip(update)
            try await client.deleteTrip(named: Fixtures.name("trip-1"))
            let gone = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("trip-1")) }
            #expect(gone?.code == .notFound)
        }
    }

    @Test("search pages by itself: 7 trips in pages of 2 come back in order, each once", arguments: [1, 2, 3, 7, 10])
    func searchPagesByItself(pageSize: Int32) async throws {
        try await withEmulatorAndClient { _, client in
            var expected: [String] = []
            for index in 1...7 {
                let trip = try await client.createTrip(Fixtures.create("trip-\(index)", vehicleID: "vehicle-9"))
                expected.append(trip.name)
            }
            _ = try await client.createTrip(Fixtures.create("other", vehicleID: "vehicle-8"))
            var search = SearchTripsRequest()
            search.parent = "providers/\(Fixtures.provider)"
            search.vehicleID = "vehicle-9"
            search.pageSize = pageSize
            var names: [String] = []
            for try await trip in client.searchTrips(search) { names.append(trip.name) }
            #expect(names.sorted() == expected.sorted())
            #expect(Set(names).count == names.count)
        }
    }

    @Test(
        "a malformed trip name is refused with INVALID_ARGUMENT and a BadRequest before any network traffic",
        arguments: [
            "", "trip-1", "providers/test-project/trips/", "providers//trips/a", "providers/p/vehicles/v",
            "providers/p/trips/a/b", "providers/p/trips/a?b",
        ])
    func malformedNameRefusedLocally(name: String) async throws {
        // Every call the emulator receives fails with UNAVAILABLE: an INVALID_ARGUMENT can only be local.
        var emulatorConfiguration = EmulatorConfiguration(accessPolicy: .noAuth)
        emulatorConfiguration.faults.failEvery = 1
        try await withEmulatorAndClient(emulatorConfiguration, configure: { $0.retryPolicy = .none }) { _, client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: name) })
            #expect(error.code == .invalidArgument)
            #expect(error.origin == .local)
            guard case .badRequest(let badRequest) = error.details.first else {
                Issue.record("no BadRequest detail: \(error.details)")
                return
            }
            #expect(badRequest.fieldViolations.map(\.field) == ["name"])
        }
    }

    @Test(
        "ReportBillableTrip refuses a name not of the form providers/{provider}/billableTrips/{id} before any traffic",
        arguments: [
            (
                "providers/test-project/trips/trip-1",
                "\"providers/test-project/trips/trip-1\" is not a billable trip name of the form "
                    + "providers/{provider}/billableTrips/{billable_trip}"
            ),
            ("providers/test-project/billableTrips/", "the billable trip id is empty"),
            ("providers//billableTrips/trip-1", "the provider id is empty"),
        ])
    func reportBillableTripNameRefusedLocally(name: String, message: String) async throws {
        // Every call the emulator receives fails with UNAVAILABLE: an INVALID_ARGUMENT can only be local.
        var emulatorConfiguration = EmulatorConfiguration(accessPolicy: .noAuth)
        emulatorConfiguration.faults.failEvery = 1
        let tokens = CountingTokenProvider(token: "unused")
        try await withEmulatorAndClient(
            emulatorConfiguration, tokenProvider: tokens, configure: { $0.retryPolicy = .none }
        ) { emulator, client in
            var report = ReportBillableTripRequest()
            report.name = name
            report.countryCode = "US"
            let error = try #require(await fleetEngineError { try await client.reportBillableTrip(report) })
            #expect(error.code == .invalidArgument)
            #expect(error.origin == .local)
            #expect(error.message == message)
            guard case .badRequest(let badRequest) = error.details.first else {
                Issue.record("no BadRequest detail: \(error.details)")
                return
            }
            #expect(badRequest.fieldViolations.map(\.field) == ["name"])
            #expect(tokens.requests.isEmpty)
            #expect(emulator.billingReports.isEmpty)
        }
    }

    @Test("ReportBillableTrip asks for a token for its provider and its billable trip id")
    func reportBillableTripTokenRequest() async throws {
        let tokens = CountingTokenProvider(token: "unused")
        try await withEmulatorAndClient(tokenProvider: tokens) { emulator, client in
            // Made without the client, whose cache would otherwise hand CreateTrip's token on.
            _ = try emulator.service.createTrip(Fixtures.create("billed"))
            var report = ReportBillableTripRequest()
            report.name = Fixtures.billableName("billed")
            report.countryCode = "US"
            try await client.reportBillableTrip(report)
            #expect(emulator.billingReports == [report])
            let asked = tokens.requests.filter { $0.method == .reportBillableTrip }
            #expect(
                asked == [TokenRequest(method: .reportBillableTrip, providerID: Fixtures.provider, tripID: "billed")])
        }
    }

    @Test("many concurrent calls share one client and all succeed")
    func concurrentCalls() async throws {
        try await withEmulatorAndClient { _, client in
            _ = try await client.createTrip(Fixtures.create("shared"))
            try await withThrowingTaskGroup(of: Trip.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await client.getTrip(named: Fixtures.name("shared")) }
                }
                var count = 0
                for try await trip in group {
                    #expect(trip.name == Fixtures.name("shared"))
                    count += 1
                }
                #expect(count == 200)
            }
        }
    }

    @Test("callers that prefer the client's task executor run on its event loop, before and after each call")
    func callersOnTheClientsExecutor() async throws {
        try await withEmulatorAndClient { _, client in
            _ = try await client.createTrip(Fixtures.create("on-loop"))
            let onLoop = try await withThrowingTaskGroup(of: [Bool].self) { group in
                for _ in 0..<16 {
                    group.addTask(executorPreference: client.taskExecutor) {
                        var seen = [client.eventLoop.inEventLoop]
                        for _ in 0..<5 {
                            let trip = try await client.getTrip(named: Fixtures.name("on-loop"))
                            #expect(trip.name == Fixtures.name("on-loop"))
                            seen.append(client.eventLoop.inEventLoop)
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0 += $1 }
            }
            #expect(onLoop.count == 16 * 6)
            #expect(onLoop.allSatisfy { $0 })
        }
    }
}
