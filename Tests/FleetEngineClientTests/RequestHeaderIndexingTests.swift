import FleetEngineClient
import FleetEngineCodec
import NIOHPACK
import Testing

@Suite("How the request's header fields go into HPACK (RFC 7541), as the server's decoder reads them")
struct RequestHeaderIndexingTests {
    @Test("the token is never indexed, the per-call timeout is not indexed, the fields every call repeats are")
    func indexing() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("h"))
        let answer = MalformedResponseTests.framed(trip.serializedBytes())
        let server = try await ScriptedHTTP2Server { _ in .raw(data: answer, grpcStatus: 0) }
        var configuration = Fixtures.configuration(port: server.port)
        configuration.retryPolicy = .none
        try await withFleetEngineClient(configuration: configuration, tokenProvider: StaticTokenProvider("t0ken")) {
            client in
            for _ in 0..<3 { _ = try await client.getTrip(named: trip.name) }
        }
        await server.close()

        let heads = server.requestHeaders
        #expect(heads.count == 3)
        for head in heads {
            var indexing: [String: HPACKIndexing] = [:]
            for (name, _, representation) in head { indexing[name] = representation }
            #expect(head["authorization"] == ["Bearer t0ken"])
            #expect(indexing["authorization"] == .neverIndexed)
            #expect(head["grpc-timeout"].count == 1)
            #expect(indexing["grpc-timeout"] == .nonIndexable)
            for name in [":path", ":authority", "user-agent", "x-goog-request-params", "te", "content-type"] {
                #expect(indexing[name] == .indexable, "\(name)")
            }
        }
    }
}
