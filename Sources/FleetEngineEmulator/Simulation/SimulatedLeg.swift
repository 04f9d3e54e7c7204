import FleetEngineCodec

/// One leg of a simulated trip: from the vehicle's start or a stop to the next waypoint.
struct SimulatedLeg: Sendable, Hashable {
    /// The waypoint at the end.
    let destination: LatLng

    /// What kind of waypoint it is.
    let waypointType: WaypointType

    /// When the vehicle sets off, in nanoseconds.
    let departure: Int64

    /// The routes it follows, in order; the first starts at `departure`, each later one at a reroute.
    let versions: [RouteVersion]

    /// When the vehicle is reported at the waypoint.
    let arrival: Int64

    /// How long it waits there before the next leg's departure; 0 at the dropoff.
    let wait: Int64

    /// The route current at `instant` (the first before departure).
    func version(at instant: Int64) -> RouteVersion? {
        versions.last { $0.activeFrom <= instant } ?? versions.first
    }

    /// The leg's first route: what the navigator plans before the vehicle sets off.
    var plannedRoute: RouteVersion? { versions.first }

    /// How long the first route takes, from departure to arrival.
    var plannedDuration: Int64 {
        (plannedRoute?.plannedArrival ?? arrival) - departure
    }
}
