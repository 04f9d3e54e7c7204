/// How far a measured count may rise above its committed threshold before the gate fails, and how
/// far it may fall below before the gate suggests lowering the threshold. Stated here only;
/// BENCHMARKS.md quotes it.
///
/// 2 % of the threshold or 1 allocation, whichever is larger, for every operation; the networked
/// operations (``GatedOperation/isNetworked``) get 2 allocations at least, since a timer or window
/// update may land inside the measured calls in one run and outside them in the next. Counts do not
/// depend on the machine's speed, so a rise beyond this is a change of code (ours, a dependency's
/// or the compiler's), never noise.
enum AllocationTolerance {
    /// The share of the threshold allowed either way.
    static let relative = 0.02
    /// The fewest allocations allowed either way.
    static let minimum = 1.0
    /// The fewest allocations allowed either way for an operation over loopback.
    static let minimumNetworked = 2.0

    /// The allowance either way around `threshold` for `operation`.
    static func allowance(for threshold: Int, of operation: GatedOperation) -> Double {
        max(Double(threshold) * relative, operation.isNetworked ? minimumNetworked : minimum)
    }

    /// The rule in words, for the report.
    static var statement: String {
        "tolerance either way: \(Int(relative * 100)) % of the threshold or \(Int(minimum)) allocation, "
            + "whichever is larger (\(Int(minimumNetworked)) at least over loopback); above fails, below notes"
    }
}
