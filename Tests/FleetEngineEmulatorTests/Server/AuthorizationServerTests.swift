import FleetEngineAuth
import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import Testing

@testable import FleetEngineEmulator

@Suite("Authorization over gRPC: HS256 tokens, roles and malformed names")
struct AuthorizationServerTests {
    /// A test-only HS256 secret, at least 32 bytes as RFC 7518 section 3.2 asks.
    static let secret = "emulator-server-tests-hs256-secret-0123456789"
    static let otherSecret = "a-different-secret-that-the-emulator-does-not-know"

    /// The emulator's clock, which the tokens are minted on too, so every time check is exact.
    static func clock() -> ManualTimeSource { ManualTimeSource(start: ServiceHarness.time(0)) }

    static func configuration(clock: ManualTimeSource) throws -> EmulatorConfiguration {
        let verifier = TokenVerifier(keys: [try .hs256(secret: secret)], clock: clock)
        return EmulatorConfiguration(accessPolicy: .verify(verifier))
    }

    static func bearer(_ role: TokenRole, secret: String = secret, clock: ManualTimeSource) throws -> String {
        "Bearer " + (try TokenMinter(signingKey: .hs256(secret: secret), clock: clock).mint(role))
    }

    /// Runs `body` against an emulator that verifies tokens and holds `trip-1` and `trip-2`.
    static func withAuthorizingEmulator(
        _ body: @Sendable (FleetEngineEmulator, TripServiceClient, ManualTimeSource) async throws -> Void
    ) async throws {
        let clock = Self.clock()
        try await withEmulatorAndClient(try configuration(clock: clock), time: clock) { emulator, client in
            for id in ["trip-1", "trip-2"] {
                _ = try emulator.service.createTrip(
                    ServiceFixtures.createRequest(tripID: id, trip: ServiceFixtures.tripToCreate()))
            }
            try await body(emulator, client, clock)
        }
    }

    static func errorInfo(_ error: FleetEngineError?) -> ErrorInfo? {
        guard let first = error?.details.first, case .errorInfo(let info) = first else { return nil }
        return info
    }

    @Test("a call without a token is UNAUTHENTICATED with ErrorInfo MISSING_TOKEN naming the method")
    func missingTokenIsUnauthenticated() async throws {
        try await Self.withAuthorizingEmulator { _, client, _ in
            var request = GetTripRequest()
            request.name = ServiceFixtures.name("trip-1")
            let error = await client.failure(.getTrip, request, returning: Trip.self)
            #expect(error?.code == .unauthenticated)
            let info = try #require(Self.errorInfo(error))
            #expect(info.reason == "MISSING_TOKEN")
            #expect(info.domain == "fleetengine.googleapis.com")
            #expect(info.metadata["method"] == "maps.fleetengine.v1.TripService.GetTrip")
            #expect(info.metadata["service"] == "fleetengine.googleapis.com")
        }
    }

    @Test("a token signed with another secret is UNAUTHENTICATED INVALID_SIGNATURE")
    func foreignSignatureIsUnauthenticated() async throws {
        try await Self.withAuthorizingEmulator { _, client, clock in
            let token = try Self.bearer(.server, secret: Self.otherSecret, clock: clock)
            let error = await client.failure(
                .getTrip, Self.get("trip-1"), returning: Trip.self, authorization: token)
            #expect(error?.code == .unauthenticated)
            #expect(Self.errorInfo(error)?.reason == "INVALID_SIGNATURE")
        }
    }

    @Test("a server token may call all six methods")
    func serverTokenMayCallEverything() async throws {
        try await Self.withAuthorizingEmulator { emulator, client, clock in
            let token = try Self.bearer(.server, clock: clock)
            let created: Trip = try await client.call(
                .createTrip, ServiceFixtures.createRequest(tripID: "trip-3", trip: ServiceFixtures.tripToCreate()),
                authorization: token)
            #expect(created.name == ServiceFixtures.name("trip-3"))
            let fetched: Trip = try await client.call(.getTrip, Self.get("trip-3"), authorization: token)
            #expect(fetched == created)
            var update = UpdateTripRequest()
            update.name = created.name
            var change = Trip()
            change.numberOfPassengers = 3
            update.trip = change
            var mask = FieldMask()
            mask.paths = ["number_of_passengers"]
            update.updateMask = mask
            let updated: Trip = try await client.call(.updateTrip, update, authorization: token)
            #expect(updated.numberOfPassengers == 3)
            let found: SearchTripsResponse = try await client.call(
                .searchTrips, SearchTripsServiceTests.request(), authorization: token)
            #expect(found.trips.map(\.name) == ["trip-1", "trip-2", "trip-3"].map { ServiceFixtures.name($0) })
            let report = ReportBillableTripServiceTests.report("trip-3", country: "CA")
            let _: Empty = try await client.call(.reportBillableTrip, report, authorization: token)
            #expect(emulator.billingReports == [report])
            var delete = DeleteTripRequest()
            delete.name = created.name
            let _: Empty = try await client.call(.deleteTrip, delete, authorization: token)
        }
    }

