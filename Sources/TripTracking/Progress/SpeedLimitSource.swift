public import FleetEngineCodec

/// Where a ``TripProgressMonitor`` learns the speed limit at the vehicle's position. Fleet Engine
/// sends none, so speeding events come only with a source of yours (a roads API, a map of your own).
///
/// Called on the refresh of the trip, once per new vehicle location: answer from memory or a cache,
/// not over the network.
public protocol SpeedLimitSource: Sendable {
    /// The speed limit, in metres per second, at `location` travelling at `bearing` (degrees from
    /// north, when known); nil when unknown.
    func speedLimit(at location: LatLng, bearing: Double?) -> Double?
}
