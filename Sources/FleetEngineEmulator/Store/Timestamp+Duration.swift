import FleetEngineCodec

extension Timestamp {
    /// The time from `earlier` to this timestamp.
    func duration(since earlier: Timestamp) -> Duration {
        .seconds(seconds - earlier.seconds) + .nanoseconds(Int64(nanos) - Int64(earlier.nanos))
    }
}
