public import FleetEngineCodec

/// Something that happens to a simulated trip at a known moment, for tests and for features that
/// reason about a trip's future (trip following, navigation-style progress events).
///
/// Every event falls on a multiple of the cadence's location interval, and each is a route refresh:
/// the snapshot at `time` already shows it.
public struct SimulationEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The trip's status became this; `intermediateDestinationIndex` is the trip's
        /// `intermediate_destination_index` from then on.
        case statusChanged(TripStatus, intermediateDestinationIndex: Int32)

        /// The vehicle reached the waypoint at the end of `leg` (0 the pickup, then the intermediate
        /// destinations, last the dropoff); from this moment it is gone from `remaining_waypoints`.
        case waypointReached(WaypointType, leg: Int)

        /// The rest of the route on `leg` was replaced by a different path to the same waypoint.
        case rerouted(leg: Int)

        /// Slow traffic or a jam appeared on the route of `leg` (possibly behind the vehicle).
        case trafficAppeared(SpeedReadingInterval.Speed, leg: Int)

        /// Traffic on the route of `leg` cleared.
        case trafficCleared(leg: Int)
    }

    /// When, in simulated time since the start.
    public var time: Duration

    /// What.
    public var kind: Kind

    /// An event.
    public init(time: Duration, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The time and what happened, for test failures and logs.
    public var description: String {
        let what: String
        switch kind {
        case .statusChanged(let status, let index):
            what = "status \(status) (intermediate destination index \(index))"
        case .waypointReached(let type, let leg):
            what = "reached \(type) at the end of leg \(leg)"
        case .rerouted(let leg):
            what = "rerouted on leg \(leg)"
        case .trafficAppeared(let speed, let leg):
            what = "\(speed) traffic appeared on leg \(leg)"
        case .trafficCleared(let leg):
            what = "traffic cleared on leg \(leg)"
        }
        return "\(time): \(what)"
    }
}
