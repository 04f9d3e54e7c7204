import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the emulator and Fleet Engine tokens read the time: the wall clock, or a clock a test moves
/// by hand.
public protocol TimeSource: Sendable {
    /// The current time.
    func now() -> Timestamp
}

/// The system's wall clock (`CLOCK_REALTIME`).
public struct SystemTimeSource: TimeSource {
    /// The wall clock.
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var stamp = Timestamp()
        stamp.seconds = Int64(spec.tv_sec)
        stamp.nanos = Int32(spec.tv_nsec)
        return stamp
    }
}

/// A clock that stands still until a test moves it, so every version and every simulated position
/// is exact.
public final class ManualTimeSource: TimeSource {
    private let current: Mutex<Timestamp>

    /// A clock showing `start`.
    public init(start: Timestamp) {
        current = Mutex(start)
    }

    public func now() -> Timestamp {
        current.withLock { $0 }
    }

    /// Moves the clock forward (or back, for a negative duration).
    public func advance(by duration: Duration) {
        current.withLock { stamp in
            let (seconds, attoseconds) = duration.components
            var nanos = Int64(stamp.nanos) + attoseconds / 1_000_000_000
            var wholeSeconds = stamp.seconds + seconds + nanos / 1_000_000_000
            nanos %= 1_000_000_000
            if nanos < 0 {
                nanos += 1_000_000_000
                wholeSeconds -= 1
            }
            stamp.seconds = wholeSeconds
            stamp.nanos = Int32(nanos)
        }
    }

    /// Sets the clock.
    public func set(_ stamp: Timestamp) {
        current.withLock { $0 = stamp }
    }
}
