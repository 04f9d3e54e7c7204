/// The gate's command line, read without swift-argument-parser so that the gate builds little
/// beyond the modules it measures:
///
///     AllocationGate --thresholds DIR [--write-thresholds] [OPERATION ...]
///     AllocationGate --serve-emulator
struct GateArguments {
    /// What the process does.
    enum Mode: Equatable {
        /// Measure and compare with the thresholds.
        case check
        /// Measure and write the thresholds.
        case writeThresholds
        /// Be the emulator process of the networked operations (``GateEmulator``).
        case serveEmulator
    }

    var mode = Mode.check
    /// The folder of the threshold files, `Benchmarks/Thresholds/<Swift version>`.
    var thresholds: String?
    /// The operations to measure; all of them when none are named.
    var operations: [GatedOperation] = []

    static let usage = """
        usage: AllocationGate --thresholds DIR [--write-thresholds] [OPERATION ...]
        operations: \(GatedOperation.allCases.map(\.rawValue).joined(separator: ", "))
        """

    /// Reads `arguments` (without the executable's name).
    init(_ arguments: [String]) throws(AllocationGateError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--serve-emulator":
                mode = .serveEmulator
            case "--write-thresholds":
                mode = .writeThresholds
            case "--thresholds":
                guard let folder = remaining.popFirst() else {
                    throw AllocationGateError("--thresholds needs a folder\n" + Self.usage)
                }
                thresholds = folder
            default:
                guard let operation = GatedOperation(rawValue: argument) else {
                    throw AllocationGateError("unknown argument \(argument)\n" + Self.usage)
                }
                operations.append(operation)
            }
        }
        if mode != .serveEmulator, thresholds == nil {
            throw AllocationGateError("--thresholds is required\n" + Self.usage)
        }
        if operations.isEmpty { operations = GatedOperation.allCases }
    }
}
