@testable import FleetTripsCLI

/// An output whose writes wait until the test opens its gate, as standard output does when the
/// reader of its pipe stops reading.
struct GatedOutput: ByteSink {
    /// Where the writes wait and what they wrote.
    let gate: OutputGate

    /// Waits for the gate (a minute at most), then keeps `bytes`.
    mutating func write(_ bytes: [UInt8]) {
        gate.write(bytes)
    }
}
