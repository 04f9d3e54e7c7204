import FleetEngineStatus

/// Faults the emulator injects, for testing how a client copes: failures, latency, rate limits,
/// dropped connections and GOAWAY.
public struct FaultPlan: Sendable, Hashable {
    /// Fail every `failEvery`-th call (counting calls of all methods from 1) with ``failCode``,
    /// before it reaches the service. Nil never fails a call on purpose.
    public var failEvery: Int?
    /// The code of the injected failures.
    public var failCode: StatusCode = .unavailable
    /// Wait this long before answering each call.
    public var delay: Duration = .zero
    /// Calls per second allowed per token (per `authorization` value); over it, RESOURCE_EXHAUSTED
    /// with a RetryInfo saying when the next call will be accepted. Nil for no limit; NaN or a
    /// negative rate makes ``FleetEngineEmulator/init(configuration:time:)`` throw. The limiter
    /// keeps the buckets of at most 10,000 tokens that are not full again; past that it forgets the
    /// least recently used, whose next call then finds a full bucket.
    public var queriesPerSecond: Double?
    /// Close each connection abruptly (no GOAWAY) when its `n`-th call arrives, so that call is cut
    /// off mid-call and never answered. Nil never drops a connection.
    public var dropConnectionAtCall: Int?
    /// Send GOAWAY on each connection once it has been open this long (gRPC's max connection age);
    /// calls in flight may finish within ``goAwayGraceTime``. Nil for never.
    public var goAwayAfter: Duration?
    /// How long calls in flight may finish after a GOAWAY before the connection closes.
    public var goAwayGraceTime: Duration = .seconds(5)

    /// No faults.
    public init() {}
}
