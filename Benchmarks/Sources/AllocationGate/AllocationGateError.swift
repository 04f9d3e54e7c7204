/// Why the gate could not measure or judge: a fixture, a threshold file or the emulator process,
/// named in the message. A count above its threshold is not an error but a verdict
/// (``AllocationVerdict``).
struct AllocationGateError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
