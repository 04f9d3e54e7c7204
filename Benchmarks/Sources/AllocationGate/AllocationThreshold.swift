import Foundation

/// A committed count: `Benchmarks/Thresholds/<Swift version>/<operation>.json`, as swift-nio
/// commits its benchmark thresholds, holding `{"mallocsPerOperation": N}`.
///
/// Changing one is a deliberate commit that says why the count moved (``AllocationGate``'s
/// `--write-thresholds` writes them).
struct AllocationThreshold: Codable, Equatable {
    /// Mallocs per operation, a whole number.
    var mallocsPerOperation: Int

    /// The file of `operation` in `directory`.
    static func file(of operation: GatedOperation, in directory: String) -> String {
        directory + "/" + operation.rawValue + ".json"
    }

    /// Reads the threshold of `operation` from `directory`.
    static func read(_ operation: GatedOperation, from directory: String) throws(AllocationGateError)
        -> AllocationThreshold
    {
        let path = file(of: operation, in: directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AllocationGateError(
                "no threshold for \(operation.rawValue): \(path) is missing; measure and write it with "
                    + "Scripts/check-allocations.sh --write-thresholds \(operation.rawValue)")
        }
        do {
            return try JSONDecoder().decode(AllocationThreshold.self, from: data)
        } catch {
            throw AllocationGateError(
                "\(path) is not {\"mallocsPerOperation\": <whole number>}: \(error)")
        }
    }

    /// Writes this threshold for `operation` into `directory`, made if missing, as pretty-printed
    /// JSON with a final newline.
    func write(_ operation: GatedOperation, to directory: String) throws(AllocationGateError) {
        let path = Self.file(of: operation, in: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            var data = try encoder.encode(self)
            data.append(UInt8(ascii: "\n"))
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw AllocationGateError("cannot write \(path): \(error)")
        }
    }
}
