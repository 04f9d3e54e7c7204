public import FleetEngineClient

/// How tests set up a client of ours for a server of theirs on 127.0.0.1.
public enum LoopbackClient {
    /// The deadline of calls in tests that are not about deadlines. The whole suite runs at once on
    /// two cores, and each step of a call waits its turn behind a thousand other tests' work: on a
    /// loaded machine a call that takes a millisecond alone has taken over 15 s (the client's
    /// default deadline). Long enough that no such call misses it; short enough that a hang ends.
    public static let callDeadline: Duration = .seconds(300)

    /// ``callDeadline`` from now: a deadline made at each use, as a test may start long after another.
    public static var farDeadline: ContinuousClock.Instant { .now + callDeadline }

    /// A plaintext configuration for a server on 127.0.0.1 at `port`, with ``callDeadline``.
    public static func configuration(port: Int) -> ClientConfiguration {
        var configuration = ClientConfiguration.plaintext(port: port)
        configuration.defaultDeadline = callDeadline
        return configuration
    }
}
