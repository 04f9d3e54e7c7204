#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time this process has used so far, all threads, user and system.
public enum ProcessCPUTime {
    /// The CPU time so far, from `getrusage`.
    public static func now() -> Duration {
        var usage = rusage()
        #if canImport(Glibc)
            // Glibc imports RUSAGE_SELF as a member of an enum, not as the Int32 getrusage takes.
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    private static func duration(_ time: timeval) -> Duration {
        .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }
}
