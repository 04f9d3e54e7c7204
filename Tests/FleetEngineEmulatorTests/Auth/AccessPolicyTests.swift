import FleetEngineAuth
import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import FleetEngineTestSupport
import GRPCCore
import Testing

@testable import FleetEngineEmulator

/// Fleet Engine's role rules: which token may call which method on which trip.
@Suite("Access policy")
struct AccessPolicyTests {
    enum Token: String, Sendable {
        case consumerTrip1, server, serverTripOnly
    }

    struct Call: Sendable, CustomTestStringConvertible {
        var token: Token
        var method: TripServiceMethod
        var tripNames: [String]
        /// nil when the call is allowed; otherwise the `ErrorInfo` reason of PERMISSION_DENIED.
        var deniedReason: String?

        var testDescription: String {
            "\(token) \(method.name) \(tripNames) → \(deniedReason ?? "allowed")"
        }
    }

    static let trip1 = "providers/test-project/trips/trip-1"
    static let trip2 = "providers/test-project/trips/trip-2"
    static let billable1 = "providers/test-project/billableTrips/trip-1"
    static let billable2 = "providers/test-project/billableTrips/trip-2"

    static let calls: [Call] = [
        // A consumer token reads its own trip, and only that.
        Call(token: .consumerTrip1, method: .getTrip, tripNames: [trip1], deniedReason: nil),
        Call(token: .consumerTrip1, method: .getTrip, tripNames: [trip2], deniedReason: "TRIP_ID_MISMATCH"),
        Call(token: .consumerTrip1, method: .getTrip, tripNames: [], deniedReason: "TRIP_ID_MISMATCH"),
        Call(token: .consumerTrip1, method: .getTrip, tripNames: [trip1, trip2], deniedReason: "TRIP_ID_MISMATCH"),
        Call(token: .consumerTrip1, method: .getTrip, tripNames: ["trip-1"], deniedReason: "TRIP_ID_MISMATCH"),
        Call(
            token: .consumerTrip1, method: .getTrip, tripNames: ["providers/p/vehicles/trip-1"],
            deniedReason: "TRIP_ID_MISMATCH"),
        Call(
            token: .consumerTrip1, method: .getTrip, tripNames: ["providers/other-project/trips/trip-1"],
            deniedReason: nil),
        // It may write nothing, not even its own trip, and may not search.
        Call(token: .consumerTrip1, method: .createTrip, tripNames: [trip1], deniedReason: "CONSUMER_ROLE_WRITE"),
        Call(token: .consumerTrip1, method: .updateTrip, tripNames: [trip1], deniedReason: "CONSUMER_ROLE_WRITE"),
        Call(token: .consumerTrip1, method: .deleteTrip, tripNames: [trip1], deniedReason: "CONSUMER_ROLE_WRITE"),
        Call(
            token: .consumerTrip1, method: .reportBillableTrip, tripNames: [billable1],
            deniedReason: "CONSUMER_ROLE_WRITE"),
        Call(token: .consumerTrip1, method: .searchTrips, tripNames: [], deniedReason: "CONSUMER_ROLE_SEARCH"),
        // A server token may do everything.
        Call(token: .server, method: .createTrip, tripNames: [trip2], deniedReason: nil),
        Call(token: .server, method: .getTrip, tripNames: [trip1], deniedReason: nil),
        Call(token: .server, method: .updateTrip, tripNames: [trip2], deniedReason: nil),
        Call(token: .server, method: .searchTrips, tripNames: [], deniedReason: nil),
        Call(token: .server, method: .deleteTrip, tripNames: [trip1], deniedReason: nil),
        Call(token: .server, method: .reportBillableTrip, tripNames: [billable1, billable2], deniedReason: nil),
        Call(token: .serverTripOnly, method: .updateTrip, tripNames: [trip1], deniedReason: nil),
    ]

    @Test("ReportBillableTrip's trip id is the billable trip id of providers/{provider}/billableTrips/{billable_trip}")
    func billableNameNamesItsTrip() {
        #expect(AccessPolicy.tripID(in: Self.billable1, method: .reportBillableTrip) == "trip-1")
        #expect(AccessPolicy.tripID(in: Self.trip1, method: .reportBillableTrip) == nil)
        #expect(AccessPolicy.tripID(in: Self.billable1, method: .getTrip) == nil)
        #expect(AccessPolicy.tripID(in: Self.trip1, method: .getTrip) == "trip-1")
    }

    /// A test-only secret: the tokens here need a verifier, not any particular key.
    static let secret = "access-policy-tests-secret-of-32-bytes"
    /// 2026-01-01T00:00:00Z, when the tokens are minted and checked.
    static let clock = ManualTimeSource(start: Timestamp(seconds: 1_767_225_600, nanos: 0))

    static func verifier() throws -> TokenVerifier {
        TokenVerifier(keys: [try .hs256(secret: secret)], clock: clock)
    }

