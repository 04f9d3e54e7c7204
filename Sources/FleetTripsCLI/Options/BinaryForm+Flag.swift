import ArgumentParser
import FleetTripsInput

/// The forms as `--raw`, `--base64` and `--hex` flags.
extension BinaryForm: EnumerableFlag {
    /// The help line of each flag.
    static func help(for value: BinaryForm) -> ArgumentHelp? {
        switch value {
        case .raw: "Binary as raw bytes."
        case .base64:
            "Binary as base64 text (read: standard or URL-safe alphabet, whitespace ignored; written: standard)."
        case .hex: "Binary as hex text (read: either case, whitespace ignored; written: lowercase)."
        }
    }
}
