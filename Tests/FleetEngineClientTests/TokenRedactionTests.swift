import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Logging
import NIOHPACK
import NIOHTTP2
import Testing

@Suite("The bearer token stays out of errors and logs, and out of the caller's metadata")
struct TokenRedactionTests {
    static let token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjb25zdW1lciJ9.c2lnbmF0dXJl"

    /// A Trailers-Only UNAUTHENTICATED answer that quotes `token` in `grpc-message`, in the
    /// `google.rpc.Status` message and in a `LocalizedMessage` detail.
    static func quotingAnswer() -> ScriptedHTTP2Server.Response {
        var localized = LocalizedMessage()
        localized.locale = "en-US"
        localized.message = "The token \(token) has expired."
        var status = RPCStatus()
        status.code = 16
        status.message = "refused Bearer \(token)"
        status.details = [StatusDetail.localizedMessage(localized).anyMessage]
        return .headersOnly(
            status: "200",
            fields: [
                ("content-type", "application/grpc"), ("grpc-status", "16"),
                ("grpc-message", "refused%20Bearer%20\(token)"),
                ("grpc-status-details-bin", Data(status.serializedBytes()).base64EncodedString()),
            ])
    }

    @Test("a server that quotes the token: the error and the debug log carry a marker, the details still decode")
    func quotedToken() async throws {
        let server = try await ScriptedHTTP2Server { _ in Self.quotingAnswer() }
        let records = RecordingLogHandler.Records()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy = .none
        let error = try await withFleetEngineClient(
            configuration: configuration, tokenProvider: StaticTokenProvider(Self.token), logger: logger
        ) { client in
            await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
        }
        await server.close()

        let failure = try #require(error)
        #expect(failure.code == .unauthenticated)
        #expect(failure.message == "refused Bearer [token redacted]")
        #expect(!"\(failure)".contains(Self.token))
        let status = try #require(failure.rpcStatus)
        #expect(!status.message.contains(Self.token))
        #expect(status.message.hasPrefix("refused Bearer [token redacted]"))
        guard case .localizedMessage(let localized) = try #require(failure.details.first) else {
            Issue.record("the detail is \(failure.details)")
            return
        }
        #expect(localized.locale == "en-US")
        #expect(localized.message.hasPrefix("The token [token redacted]"))
        #expect(localized.message.hasSuffix(" has expired."))
        #expect(!localized.message.contains(Self.token))
        let logged = records.all.map(\.text)
        #expect(logged.contains { $0.contains("call failed") })
        #expect(!logged.contains { $0.contains(Self.token) }, "\(logged)")
    }

    @Test("a token too short to tell from words is left as the server wrote the message")
    func shortToken() async throws {
        let server = try await ScriptedHTTP2Server { _ in
            .headersOnly(
                status: "200",
                fields: [("content-type", "application/grpc"), ("grpc-status", "7"), ("grpc-message", "no%20tok")])
        }
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy = .none
        let error = try await withFleetEngineClient(
            configuration: configuration, tokenProvider: StaticTokenProvider("tok")
        ) { client in
            await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
        }
        await server.close()
        #expect(error?.code == .permissionDenied)
        #expect(error?.message == "no tok")
    }

    @Test(
        "metadata naming a field the client writes fails with INVALID_ARGUMENT before anything is sent",
        arguments: ["authorization", "x-goog-request-params"])
    func fieldsTheClientWrites(name: String) async throws {
        let server = try await ScriptedHTTP2Server { _ in .reset(.internalError) }
        let error = try await withFleetEngineClient(
            configuration: LoopbackClient.configuration(port: server.port),
            tokenProvider: StaticTokenProvider(Self.token)
        ) { client in
            await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("a"), options: CallOptions(metadata: [(name, "Bearer other")]))
            }
        }
        await server.close()
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(error?.message.contains(name) == true)
        #expect(server.callCount == 0)
    }

    @Test("without a token from the provider, the caller's own authorization is the one sent")
    func callersAuthorizationWithoutProviderToken() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("own"))
        let answer = grpcFramed(trip.serializedBytes())
        try await MalformedResponseTests.withScriptedServer({ _ in .raw(data: answer, grpcStatus: 0) }) {
            server, client in
            let received = try await client.getTrip(
                named: trip.name, options: CallOptions(metadata: [("authorization", "Bearer own")]))
            #expect(received == trip)
            #expect(server.requestHeaders.first?["authorization"] == ["Bearer own"])
        }
    }
}