    static func get(_ tripID: String) -> GetTripRequest {
        var request = GetTripRequest()
        request.name = ServiceFixtures.name(tripID)
        return request
    }

    @Test("a consumer token reads its own trip")
    func consumerReadsOwnTrip() async throws {
        try await Self.withAuthorizingEmulator { emulator, client, clock in
            let token = try Self.bearer(.consumer(tripID: "trip-1"), clock: clock)
            let trip: Trip = try await client.call(.getTrip, Self.get("trip-1"), authorization: token)
            #expect(trip == (try emulator.service.getTrip(Self.get("trip-1"))))
        }
    }

    @Test("a consumer token for another trip is PERMISSION_DENIED TRIP_ID_MISMATCH")
    func consumerTokenForAnotherTripIsDenied() async throws {
        try await Self.withAuthorizingEmulator { _, client, clock in
            let token = try Self.bearer(.consumer(tripID: "trip-1"), clock: clock)
            let error = await client.failure(.getTrip, Self.get("trip-2"), returning: Trip.self, authorization: token)
            #expect(error?.code == .permissionDenied)
            let info = try #require(Self.errorInfo(error))
            #expect(info.reason == "TRIP_ID_MISMATCH")
            #expect(info.metadata["tokenTripId"] == "trip-1")
            #expect(info.metadata["trip"] == ServiceFixtures.name("trip-2"))
        }
    }

    @Test(
        "a consumer token may not write, nor search: PERMISSION_DENIED",
        arguments: [
            (TripServiceMethod.createTrip, "CONSUMER_ROLE_WRITE"),
            (.updateTrip, "CONSUMER_ROLE_WRITE"),
            (.deleteTrip, "CONSUMER_ROLE_WRITE"),
            (.reportBillableTrip, "CONSUMER_ROLE_WRITE"),
            (.searchTrips, "CONSUMER_ROLE_SEARCH"),
        ])
    func consumerWritesAreDenied(method: TripServiceMethod, reason: String) async throws {
        try await Self.withAuthorizingEmulator { emulator, client, clock in
            let before = try emulator.service.getTrip(Self.get("trip-1"))
            let token = try Self.bearer(.consumer(tripID: "trip-1"), clock: clock)
            let error = await Self.send(method, on: "trip-1", client: client, authorization: token)
            #expect(error?.code == .permissionDenied)
            #expect(Self.errorInfo(error)?.reason == reason)
            #expect(Self.errorInfo(error)?.metadata["method"] == method.fullName)
            #expect(try emulator.service.getTrip(Self.get("trip-1")) == before)
            #expect(emulator.billingReports == [])
        }
    }

    /// Sends a well-formed request of `method` about `tripID`.
    static func send(
        _ method: TripServiceMethod,
        on tripID: String,
        client: TripServiceClient,
        authorization: String?
    ) async -> FleetEngineError? {
        let name =
            tripID.contains("/")
            ? tripID
            : method == .reportBillableTrip ? ServiceFixtures.billableName(tripID) : ServiceFixtures.name(tripID)
        switch method {
        case .createTrip:
            var request = ServiceFixtures.createRequest(tripID: "", trip: ServiceFixtures.tripToCreate())
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            request.parent = parts.prefix(2).joined(separator: "/")
            request.tripID = parts.dropFirst(3).joined(separator: "/")
            return await client.failure(method, request, returning: Trip.self, authorization: authorization)
        case .getTrip:
            var request = GetTripRequest()
            request.name = name
            return await client.failure(method, request, returning: Trip.self, authorization: authorization)
        case .updateTrip:
            var request = UpdateTripRequest()
            request.name = name
            request.trip = Trip()
            var mask = FieldMask()
            mask.paths = ["vehicle_id"]
            request.updateMask = mask
            return await client.failure(method, request, returning: Trip.self, authorization: authorization)
        case .searchTrips:
            return await client.failure(
                method, SearchTripsServiceTests.request(), returning: SearchTripsResponse.self,
                authorization: authorization)
        case .deleteTrip:
            var request = DeleteTripRequest()
            request.name = name
            return await client.failure(method, request, returning: Empty.self, authorization: authorization)
        case .reportBillableTrip:
            var request = ReportBillableTripRequest()
            request.name = name
            request.countryCode = "US"
            return await client.failure(method, request, returning: Empty.self, authorization: authorization)
        }
    }

