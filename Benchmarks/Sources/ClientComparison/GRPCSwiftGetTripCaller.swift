import GRPCCore
import GRPCNIOTransportHTTP2
import SwiftProtobufModels

/// GetTrip through grpc-swift-2's `GRPCClient` and grpc-swift-nio-transport's Posix HTTP/2
/// transport (plaintext), with swift-protobuf's types and a hand-written codec: what a generated
/// grpc-swift-protobuf stub does, without the generator.
struct GRPCSwiftGetTripCaller: GetTripCaller {
    static let getTripMethod = MethodDescriptor(
        fullyQualifiedService: "maps.fleetengine.v1.TripService", method: "GetTrip")

    let client: GRPCClient<HTTP2ClientTransport.Posix>
    let message: Maps_Fleetengine_V1_GetTripRequest
    let metadata: Metadata
    let options: CallOptions

    /// grpc-swift-2's client offers no executor of its own to its callers.
    var preferredTaskExecutor: (any TaskExecutor)? { nil }

    init(client: GRPCClient<HTTP2ClientTransport.Posix>, tripName: String) {
        self.client = client
        var message = Maps_Fleetengine_V1_GetTripRequest()
        message.name = tripName
        message.header.languageCode = RequestMetadata.languageCode
        message.header.sdkVersion = RequestMetadata.sdkVersion
        message.header.osVersion = RequestMetadata.osVersion
        self.message = message
        var metadata = Metadata()
        metadata.addString(RequestMetadata.routingHeader(tripName: tripName), forKey: "x-goog-request-params")
        metadata.addString("Bearer " + RequestMetadata.token, forKey: "authorization")
        self.metadata = metadata
        // FleetEngineClient's default deadline, so both send the same grpc-timeout.
        var options = CallOptions.defaults
        options.timeout = .seconds(15)
        self.options = options
    }

    static func with<Result: Sendable>(
        port: Int,
        tripName: String,
        _ body: (any GetTripCaller) async throws -> Result
    ) async throws -> Result {
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: port),
            transportSecurity: .plaintext
        )
        return try await withGRPCClient(transport: transport) { client in
            try await body(GRPCSwiftGetTripCaller(client: client, tripName: tripName))
        }
    }

    func getTrip() async throws -> String {
        try await client.unary(
            request: ClientRequest(message: message, metadata: metadata),
            descriptor: Self.getTripMethod,
            serializer: SwiftProtobufSerializer<Maps_Fleetengine_V1_GetTripRequest>(),
            deserializer: SwiftProtobufDeserializer<Maps_Fleetengine_V1_Trip>(),
            options: options
        ) { response in
            try response.message.name
        }
    }
}