    private func header(for token: Token) throws -> String {
        let minter = TokenMinter(signingKey: try .hs256(secret: Self.secret), clock: Self.clock)
        switch token {
        case .consumerTrip1: return "Bearer " + (try minter.mint(.consumer(tripID: "trip-1")))
        case .server: return "Bearer " + (try minter.mint(.server))
        case .serverTripOnly:
            var claims = try minter.claims(for: .server)
            claims.vehicleID = nil
            return "Bearer " + (try minter.sign(claims))
        }
    }

    @Test("a verified token may make exactly the calls its role allows", arguments: calls)
    func roleRules(_ call: Call) throws {
        let policy = AccessPolicy.verify(try Self.verifier())
        let header = try header(for: call.token)
        guard let reason = call.deniedReason else {
            let claims = try policy.authorize(method: call.method, tripNames: call.tripNames, authorization: header)
            #expect(claims?.tripID == (call.token == .consumerTrip1 ? "trip-1" : "*"))
            return
        }
        let error = try #require(throws: FleetEngineError.self) {
            try policy.authorize(method: call.method, tripNames: call.tripNames, authorization: header)
        }
        #expect(error.code == .permissionDenied)
        let info = try #require(error.authErrorInfo)
        #expect(info.reason == reason)
        #expect(info.domain == "fleetengine.googleapis.com")
        #expect(info.metadata["method"] == "maps.fleetengine.v1.TripService.\(call.method.name)")
        #expect(!error.message.contains(header.dropFirst(7).split(separator: ".")[2]))
    }

    @Test("a refused token is UNAUTHENTICATED whatever the method, with the method in the ErrorInfo")
    func unauthenticatedBeforeRoles() throws {
        let policy = AccessPolicy.verify(try Self.verifier())
        for method in TripServiceMethod.allCases {
            let error = try #require(throws: FleetEngineError.self) {
                try policy.authorize(method: method, tripName: Self.trip1, authorization: nil)
            }
            #expect(error.code == .unauthenticated)
            #expect(error.authErrorInfo?.reason == "MISSING_TOKEN")
            #expect(error.authErrorInfo?.metadata["method"] == method.fullName)
        }
    }

    @Test("--no-auth allows every call, without a token or with garbage", arguments: TripServiceMethod.allCases)
    func noAuthAllowsEverything(_ method: TripServiceMethod) throws {
        let policy = AccessPolicy.noAuth
        #expect(!policy.requiresToken)
        #expect(policy.verifier == nil)
        #expect(try policy.authorize(method: method, tripName: Self.trip1, authorization: nil) == nil)
        #expect(try policy.authorize(method: method, tripName: nil, authorization: "Bearer x.y.z") == nil)
    }

    @Test("the single-trip form checks the named trip like the list form")
    func singleTripForm() throws {
        let policy = AccessPolicy.verify(try Self.verifier())
        let header = try header(for: .consumerTrip1)
        #expect(try policy.authorize(method: .getTrip, tripName: Self.trip1, authorization: header)?.tripID == "trip-1")
        #expect(throws: FleetEngineError(code: .permissionDenied, message: "")) {
            try policy.authorize(method: .getTrip, tripName: nil, authorization: header)
        }
    }

    @Test("the token is read from gRPC metadata's first authorization value")
    func readsMetadata() throws {
        let policy = AccessPolicy.verify(try Self.verifier())
        var metadata = Metadata()
        metadata.addString(try header(for: .consumerTrip1), forKey: "authorization")
        metadata.addString("Bearer second.value.ignored", forKey: "authorization")
        #expect(try policy.authorize(method: .getTrip, tripNames: [Self.trip1], metadata: metadata)?.tripID == "trip-1")
        let error = try #require(throws: FleetEngineError.self) {
            try policy.authorize(method: .getTrip, tripNames: [Self.trip1], metadata: [:])
        }
        #expect(error.authErrorInfo?.reason == "MISSING_TOKEN")
    }

    @Test(
        "each TripService method has its gRPC path and write flag",
        arguments: [
            (TripServiceMethod.createTrip, "/maps.fleetengine.v1.TripService/CreateTrip", true),
            (.getTrip, "/maps.fleetengine.v1.TripService/GetTrip", false),
            (.updateTrip, "/maps.fleetengine.v1.TripService/UpdateTrip", true),
            (.searchTrips, "/maps.fleetengine.v1.TripService/SearchTrips", false),
            (.deleteTrip, "/maps.fleetengine.v1.TripService/DeleteTrip", true),
            (.reportBillableTrip, "/maps.fleetengine.v1.TripService/ReportBillableTrip", true),
        ]
    )
    func methodPaths(_ method: TripServiceMethod, path: String, isWrite: Bool) {
        #expect(method.path == path)
        #expect(method.isWrite == isWrite)
        #expect(TripServiceMethod(path: path) == method)
    }

    @Test("a path of another service or method is no TripService method")
    func unknownPaths() {
        #expect(TripServiceMethod(path: "/maps.fleetengine.v1.VehicleService/GetVehicle") == nil)
        #expect(TripServiceMethod(path: "/maps.fleetengine.v1.TripService/ListTrips") == nil)
        #expect(TripServiceMethod(path: "maps.fleetengine.v1.TripService/GetTrip") == nil)
    }
}
