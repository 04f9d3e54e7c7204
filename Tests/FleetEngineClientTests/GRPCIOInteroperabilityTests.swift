import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

/// Our client against Python grpcio serving Google's own published types: the trips and the
/// errors (with their `grpc-status-details-bin` bytes) must come back exactly as that server
/// sent them, and the server must see what Fleet Engine expects on each call.
@Suite("Against a second gRPC stack: grpcio with Google's google-maps-fleetengine types", .serialized)
struct GRPCIOInteroperabilityTests {
    static func seedTrips() throws -> [String: Trip] {
        let data = try Data(contentsOf: Fixtures.fixtureURL("grpcio-seed-trips.json"))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var trips: [String: Trip] = [:]
        for (id, value) in object {
            let json = try JSONSerialization.data(withJSONObject: value)
            trips[id] = try Trip(jsonUTF8Bytes: Array(json))
        }
        return trips
    }

    static func expectedErrors() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: Fixtures.fixtureURL("grpcio-errors.json"))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    }

    @Test("the small and the ~18 KB trip arrive equal to what the server sent")
    func seededTripsArriveExactly() async throws {
        let seeds = try Self.seedTrips()
        try await withGRPCIOServerAndClient { _, client in
            for id in ["trip-small", "trip-large"] {
                let trip = try await client.getTrip(named: Fixtures.name(id))
                #expect(trip == seeds[id])
            }
            #expect((seeds["trip-large"]?.serializedBytes().count ?? 0) > 16_000)
        }
    }

    @Test("every error code arrives with grpcio's code, message and exactly its status details")
    func errorsArriveExactly() async throws {
        try await withGRPCIOServerAndClient(configure: { $0.retryPolicy = .none }) { _, client in
            let expected = try Self.expectedErrors()
            for (id, fixture) in expected.sorted(by: { $0.key < $1.key }) {
                let error = try #require(
                    await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name(id)) })
                let code = try #require(fixture["code"] as? Int)
                #expect(error.code == StatusCode(rawValue: code), "\(id)")
                #expect(error.message == fixture["message"] as? String, "\(id)")
                let base64 = try #require(fixture["statusDetailsBinBase64"] as? String)
                let bytes = try #require(Data(base64Encoded: base64))
                #expect(error.rpcStatus?.serializedBytes() == Array(bytes), "\(id)")
                let details = try #require(fixture["details"] as? [Any])
                #expect(error.details.count == details.count, "\(id)")
                #expect(error.statusDetailsProblem == nil, "\(id)")
                if case .errorInfo(let info) = error.details.first {
                    #expect(info.reason == fixture["codeName"] as? String)
                    #expect(info.metadata["trip"] == Fixtures.name(id))
                } else {
                    Issue.record("\(id): the first detail is not the ErrorInfo: \(error.details)")
                }
            }
        }
    }

    @Test("the server sees the bearer token, the routing header, a deadline and a populated request header")
    func whatTheServerSees() async throws {
        try await withGRPCIOServerAndClient { server, client in
            _ = try await client.getTrip(named: Fixtures.name("trip-small"))
            let call = try #require(try server.loggedCalls().last)
            #expect(call["method"] as? String == "/maps.fleetengine.v1.TripService/GetTrip")
            let metadata = try #require(call["metadata"] as? [[String: String]])
            let values = Dictionary(
                metadata.map { ($0["key"] ?? "", $0["value"] ?? "") }, uniquingKeysWith: { a, _ in a })
            #expect(values["authorization"] == "Bearer test-token-for-the-grpcio-server")
            #expect(values["x-goog-request-params"] == "provider_id=providers%2Ftest-project")
            #expect(values["user-agent"]?.hasPrefix("swift-fleet-engine/") == true)
            let remaining = try #require(call["timeRemainingSeconds"] as? Double)
            #expect(remaining > 0 && remaining <= Double(LoopbackClient.callDeadline.components.seconds))
            let request = try #require(call["request"] as? [String: Any])
            let header = try #require(request["header"] as? [String: Any])
            #expect(header["sdkVersion"] as? String == "swift-fleet-engine/\(FleetEngineClient.version)")
            #expect(header["languageCode"] as? String == "en-US")
            #expect((header["osVersion"] as? String)?.isEmpty == false)
        }
    }

    @Test("a request header the caller gives keeps its fields; only the empty ones take the client's defaults")
    func callersRequestHeader() async throws {
        try await withGRPCIOServerAndClient { server, client in
            var request = GetTripRequest()
            request.name = Fixtures.name("trip-small")
            var given = RequestHeader()
            given.languageCode = "fr-CA"
            given.osVersion = "custom-os 9"
            request.header = given
            _ = try await client.getTrip(request)
            // A call without a header after it still gets the defaults, not the caller's fields.
            _ = try await client.getTrip(named: Fixtures.name("trip-small"))
            let calls = try server.loggedCalls().suffix(2).map { try #require($0["request"] as? [String: Any]) }
            let headers = try calls.map { try #require($0["header"] as? [String: Any]) }
            #expect(headers.count == 2)
            #expect(headers.first?["languageCode"] as? String == "fr-CA")
            #expect(headers.first?["osVersion"] as? String == "custom-os 9")
            #expect(headers.first?["sdkVersion"] as? String == "swift-fleet-engine/\(FleetEngineClient.version)")
            #expect(headers.last?["languageCode"] as? String == "en-US")
            #expect(headers.last?["osVersion"] as? String != "custom-os 9")
        }
    }

    @Test("UNAVAILABLE twice, then the trip: the retry policy carries the call through")
    func flakyServerIsRetried() async throws {
        let seeds = try Self.seedTrips()
        try await withGRPCIOServerAndClient(configure: {
            $0.retryPolicy.backoff = Backoff(initial: .milliseconds(10), multiplier: 1.3, maximum: .milliseconds(50))
        }) { server, client in
            let trip = try await client.getTrip(named: Fixtures.name("flaky-2"))
            #expect(trip == seeds["trip-small"])
            #expect(try server.loggedCalls().count == 3)

            // Five attempts are the most: flaky-9 still fails after them.
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("flaky-9")) }
            #expect(error?.code == .unavailable)
            #expect(try server.loggedCalls().count == 3 + 5)
        }
    }

    @Test("grpc-retry-pushback-ms replaces the backoff: a short pushback is waited, one past the deadline is not")
    func pushbackIsHonoured() async throws {
        // The policy's own wait (10 min) is past the deadline (30 s): only the server's 50 ms lets
        // the call be retried in time, and its 60 s does not.
        try await withGRPCIOServerAndClient(configure: {
            $0.retryPolicy.backoff = Backoff(
                initial: .seconds(600), multiplier: 1, maximum: .seconds(600), jitter: 0)
            $0.defaultDeadline = .seconds(30)
        }) { server, client in
            _ = try await client.getTrip(named: Fixtures.name("pushback-50"))
            #expect(try server.loggedCalls().count == 2)
            // A pushback past the deadline ends the call with the server's UNAVAILABLE at once.
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("pushback-60000")) }
            #expect(error?.code == .unavailable)
            #expect(try server.loggedCalls().count == 3)
        }
    }

    @Test("a Trailers-Only answer gives the status it carries")
    func trailersOnly() async throws {
        try await withGRPCIOServerAndClient(configure: { $0.retryPolicy = .none }) { _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("trailers-only-5")) }
            #expect(error?.code == .notFound)
            #expect(error?.message == "NOT_FOUND for \(Fixtures.name("trailers-only-5"))")
        }
    }

    @Test("a slow grpcio server: DEADLINE_EXCEEDED at the client's deadline")
    func deadlineAgainstGRPCIO() async throws {
        try await withGRPCIOServerAndClient { _, client in
            let error = await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("slow-5000"), options: CallOptions(timeout: .milliseconds(300)))
            }
            #expect(error?.code == .deadlineExceeded)
        }
    }

    @Test("search pages through grpcio's page tokens", arguments: [1, 2, 0])
    func searchAgainstGRPCIO(pageSize: Int32) async throws {
        try await withGRPCIOServerAndClient { _, client in
            var request = SearchTripsRequest()
            request.parent = "providers/test-project"
            request.vehicleID = "vehicle-1"
            request.pageSize = pageSize
            var names: [String] = []
            for try await trip in client.searchTrips(request) { names.append(trip.name) }
            #expect(names == [Fixtures.name("trip-large"), Fixtures.name("trip-small")])
        }
    }
}
