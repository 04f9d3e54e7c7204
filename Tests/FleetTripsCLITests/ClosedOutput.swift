import FleetTripsInput

@testable import FleetTripsCLI

/// An output whose reader has gone, as standard output is after `| head -1` took its line: every
/// write fails as writing to a closed pipe does.
struct ClosedOutput: ByteSink {
    /// Fails with ``FleetTripsError/Code/unwritableOutput``.
    mutating func write(_ bytes: [UInt8]) throws(FleetTripsError) {
        throw FleetTripsError(code: .unwritableOutput, message: "cannot write to standard output: Broken pipe")
    }
}
