import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@testable import FleetEngineEmulator

/// A TripService client on grpc-swift-2's HTTP/2 transport (a gRPC stack other than the emulator's
/// own handlers), with our protobuf-c codec for messages.
struct TripServiceClient: Sendable {
    let client: GRPCClient<HTTP2ClientTransport.Posix>

    /// Calls `method` with `request`; a failure comes back as the `FleetEngineError` its status and
    /// `grpc-status-details-bin` make.
    func call<Request: ProtobufMessage, Response: ProtobufMessage>(
        _ method: TripServiceMethod,
        _ request: Request,
        returning: Response.Type = Response.self,
        authorization: String? = nil,
        options: CallOptions = .defaults
    ) async throws(FleetEngineError) -> Response {
        var metadata = Metadata()
        if let authorization { metadata.addString(authorization, forKey: "authorization") }
        do {
            return try await client.unary(
                request: ClientRequest(message: request, metadata: metadata),
                descriptor: MethodDescriptor(fullyQualifiedService: TripServiceMethod.serviceName, method: method.name),
                serializer: CodecMessageSerializer<Request>(),
                deserializer: CodecMessageDeserializer<Response>(),
                options: options
            ) { response in
                try response.message
            }
        } catch let error as RPCError {
            throw FleetEngineError(error)
        } catch {
            throw FleetEngineError(code: .unknown, message: "the client failed: \(error)", cause: error)
        }
    }

    /// The call's failure, or nil when it succeeded.
    func failure<Request: ProtobufMessage, Response: ProtobufMessage>(
        _ method: TripServiceMethod,
        _ request: Request,
        returning: Response.Type = Response.self,
        authorization: String? = nil,
        options: CallOptions = .defaults
    ) async -> FleetEngineError? {
        do {
            _ = try await call(
                method, request, returning: Response.self, authorization: authorization, options: options)
            return nil
        } catch {
            return error
        }
    }

    func getTrip(_ name: String, authorization: String? = nil) async throws(FleetEngineError) -> Trip {
        var request = GetTripRequest()
        request.name = name
        return try await call(.getTrip, request, authorization: authorization)
    }
}

/// Runs an emulator on 127.0.0.1 port 0 and a grpc-swift-2 client connected to it for `body`.
func withEmulatorAndClient<Result: Sendable>(
    _ configuration: EmulatorConfiguration = EmulatorConfiguration(accessPolicy: .noAuth),
    time: any TimeSource = ManualTimeSource(start: ServiceHarness.time(0)),
    security: HTTP2ClientTransport.Posix.TransportSecurity = .plaintext,
    configureClient: @Sendable (inout HTTP2ClientTransport.Posix.Config) -> Void = { _ in },
    _ body: @Sendable (FleetEngineEmulator, TripServiceClient) async throws -> Result
) async throws -> Result {
    try await withFleetEngineEmulator(configuration, time: time) { emulator in
        try await withTripServiceClient(
            port: try await emulator.listeningPort(), security: security, configureClient: configureClient
        ) { client in
            try await body(emulator, client)
        }
    }
}

/// Runs a grpc-swift-2 client of its own (its own channel, so its own connections) to 127.0.0.1 at
/// `port` for `body`.
func withTripServiceClient<Result: Sendable>(
    port: Int,
    security: HTTP2ClientTransport.Posix.TransportSecurity = .plaintext,
    configureClient: @Sendable (inout HTTP2ClientTransport.Posix.Config) -> Void = { _ in },
    _ body: @Sendable (TripServiceClient) async throws -> Result
) async throws -> Result {
    let transport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: port),
        transportSecurity: security,
        config: .defaults(configure: configureClient)
    )
    return try await withGRPCClient(transport: transport) { client in
        try await body(TripServiceClient(client: client))
    }
}
