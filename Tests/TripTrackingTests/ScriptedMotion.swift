import FleetEngineCodec
import FleetEngineEmulator

/// A trip the emulator serves as `script` says it is at each whole second since it was added.
struct ScriptedMotion: TripMotion {
    let script: @Sendable (Int) -> Trip

    func trip(at elapsed: Duration) -> Trip { script(Int(elapsed.components.seconds)) }

    /// A stop at `point`.
    static func terminal(_ point: LatLng) -> TerminalLocation {
        var location = TerminalLocation()
        location.point = point
        return location
    }

    /// A remaining waypoint of trip `trip`, at `point`.
    static func waypoint(
        _ point: LatLng, _ type: WaypointType, trip: String, path: [LatLng] = [], eta: Timestamp? = nil
    ) -> TripWaypoint {
        var waypoint = TripWaypoint()
        waypoint.location = terminal(point)
        waypoint.tripID = trip
        waypoint.waypointType = type
        waypoint.pathToWaypoint = path
        waypoint.eta = eta
        return waypoint
    }
}
