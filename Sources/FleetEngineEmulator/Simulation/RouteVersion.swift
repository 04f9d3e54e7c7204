/// One route a vehicle follows on a leg: the first from the leg's start, then one per reroute from
/// where the vehicle was when it was rerouted.
struct RouteVersion: Sendable, Hashable {
    let path: SimulatedPath

    /// Traffic on this path.
    let traffic: [TrafficStretch]

    /// The motion along the whole path, as if the vehicle kept to it to the end.
    let motion: MotionProfile

    /// When the vehicle starts to follow it (departure or reroute), in nanoseconds.
    let activeFrom: Int64

    /// When it stops following it: the next reroute, or the arrival.
    let activeUntil: Int64

    /// When the vehicle would be reported at the waypoint if it kept to this path: the navigator's
    /// ETA while this route is current. For the last route of a leg, the arrival.
    let plannedArrival: Int64

    /// Metres of the leg driven before this route began.
    let drivenBefore: Double

    /// The same route, followed until `instant`.
    func ending(at instant: Int64) -> RouteVersion {
        RouteVersion(
            path: path,
            traffic: traffic,
            motion: motion,
            activeFrom: activeFrom,
            activeUntil: instant,
            plannedArrival: plannedArrival,
            drivenBefore: drivenBefore
        )
    }

    /// Metres along this path at `instant`.
    func distance(at instant: Int64) -> Double {
        motion.distance(at: SimulationTime.seconds(instant))
    }
}
