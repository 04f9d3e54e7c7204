/// Why the benchmarks cannot start: a fixture is missing, or an implementation does not turn it
/// into the same message as the others (then comparing their times would be meaningless).
public struct BenchmarkSetupError: Error, CustomStringConvertible {
    /// What went wrong, naming the fixture and the implementation.
    public let description: String

    /// An error with this description.
    public init(_ description: String) {
        self.description = description
    }
}
