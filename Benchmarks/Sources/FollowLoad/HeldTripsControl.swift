import FleetEngineClient
import FleetEngineCodec
import ProcessMeasures

/// The control for memory per trip: the same trips fetched once each and held in an array, with no
/// trip service. What resident memory grows by per trip here is what a decoded `Trip` costs by
/// itself; what the service costs on top of it is the difference to the followed run.
struct HeldTripsControl {
    var names: [String]
    var providerID: String

    /// Fetches every trip, a few at a time, and returns one JSON line.
    func run(client: FleetEngineClient) async throws -> String {
        guard let baseline = ResidentMemory.read() else { throw FollowLoadError("no /proc/self/status to read") }
        var trips: [Trip] = []
        trips.reserveCapacity(names.count)
        for start in stride(from: 0, to: names.count, by: 64) {
            let batch = names[start..<min(names.count, start + 64)].map { Self.fullName($0, provider: providerID) }
            let fetched = try await withThrowingTaskGroup(of: Trip.self, returning: [Trip].self) { group in
                for name in batch { group.addTask { try await client.getTrip(named: name) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            trips.append(contentsOf: fetched)
        }
        guard let end = ResidentMemory.read() else { throw FollowLoadError("no /proc/self/status to read") }
        let encoded = trips.reduce(0) { $0 + $1.serializedBytes().count }
        let perTrip = Double(end.current - baseline.current) / Double(trips.count)
        let encodedPerTrip = Double(encoded) / Double(trips.count)
        return "{\"mode\": \"held-trips-control\", \"trips\": \(trips.count), "
            + "\"rssBaselineBytes\": \(baseline.current), \"rssEndBytes\": \(end.current), "
            + "\"memoryPerTripBytes\": \(perTrip.rounded()), \"encodedTripBytesPerTrip\": \(encodedPerTrip.rounded()), "
            + "\"overheadPerTripBytes\": \((perTrip - encodedPerTrip).rounded())}"
    }

    /// A trip's full name, `providers/{provider_id}/trips/{trip_id}`, from a full name or a trip id.
    static func fullName(_ name: String, provider: String) -> String {
        name.contains("/") ? name : "providers/\(provider)/trips/\(name)"
    }
}
