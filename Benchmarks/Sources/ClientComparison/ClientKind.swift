/// The gRPC clients the load and the benchmarks compare.
public enum ClientKind: String, CaseIterable, Sendable {
    /// FleetEngineClient, this repository's client.
    case ours
    /// grpc-swift-2's `GRPCClient` over grpc-swift-nio-transport's `HTTP2ClientTransport.Posix`,
    /// with swift-protobuf's generated types.
    case grpcSwift = "grpc-swift"

    /// Runs `body` with a caller of this kind connected to `127.0.0.1:port` (plaintext, or TLS as
    /// `tls` says: ours only), asking for `tripName`; the client is shut down when `body` returns.
    public func withCaller<Result: Sendable>(
        port: Int,
        tripName: String,
        tls: BenchmarkTLS? = nil,
        _ body: (any GetTripCaller) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .ours:
            return try await OurGetTripCaller.with(port: port, tripName: tripName, tls: tls, body)
        case .grpcSwift:
            guard tls == nil else { throw BenchmarkTLS.Unsupported() }
            return try await GRPCSwiftGetTripCaller.with(port: port, tripName: tripName, body)
        }
    }
}
