#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard error, where the client commands report a failed call, written
/// unbuffered like ``StandardOutput``.
public struct StandardError: ByteSink, Sendable {
    /// Standard error.
    public init() {}

    /// Writes all of `bytes`, retrying after interrupted and partial writes.
    public mutating func write(_ bytes: [UInt8]) throws(FleetTripsError) {
        try writeAll(bytes, to: STDERR_FILENO, named: "standard error")
    }
}
