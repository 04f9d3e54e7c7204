extension Timestamp: Comparable {
    /// A timestamp of a number of seconds and nanoseconds since the Unix epoch.
    public init(seconds: Int64, nanos: Int32) {
        self.init()
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Orders timestamps by time (seconds, then nanoseconds).
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}
