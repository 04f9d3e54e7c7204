import FleetEngineCodec

extension RetryInfo {
    /// A RetryInfo asking the caller to wait `seconds` before calling again.
    ///
    /// - Parameter seconds: finite and 0 or more; the limiters that make one cap it, since
    ///   `Int64(_:)` traps on anything else.
    init(waitingSeconds seconds: Double) {
        var delay = ProtobufDuration()
        delay.seconds = Int64(seconds)
        delay.nanos = Int32((seconds - Double(Int64(seconds))) * 1e9)
        self.init()
        retryDelay = delay
    }
}
