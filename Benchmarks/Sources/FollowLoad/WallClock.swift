import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock (`CLOCK_REALTIME`), the clock Fleet Engine's timestamps are on.
enum WallClock {
    /// Now, in nanoseconds since the Unix epoch.
    static func nanosecondsSinceEpoch() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// How long ago `timestamp` was, in nanoseconds; negative when it lies in the future.
    static func age(of timestamp: Timestamp) -> Int64 {
        nanosecondsSinceEpoch() - (timestamp.seconds * 1_000_000_000 + Int64(timestamp.nanos))
    }
}