    @Test(
        "a malformed name with a valid token is INVALID_ARGUMENT on the name",
        arguments: [
            (TripServiceMethod.getTrip, "name"), (.updateTrip, "name"), (.deleteTrip, "name"),
            (.reportBillableTrip, "name"), (.createTrip, "trip_id"),
        ])
    func malformedNameWithTokenIsInvalidArgument(method: TripServiceMethod, field: String) async throws {
        try await Self.withAuthorizingEmulator { _, client, clock in
            let token = try Self.bearer(.server, clock: clock)
            let error = await Self.send(
                method, on: "providers/test-project/trips/a:b", client: client, authorization: token)
            #expect(error?.code == .invalidArgument)
            #expect(error.flatMap(ServiceFixtures.badRequestField) == field)
        }
    }

    @Test(
        "a malformed name without a token is UNAUTHENTICATED: the caller learns nothing about the request",
        arguments: [TripServiceMethod.getTrip, .updateTrip, .deleteTrip, .reportBillableTrip, .createTrip])
    func malformedNameWithoutTokenIsUnauthenticated(method: TripServiceMethod) async throws {
        try await Self.withAuthorizingEmulator { _, client, _ in
            let error = await Self.send(
                method, on: "providers/test-project/trips/a:b", client: client, authorization: nil)
            #expect(error?.code == .unauthenticated)
            #expect(Self.errorInfo(error)?.reason == "MISSING_TOKEN")
        }
    }

    @Test(
        "ReportBillableTrip of a trip name with a server token is INVALID_ARGUMENT naming the billableTrips form"
    )
    func reportOfTripNameIsInvalidArgument() async throws {
        try await Self.withAuthorizingEmulator { emulator, client, clock in
            let token = try Self.bearer(.server, clock: clock)
            let error = await Self.send(
                .reportBillableTrip, on: ServiceFixtures.name("trip-1"), client: client, authorization: token)
            #expect(error?.code == .invalidArgument)
            #expect(
                error?.message
                    == "\"providers/test-project/trips/trip-1\" is not a billable trip name of the form "
                    + "providers/{provider}/billableTrips/{billable_trip}")
            #expect(error.flatMap(ServiceFixtures.badRequestField) == "name")
            #expect(emulator.billingReports == [])
        }
    }

    @Test("ReportBillableTrip of a billable trip name is UNAUTHENTICATED without a token, recorded with a server token")
    func reportOfBillableNameNeedsAToken() async throws {
        try await Self.withAuthorizingEmulator { emulator, client, clock in
            let unauthenticated = await Self.send(
                .reportBillableTrip, on: "trip-2", client: client, authorization: nil)
            #expect(unauthenticated?.code == .unauthenticated)
            #expect(Self.errorInfo(unauthenticated)?.reason == "MISSING_TOKEN")
            #expect(emulator.billingReports == [])

            var report = ReportBillableTripRequest()
            report.name = ServiceFixtures.billableName("trip-2")
            report.countryCode = "US"
            let _: Empty = try await client.call(
                .reportBillableTrip, report, authorization: try Self.bearer(.server, clock: clock))
            #expect(emulator.billingReports == [report])
        }
    }

    @Test("a consumer token's malformed name is INVALID_ARGUMENT, checked before the trip id")
    func consumerMalformedNameIsInvalidArgument() async throws {
        try await Self.withAuthorizingEmulator { _, client, clock in
            let token = try Self.bearer(.consumer(tripID: "trip-1"), clock: clock)
            let error = await Self.send(
                .getTrip, on: "providers/test-project/trip/trip-1", client: client, authorization: token)
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test("a token that expired while the emulator ran is UNAUTHENTICATED TOKEN_EXPIRED")
    func expiredTokenIsUnauthenticated() async throws {
        try await Self.withAuthorizingEmulator { _, client, clock in
            let token = try Self.bearer(.consumer(tripID: "trip-1"), clock: clock)
            let _: Trip = try await client.call(.getTrip, Self.get("trip-1"), authorization: token)
            // One hour of lifetime and 30 seconds of leeway later.
            clock.advance(by: .seconds(3_631))
            let error = await client.failure(.getTrip, Self.get("trip-1"), returning: Trip.self, authorization: token)
            #expect(error?.code == .unauthenticated)
            #expect(Self.errorInfo(error)?.reason == "TOKEN_EXPIRED")
        }
    }
}
