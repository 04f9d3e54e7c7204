import FleetEngineClient
import FleetEngineCodec
import FleetEngineTestSupport
import NIOHPACK
import Testing

@Suite("How the request's header fields go into HPACK (RFC 7541), as the server's decoder reads them")
struct RequestHeaderIndexingTests {
    /// A token of its own for each trip, as consumer tokens are.
    struct PerTripTokenProvider: TokenProvider {
        func token(for request: TokenRequest) async throws -> FleetEngineToken {
            FleetEngineToken(value: "token-for-" + (request.tripID ?? "none"))
        }
    }

    /// The header blocks the server read for GetTrip of each of `tripIDs` in turn, one connection.
    static func requestHeaders(
        gettingTrips tripIDs: [String], tokenProvider: some TokenProvider
    ) async throws -> [HPACKHeaders] {
        let trip = Fixtures.trip(named: Fixtures.name("h"))
        let answer = grpcFramed(trip.serializedBytes())
        let server = try await ScriptedHTTP2Server { _ in .raw(data: answer, grpcStatus: 0) }
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy = .none
        try await withFleetEngineClient(configuration: configuration, tokenProvider: tokenProvider) { client in
            for tripID in tripIDs { _ = try await client.getTrip(named: Fixtures.name(tripID)) }
        }
        await server.close()
        return server.requestHeaders
    }

    static func indexing(of name: String, in head: HPACKHeaders) -> [HPACKIndexing] {
        head.filter { $0.name == name }.map(\.indexable)
    }

    @Test("the service's token is indexed from its second call on; the timeout is not; the repeated fields are")
    func indexing() async throws {
        let heads = try await Self.requestHeaders(
            gettingTrips: ["h", "h", "h"], tokenProvider: StaticTokenProvider("t0ken"))
        #expect(heads.count == 3)
        #expect(
            heads.map { Self.indexing(of: "authorization", in: $0) } == [[.neverIndexed], [.indexable], [.indexable]])
        for head in heads {
            #expect(head["authorization"] == ["Bearer t0ken"])
            #expect(Self.indexing(of: "grpc-timeout", in: head) == [.nonIndexable])
            for name in [":path", ":authority", "user-agent", "x-goog-request-params", "te", "content-type"] {
                #expect(Self.indexing(of: name, in: head) == [.indexable], "\(name)")
            }
        }
    }

    @Test("per-trip tokens that change from call to call are never indexed; one sent twice in a row is")
    func perTripTokens() async throws {
        let heads = try await Self.requestHeaders(
            gettingTrips: ["a", "b", "a", "b", "b"], tokenProvider: PerTripTokenProvider())
        #expect(
            heads.map { $0["authorization"] } == [
                ["Bearer token-for-a"], ["Bearer token-for-b"], ["Bearer token-for-a"], ["Bearer token-for-b"],
                ["Bearer token-for-b"],
            ])
        #expect(
            heads.map { Self.indexing(of: "authorization", in: $0) } == [
                [.neverIndexed], [.neverIndexed], [.neverIndexed], [.neverIndexed], [.indexable],
            ])
    }
}
