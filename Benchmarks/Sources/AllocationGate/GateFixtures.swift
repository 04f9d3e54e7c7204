import FleetEngineCodec
import Foundation

/// The committed inputs the gate measures with, read from the main package's test fixtures (found
/// from this file's place: `Benchmarks/Sources/AllocationGate/`), so that the gate measures the
/// bytes the tests check.
struct GateFixtures {
    /// The codec's golden typical trip (`trip_typical.bin`, 4,476 bytes).
    let typicalTrip: [UInt8]
    /// The codec's golden large trip (`trip_large.bin`, 84,279 bytes).
    let largeTrip: [UInt8]
    /// A capture of Google's grpcio client calling a grpcio TripService (`grpcio-tripservice.pcap`).
    let capture: [UInt8]

    /// The repository the gate was built from.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AllocationGate
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()

    /// Reads every fixture.
    static func load() throws(AllocationGateError) -> GateFixtures {
        let golden = "Tests/FleetEngineCodecTests/Fixtures/golden/"
        return GateFixtures(
            typicalTrip: try read(golden + "trip_typical.bin"),
            largeTrip: try read(golden + "trip_large.bin"),
            capture: try read("Tests/FleetEngineCaptureTests/Fixtures/grpcio-tripservice.pcap"))
    }

    /// The typical trip as a value, for the emulator to serve.
    func decodedTypicalTrip() throws(AllocationGateError) -> Trip {
        do {
            return try Trip(serializedBytes: typicalTrip)
        } catch {
            throw AllocationGateError("the typical trip fixture does not decode: \(error)")
        }
    }

    private static func read(_ relativePath: String) throws(AllocationGateError) -> [UInt8] {
        let path = repository.appendingPathComponent(relativePath).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AllocationGateError("cannot read the fixture \(path)")
        }
        return [UInt8](data)
    }
}
