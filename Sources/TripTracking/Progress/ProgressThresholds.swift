/// How much the remaining time and distance must change before a ``TripProgressMonitor`` reports
/// them again (the Navigation SDK's `timeUpdateThreshold` and `distanceUpdateThreshold`).
public struct ProgressThresholds: Sendable, Hashable {
    /// Seconds; a remaining time is reported when it differs from the last one reported by at least
    /// this much. 1 s by default. Zero or less, or not a number: every change is reported;
    /// infinity: only the first remaining time.
    public var timeUpdateThreshold: Double
    /// Metres; a remaining distance is reported when it differs from the last one reported by at
    /// least this much. 1 m by default. Zero or less, or not a number: every change is reported;
    /// infinity: only the first remaining distance.
    public var distanceUpdateThreshold: Double

    /// Thresholds from their parts.
    public init(timeUpdateThreshold: Double = 1, distanceUpdateThreshold: Double = 1) {
        self.timeUpdateThreshold = timeUpdateThreshold
        self.distanceUpdateThreshold = distanceUpdateThreshold
    }
}
