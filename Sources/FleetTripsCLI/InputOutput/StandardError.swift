import FleetTripsInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard error, where the client commands report a failed call, written
/// unbuffered like ``StandardOutput``.
struct StandardError: ByteSink, Sendable {
    /// Standard error.
    init() {}

    /// Writes all of `bytes`, retrying after interrupted and partial writes.
    mutating func write(_ bytes: [UInt8]) throws(FleetTripsError) {
        try writeAll(bytes, to: STDERR_FILENO, named: "standard error")
    }
}
