import FleetEngineClient
import FleetEngineCodec

/// Mallocs per GetTrip of our client against the gate's emulator process: one call in flight,
/// from a task that prefers the client's event loop (as `TripService`'s refreshes do), after
/// warm-up calls that open the connection, fill the token cache and grow the buffers.
enum ClientCallAllocations {
    /// Mallocs per GetTrip of ``GateEmulator/tripName`` on 127.0.0.1:`port`.
    static func perCall(port: Int) async throws -> Double {
        let operation = GatedOperation.clientGetTrip
        let (warmup, iterations) = operation.warmupAndIterations
        return try await withFleetEngineClient(
            configuration: .plaintext(port: port), tokenProvider: NoTokenProvider()
        ) { client in
            try await withTaskExecutorPreference(client.taskExecutor) {
                try await MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
                    () async throws(AllocationGateError) in
                    let trip: Trip
                    do {
                        trip = try await client.getTrip(named: GateEmulator.tripName)
                    } catch {
                        throw AllocationGateError("\(operation.rawValue): GetTrip failed: \(error)")
                    }
                    if trip.lastLocation == nil {
                        throw AllocationGateError("\(operation.rawValue): the trip came back without its vehicle")
                    }
                }
            }
        }
    }
}
