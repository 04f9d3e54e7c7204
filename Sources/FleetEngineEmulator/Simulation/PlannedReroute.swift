/// A reroute the simulation is told to make: part way along a leg, the navigator replaces the rest of
/// the route with a different path to the same waypoint (the driver missed a turn, or avoids a jam).
public struct PlannedReroute: Sendable, Hashable {
    /// The leg: 0 is from the vehicle's start to the pickup, 1 from the pickup to the first intermediate
    /// destination (or the dropoff), and so on.
    public var leg: Int

    /// When to reroute, as the fraction of the leg's first route that the vehicle has driven since it
    /// left the leg's start; greater than 0 and less than 1. The reroute happens on the first location
    /// update at or after that point; if the vehicle reaches the waypoint first, there is none.
    public var fraction: Double

    /// A reroute on `leg` after `fraction` of it.
    public init(leg: Int, fraction: Double) {
        self.leg = leg
        self.fraction = fraction
    }
}
