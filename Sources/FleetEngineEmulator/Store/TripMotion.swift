public import FleetEngineCodec

/// Something that moves a trip on its own: given the simulated time since it started, the whole
/// trip as the server would hold it then (without version fields; the store sets those).
public protocol TripMotion: Sendable {
    /// The trip `elapsed` after the motion started.
    func trip(at elapsed: Duration) -> Trip

    /// The instant whose state ``trip(at:)`` returns for `elapsed`: a motion that changes only in
    /// steps returns the start of the step, so the store can skip rebuilding a trip that cannot
    /// have changed. By default, `elapsed` itself (every instant may differ).
    func snapshotInstant(at elapsed: Duration) -> Duration
}

extension TripMotion {
    public func snapshotInstant(at elapsed: Duration) -> Duration { elapsed }
}
