import Foundation
import Synchronization

/// What a test holds of a ``GatedOutput``: whether its writes may go on, and what was written.
final class OutputGate: Sendable {
    private struct State {
        var open = false
        var writesBegun = 0
        var written: [UInt8] = []
    }

    private let state = Mutex(State())

    /// Lets the writes waiting, and every later one, go on.
    func open() {
        state.withLock { $0.open = true }
    }

    /// How many writes have begun, whether or not they went on.
    var writesBegun: Int { state.withLock { $0.writesBegun } }

    /// Everything written so far, as text.
    var written: String { state.withLock { String(decoding: $0.written, as: UTF8.self) } }

    /// Waits, in 10 ms steps for at most a minute, until the gate is open, then keeps `bytes`.
    func write(_ bytes: [UInt8]) {
        state.withLock { $0.writesBegun += 1 }
        for _ in 0..<6_000 where !state.withLock({ $0.open }) {
            usleep(10_000)
        }
        state.withLock { $0.written += bytes }
    }
}
