import FleetEngineClient
import FleetEngineCodec
import NIOSSL

/// GetTrip through FleetEngineClient, as an application calls it: `getTrip(named:)` with the
/// default options (15 s deadline, the default retry policy) and a static bearer token.
struct OurGetTripCaller: GetTripCaller {
    let client: FleetEngineClient
    let tripName: String

    static func with<Result: Sendable>(
        port: Int,
        tripName: String,
        tls: BenchmarkTLS? = nil,
        _ body: (any GetTripCaller) async throws -> Result
    ) async throws -> Result {
        var configuration = ClientConfiguration.plaintext(port: port)
        if let tls {
            configuration.transportSecurity = .tls(
                trustRoots: .file(tls.caCertificatePath), serverHostname: tls.serverHostname)
            if let keyLogPath = tls.keyLogPath { configuration.tlsKeyLog = try TLSKeyLogSink.file(atPath: keyLogPath) }
        }
        return try await withFleetEngineClient(
            configuration: configuration,
            tokenProvider: StaticTokenProvider(RequestMetadata.token)
        ) { client in
            try await body(OurGetTripCaller(client: client, tripName: tripName))
        }
    }

    var preferredTaskExecutor: (any TaskExecutor)? { client.taskExecutor }

    func getTrip() async throws -> String {
        try await client.getTrip(named: tripName).name
    }
}
