import FleetEngineClient
import FleetEngineStatus
import NIOHTTP2
import Testing

@Suite("A retried write that fails says when an earlier attempt may have been carried out")
struct RetriedWriteTests {
    /// Retries on UNAVAILABLE at once, a few times.
    private static let quickRetries = RetryPolicy(
        maxAttempts: 3, backoff: Backoff(initial: .milliseconds(1), multiplier: 1, maximum: .milliseconds(1)),
        retryableCodes: [.unavailable])

    /// Trailers-Only with `code` and `message`.
    private static func status(_ code: Int, _ message: String) -> ScriptedHTTP2Server.Response {
        .headersOnly(
            status: "200",
            fields: [("content-type", "application/grpc"), ("grpc-status", "\(code)"), ("grpc-message", message)])
    }

    /// A scripted server that answers the first call with `first` and every later one with `then`,
    /// and a client that retries UNAVAILABLE at once.
    private static func withServer(
        first: ScriptedHTTP2Server.Response, then: ScriptedHTTP2Server.Response,
        _ body: @Sendable (ScriptedHTTP2Server, FleetEngineClient) async throws -> Void
    ) async throws {
        try await MalformedResponseTests.withScriptedServer(
            retryPolicy: quickRetries, { call in call == 1 ? first : then }, body)
    }

    @Test("CreateTrip whose first answer was lost, then ALREADY_EXISTS: the trip may be this call's own")
    func createAfterLostAnswer() async throws {
        try await Self.withServer(first: .closeConnection, then: Self.status(6, "trip already exists")) {
            server, client in
            let error = try #require(await fleetEngineError { _ = try await client.createTrip(Fixtures.create("t")) })
            #expect(server.callCount == 2)
            #expect(error.code == .alreadyExists)
            #expect(error.message.hasPrefix("trip already exists; "))
            #expect(error.message.contains("attempt 1 of this call was sent and its answer lost"))
            #expect(error.message.contains("this call itself may have created the trip"))
        }
    }

    @Test("a write whose earlier attempt the server answered UNAVAILABLE: that it may have acted is said too")
    func writeAfterServerUnavailable() async throws {
        try await Self.withServer(
            first: Self.status(14, "backend overloaded"), then: Self.status(9, "trip is not in a state")
        ) { _, client in
            let error = try #require(
                await fleetEngineError { _ = try await client.createTrip(Fixtures.create("t")) })
            #expect(error.code == .failedPrecondition)
            #expect(error.message.contains("attempt 1 of this call ended with UNAVAILABLE (backend overloaded)"))
            #expect(!error.message.contains("created the trip"))
        }
    }

    @Test("a read, or a write whose earlier attempts surely did nothing, keeps the server's message as it is")
    func noNoteWhenNothingWasCarriedOut() async throws {
        try await Self.withServer(first: .closeConnection, then: Self.status(5, "no such trip")) { _, client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("t")) })
            #expect(error.code == .notFound)
            #expect(error.message == "no such trip")
        }
        try await Self.withServer(first: .reset(.refusedStream), then: Self.status(6, "trip already exists")) {
            _, client in
            let error = try #require(await fleetEngineError { _ = try await client.createTrip(Fixtures.create("t")) })
            #expect(error.code == .alreadyExists)
            #expect(error.message == "trip already exists")
        }
    }
}
