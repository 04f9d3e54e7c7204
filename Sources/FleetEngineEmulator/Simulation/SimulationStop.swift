public import FleetEngineCodec

/// A place the vehicle stops at on the way: the pickup or an intermediate destination, and how long it
/// waits there before it drives on.
public struct SimulationStop: Sendable, Hashable {
    /// Where the stop is.
    public var point: LatLng

    /// How long the vehicle stands at the stop (status `ARRIVED_AT_PICKUP` or
    /// `ARRIVED_AT_INTERMEDIATE_DESTINATION`, speed 0) before it leaves.
    ///
    /// A wait shorter than the cadence's location interval is taken as one interval, so that the
    /// arrival status is always reported at least once.
    public var wait: Duration

    /// A stop at `point` with a wait.
    public init(point: LatLng, wait: Duration = .zero) {
        self.point = point
        self.wait = wait
    }
}
