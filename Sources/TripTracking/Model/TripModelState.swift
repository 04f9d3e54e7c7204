public import FleetEngineCodec

/// Where a ``TripModel`` is in its life.
public enum TripModelState: Sendable, Hashable {
    /// Nobody is registered: the trip is not fetched.
    case idle
    /// Registered subscribers or iterators are being sent the trip's changes.
    case following
    /// Following ended after delivering a trip in a final status (`COMPLETE` or `CANCELED`).
    case ended(TripStatus)
    /// The trip service stopped before the trip ended, or forgot the model
    /// (``TripService/forgetTripModel(for:)``).
    case stopped
}
