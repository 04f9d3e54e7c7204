import FleetEngineClient
import FleetEngineCodec

/// GetTrip through FleetEngineClient, as an application calls it: `getTrip(named:)` with the
/// default options (15 s deadline, the default retry policy) and a static bearer token.
struct OurGetTripCaller: GetTripCaller {
    let client: FleetEngineClient
    let tripName: String

    static func with<Result: Sendable>(
        port: Int,
        tripName: String,
        _ body: (any GetTripCaller) async throws -> Result
    ) async throws -> Result {
        try await withFleetEngineClient(
            configuration: .plaintext(port: port),
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
