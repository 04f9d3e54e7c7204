public import FleetEngineCodec

/// A stretch of slow traffic or a jam the simulation is told to put on a leg's first route for a while.
///
/// While it lasts, vehicles on the stretch move at a fraction of their free speed (half when `SLOW`,
/// a fifth in a `TRAFFIC_JAM`), and the reported traffic of every path that covers the stretch shows it.
/// The simulated navigator knows all traffic in advance, so its ETAs already account for it.
public struct PlannedTraffic: Sendable, Hashable {
    /// The leg, numbered as in ``PlannedReroute/leg``.
    public var leg: Int

    /// Where the stretch starts and ends, as fractions of the leg's first route; each is moved to the
    /// nearest vertex, so a stretch covers whole edges (at least one).
    public var stretch: ClosedRange<Double>

    /// How long after the vehicle leaves the leg's start the traffic appears.
    public var appearsAfter: Duration

    /// How long it lasts.
    public var lasts: Duration

    /// How fast it moves: `SLOW` or `TRAFFIC_JAM` (anything else counts as `SLOW`).
    public var speed: SpeedReadingInterval.Speed

    /// Traffic on `stretch` of `leg`, appearing `appearsAfter` the leg starts, for `lasts`.
    public init(
        leg: Int,
        stretch: ClosedRange<Double>,
        appearsAfter: Duration,
        lasts: Duration,
        speed: SpeedReadingInterval.Speed = .slow
    ) {
        self.leg = leg
        self.stretch = stretch
        self.appearsAfter = appearsAfter
        self.lasts = lasts
        self.speed = speed
    }
}
