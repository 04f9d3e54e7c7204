public import FleetEngineStatus

/// Faults the emulator injects, for testing how a client copes: failures, latency, rate limits,
/// dropped connections and GOAWAY.
public struct FaultPlan: Sendable, Hashable {
    /// Fail every `failEvery`-th call (counting calls of all methods from 1) with ``failCode``,
    /// before it reaches the service. Nil never fails a call on purpose; 0 or less is refused.
    public var failEvery: Int?
    /// The code of the injected failures.
    public var failCode: StatusCode = .unavailable
    /// Wait this long before answering each call. A call cancelled during the wait (its client
    /// reset the stream or its deadline passed, or the emulator is shutting down) ends there and is
    /// not carried out.
    public var delay: Duration = .zero
    /// Delay only every `delayEvery`-th call (counting as ``failEvery`` does) by ``delay``; nil
    /// delays every call. 0 or less is refused.
    public var delayEvery: Int?
    /// Calls per second allowed per token (per `authorization` value); over it, RESOURCE_EXHAUSTED
    /// with a RetryInfo saying when the next call will be accepted. Nil for no limit; NaN or a
    /// negative rate makes ``FleetEngineEmulator/init(configuration:time:logger:)`` throw. The limiter
    /// keeps the buckets of at most 10,000 tokens that are not full again; past that it forgets the
    /// least recently used, whose next call then finds a full bucket.
    public var queriesPerSecond: Double?
    /// Close each connection abruptly (no GOAWAY) when its `n`-th call arrives, so that call is cut
    /// off mid-call and never answered. Nil never drops a connection.
    public var dropConnectionAtCall: Int?
    /// Send GOAWAY on each connection once it has been open this long (gRPC's max connection age);
    /// calls in flight may finish within ``goAwayGraceTime``. Nil for never. Each connection looks
    /// at the plan at least once a second, so a plan set while the emulator runs
    /// (``FleetEngineEmulator/setFaultPlan(_:)``) applies to the connections already open.
    public var goAwayAfter: Duration?
    /// How long calls in flight may finish after a GOAWAY before the connection is closed.
    public var goAwayGraceTime: Duration = .seconds(5)

    /// No faults.
    public init() {}

    /// What makes the plan meaningless, or nil: a setting no fault can come of, said with its
    /// value, for ``FleetEngineEmulator/init(configuration:time:logger:)`` to refuse at once rather than
    /// trap or do nothing at a call.
    var problem: String? {
        // NaN would reach the limiter's RetryInfo as Int64(NaN) and trap at the first refused call.
        if let rate = queriesPerSecond, !(rate >= 0) {
            return
                "the fault plan's queriesPerSecond is \(rate); a rate limit is a number of calls per second, 0 or more"
        }
        if let every = failEvery, every < 1 {
            return "the fault plan's failEvery is \(every); one call in every n fails, so n is 1 or more"
        }
        if let call = dropConnectionAtCall, call < 1 {
            return "the fault plan's dropConnectionAtCall is \(call); a connection's calls are counted from 1"
        }
        if let age = goAwayAfter, age <= .zero {
            return "the fault plan's goAwayAfter is \(age); a connection's age for GOAWAY is above zero"
        }
        if goAwayGraceTime < .zero {
            return "the fault plan's goAwayGraceTime is \(goAwayGraceTime); a grace time is zero or more"
        }
        if let every = delayEvery, every < 1 {
            return "the fault plan's delayEvery is \(every); one call in every n waits, so n is 1 or more"
        }
        if delay < .zero {
            return "the fault plan's delay is \(delay); a delay is zero or more"
        }
        return nil
    }
}
