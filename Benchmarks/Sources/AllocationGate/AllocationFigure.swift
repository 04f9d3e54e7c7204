/// How a per-operation count is printed and committed.
enum AllocationFigure {
    /// `measured` with one decimal, or as a whole number when it is one: averages over many calls
    /// carry a fraction, the codec's counts do not.
    static func text(_ measured: Double) -> String {
        let tenths = (measured * 10).rounded()
        if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int(tenths / 10)) }
        return String(Int(tenths) / 10) + "." + String(abs(Int(tenths) % 10))
    }

    /// The whole number committed as a threshold for `measured`.
    static func threshold(_ measured: Double) -> Int {
        Int(measured.rounded())
    }
}
