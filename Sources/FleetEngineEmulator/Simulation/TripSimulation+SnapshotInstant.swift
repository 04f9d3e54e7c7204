extension TripSimulation {
    /// The location update `elapsed` falls in (``trip(at:)`` reports the trip as of that update):
    /// between two updates, a simulated trip does not change.
    public func snapshotInstant(at elapsed: Duration) -> Duration {
        SimulationTime.duration(
            min(SimulationTime.floor(max(0, SimulationTime.nanoseconds(elapsed)), to: tick), completion))
    }
}
