import FleetTripsInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes its output: standard output when run, an array in tests.
protocol ByteSink {
    /// Writes `bytes` after everything written before.
    ///
    /// - Throws: ``FleetTripsError/Code/unwritableOutput`` when the bytes cannot be written.
    mutating func write(_ bytes: [UInt8]) throws(FleetTripsError)
}

extension Array: ByteSink where Element == UInt8 {
    /// Appends `bytes`.
    mutating func write(_ bytes: [UInt8]) {
        append(contentsOf: bytes)
    }
}

/// The process's standard output, written unbuffered so each message appears as soon as it is
/// ready (a stream being decoded from a pipe shows its messages one by one).
struct StandardOutput: ByteSink, Sendable {
    /// Standard output.
    init() {}

    /// Writes all of `bytes`, retrying after interrupted and partial writes.
    mutating func write(_ bytes: [UInt8]) throws(FleetTripsError) {
        try writeAll(bytes, to: STDOUT_FILENO, named: "standard output")
    }
}

/// Writes all of `bytes` to `descriptor`, retrying after interrupted and partial writes.
///
/// - Throws: ``FleetTripsError/Code/unwritableOutput`` with the system's reason, naming the output.
func writeAll(_ bytes: [UInt8], to descriptor: Int32, named name: String) throws(FleetTripsError) {
    var written = 0
    while written < bytes.count {
        let result = bytes[written...].withUnsafeBytes { buffer in
            #if canImport(Darwin)
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
            #elseif canImport(Musl)
                Musl.write(descriptor, buffer.baseAddress, buffer.count)
            #else
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            #endif
        }
        if result < 0 {
            let error = errno
            if error == EINTR { continue }
            throw FleetTripsError(
                code: .unwritableOutput, message: "cannot write to \(name): " + String(cString: strerror(error)))
        }
        written += result
    }
}
