import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import NIOHPACK
import Testing

@Suite("ClientConfiguration's authority and metadata, as the server reads them on every call")
struct ConfigurationMetadataTests {
    /// The header blocks the server read for `calls` GetTrip calls, one connection, made with
    /// `configuration` pointed at the server; each call also sends `callMetadata` of its own.
    static func requestHeaders(
        calls: Int, callMetadata: [(name: String, value: String)] = [], tokenProvider: some TokenProvider,
        _ configure: (inout ClientConfiguration) -> Void
    ) async throws -> [HPACKHeaders] {
        let answer = grpcFramed(Fixtures.trip(named: Fixtures.name("m")).serializedBytes())
        let server = try await ScriptedHTTP2Server { _ in .raw(data: answer, grpcStatus: 0) }
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy = .none
        configure(&configuration)
        do {
            try await withFleetEngineClient(configuration: configuration, tokenProvider: tokenProvider) { client in
                for _ in 0..<calls {
                    _ = try await client.getTrip(
                        named: Fixtures.name("m"), options: CallOptions(metadata: callMetadata))
                }
            }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
        return server.requestHeaders
    }

    /// The custom metadata of `head`: the fields after the call layer's own, in order.
    static func customFields(of head: HPACKHeaders) -> [String] {
        let callLayer: Set<String> = ["te", "content-type", "user-agent", "grpc-timeout", "grpc-accept-encoding"]
        return head.filter { !$0.name.hasPrefix(":") && !callLayer.contains($0.name) }.map { "\($0.name): \($0.value)" }
    }

    @Test("without an authority, :authority is the endpoint's host:port")
    func defaultAuthority() async throws {
        var port = 0
        let heads = try await Self.requestHeaders(calls: 1, tokenProvider: NoTokenProvider()) {
            port = $0.endpoint.port
        }
        #expect(heads.map { $0[":authority"] } == [["127.0.0.1:\(port)"]])
    }

    @Test("an authority replaces :authority on every call; the connection still goes to the endpoint")
    func authorityOnEveryCall() async throws {
        let heads = try await Self.requestHeaders(calls: 2, tokenProvider: NoTokenProvider()) {
            $0.authority = "fleet.example.com:8443"
        }
        #expect(heads.map { $0[":authority"] } == [["fleet.example.com:8443"], ["fleet.example.com:8443"]])
    }

    @Test("the configuration's metadata goes on every call, in order, before the routing header and the call's own")
    func metadataOnEveryCall() async throws {
        let heads = try await Self.requestHeaders(
            calls: 2, callMetadata: [("x-call", "one")], tokenProvider: StaticTokenProvider("t0ken")
        ) {
            $0.metadata = [("x-tenant", "blue team"), ("x-trace-bin", "AQID"), ("x-tenant", "second")]
        }
        #expect(heads.count == 2)
        for head in heads {
            #expect(
                Self.customFields(of: head) == [
                    "x-tenant: blue team", "x-trace-bin: AQID", "x-tenant: second",
                    "x-goog-request-params: provider_id=providers%2Ftest-project", "x-call: one",
                    "authorization: Bearer t0ken",
                ])
        }
    }

    @Test("authorization in the configuration's metadata is sent when there is no token, refused beside one")
    func authorizationMetadata() async throws {
        let heads = try await Self.requestHeaders(calls: 1, tokenProvider: NoTokenProvider()) {
            $0.metadata = [("authorization", "Basic dXNlcg==")]
        }
        #expect(heads.map { $0["authorization"] } == [["Basic dXNlcg=="]])

        let error = await fleetEngineError {
            _ = try await Self.requestHeaders(calls: 1, tokenProvider: StaticTokenProvider("t0ken")) {
                $0.metadata = [("authorization", "Basic dXNlcg==")]
            }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.origin == .local)
        #expect(
            error?.message
                == "the configuration's metadata may not carry authorization: the client writes it itself from its "
                + "token provider")
    }

    @Test(
        "metadata that cannot be sent is refused when the client is made, naming the field but never the value",
        arguments: [
            (
                "x-goog-request-params", "provider_id=x",
                "the configuration's metadata may not carry x-goog-request-params: the client writes it itself from "
                    + "each call's provider"
            ),
            (
                "grpc-timeout", "1S",
                "the configuration's metadata cannot be sent: metadata name \"grpc-timeout\" starts with 'grpc-', "
                    + "which gRPC reserves for itself (PROTOCOL-HTTP2, \"Requests\")"
            ),
            (
                ":authority", "elsewhere",
                "the configuration's metadata cannot be sent: metadata name \":authority\" is a pseudo-header, which "
                    + "only the call layer writes"
            ),
        ])
    func refusedMetadata(name: String, value: String, message: String) throws {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.metadata = [(name, value)]
        let error = try #require(throws: FleetEngineError.self) {
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error.code == .invalidArgument)
        #expect(error.origin == .local)
        #expect(error.message == message)
    }

    @Test("a metadata value with a control character is refused by its position, the value left out")
    func secretValueNotEchoed() throws {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.metadata = [("x-api-key", "s3cret-value\n")]
        let error = try #require(throws: FleetEngineError.self) {
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error.code == .invalidArgument)
        #expect(
            error.message.hasPrefix("the configuration's metadata cannot be sent: the value of metadata \"x-api-key\""))
        #expect(!error.message.contains("s3cret"))
    }

    @Test("an authority that cannot go in :authority is refused when the client is made, saying why")
    func badAuthority() throws {
        var configuration = ClientConfiguration.plaintext(port: 1)
        configuration.authority = "two words"
        let error = try #require(throws: FleetEngineError.self) {
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error.code == .invalidArgument)
        #expect(
            error.message.hasPrefix(
                "the configuration's endpoint, authority or user agent cannot go in a request's headers: :authority"))
    }
}
