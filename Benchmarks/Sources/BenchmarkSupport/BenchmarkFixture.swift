import Foundation

/// One golden case from the codec tests, read from `Tests/FleetEngineCodecTests/Fixtures/golden`
/// so that the benchmarks measure exactly the bytes the tests check.
public struct BenchmarkFixture: Sendable {
    /// The top-level message a case holds.
    public enum Message: Sendable {
        /// `maps.fleetengine.v1.Trip`.
        case trip
        /// `maps.fleetengine.v1.SearchTripsResponse`.
        case searchTripsResponse
    }

    /// The short name used in benchmark names: `small`, `typical`, `large`, `search100`.
    public let label: String
    /// The case name in the golden manifest, e.g. `trip_typical`.
    public let caseName: String
    /// The message type of the case.
    public let message: Message
    /// The `.bin` file: Google's deterministic serialization.
    public let bytes: [UInt8]
    /// The `.json` file: Google's proto3 JSON printing.
    public let json: [UInt8]

    /// The cases the benchmarks measure, smallest first.
    public static let catalog: [(label: String, caseName: String, message: Message)] = [
        ("small", "trip_small", .trip),
        ("typical", "trip_typical", .trip),
        ("large", "trip_large", .trip),
        ("search100", "search_trips_response_100", .searchTripsResponse),
    ]

    /// The golden folder: `FLEET_ENGINE_GOLDEN_DIR` if set, else the main package's test fixtures,
    /// found from this file's place in the repository (`Benchmarks/Sources/BenchmarkSupport/`).
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["FLEET_ENGINE_GOLDEN_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // BenchmarkSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // the repository
            .appendingPathComponent("Tests/FleetEngineCodecTests/Fixtures/golden", isDirectory: true)
    }

    /// Reads every case in ``catalog``.
    public static func loadAll() throws(BenchmarkSetupError) -> [BenchmarkFixture] {
        try catalog.map { (entry) throws(BenchmarkSetupError) -> BenchmarkFixture in
            try load(label: entry.label, caseName: entry.caseName, message: entry.message)
        }
    }

    /// Reads the case of ``catalog`` with this label.
    public static func load(label: String) throws(BenchmarkSetupError) -> BenchmarkFixture {
        guard let entry = catalog.first(where: { $0.label == label }) else {
            let labels = catalog.map(\.label).joined(separator: ", ")
            throw BenchmarkSetupError("no fixture is labelled \(label); the labels are \(labels)")
        }
        return try load(label: entry.label, caseName: entry.caseName, message: entry.message)
    }

    private static func load(
        label: String,
        caseName: String,
        message: Message
    ) throws(BenchmarkSetupError) -> BenchmarkFixture {
        BenchmarkFixture(
            label: label,
            caseName: caseName,
            message: message,
            bytes: try read("\(caseName).bin"),
            json: try read("\(caseName).json")
        )
    }

    private static func read(_ name: String) throws(BenchmarkSetupError) -> [UInt8] {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BenchmarkSetupError(
                "cannot read fixture \(url.path); set FLEET_ENGINE_GOLDEN_DIR to the golden folder")
        }
        return [UInt8](data)
    }
}
