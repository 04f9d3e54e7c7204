public import FleetEngineCodec

/// How a ``TripModel`` follows its trip. Change them while it runs with ``TripModel/options``.
public struct TripModelOptions: Sendable, Hashable {
    /// How long after one refresh began the next one begins (the Consumer SDK's
    /// `autoRefreshTimeInterval`); 5 seconds by default. A change takes effect at once: a model
    /// waiting out a longer interval refreshes as soon as the new one has passed. Zero or less:
    /// each refresh begins as soon as the one before has ended. Centuries (any length a `Duration`
    /// holds): the trip is refreshed only when ``TripModel/refresh()`` asks. After a failed refresh
    /// the wait is counted from the failure, and is at least 100 ms.
    public var autoRefreshTimeInterval: Duration
    /// The wait before the refresh after a server or network failure (already retried by the client
    /// within its deadline), counted from when the failure arrived; it doubles with each further
    /// such failure in a row, with ±20 % jitter, past ``autoRefreshTimeInterval`` if need be, up to
    /// a minute or the interval, whichever is longer. A success brings back the interval. Half a
    /// second by default.
    public var serverFailureRetryDelay: Duration
    /// The GetTrip view asked for; `JOURNEY_SHARING_V1S` is meant for consumers.
    public var view: TripView
    /// How many events one ``TripModel/updates`` iterator may have waiting before the sequence ends
    /// with RESOURCE_EXHAUSTED instead of growing without bound; 10,000 by default.
    public var updatesBufferLimit: Int

    /// Options from their parts.
    public init(
        autoRefreshTimeInterval: Duration = .seconds(5),
        serverFailureRetryDelay: Duration = .milliseconds(500),
        view: TripView = .unspecified,
        updatesBufferLimit: Int = 10_000
    ) {
        self.autoRefreshTimeInterval = autoRefreshTimeInterval
        self.serverFailureRetryDelay = serverFailureRetryDelay
        self.view = view
        self.updatesBufferLimit = updatesBufferLimit
    }
}
