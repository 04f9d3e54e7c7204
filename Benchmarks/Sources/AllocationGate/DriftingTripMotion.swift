import FleetEngineCodec
import FleetEngineEmulator

/// A trip whose vehicle creeps north and nothing else changes: every GetTrip after the first finds
/// a new vehicle location (the emulator's clock moves by nanoseconds), so every refresh of a
/// followed trip delivers the same kind of update, and its count does not depend on when it ran.
struct DriftingTripMotion: TripMotion {
    /// The trip at the start, its versions cleared (the emulator's store sets them).
    let start: Trip

    /// Degrees of latitude per second of the emulator's clock: a brisk walk, so a run of the gate
    /// keeps the vehicle near its start.
    private static let degreesPerSecond = 1e-5

    func trip(at elapsed: Duration) -> Trip {
        var trip = start
        let (seconds, attoseconds) = elapsed.components
        let drift = (Double(seconds) + Double(attoseconds) * 1e-18) * Self.degreesPerSecond
        if var vehicle = trip.lastLocation, var point = vehicle.location {
            point.latitude += drift
            vehicle.location = point
            trip.lastLocation = vehicle
        }
        return trip
    }
}
