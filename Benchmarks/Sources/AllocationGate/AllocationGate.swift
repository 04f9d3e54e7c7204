import Foundation

/// Measures mallocs per operation and holds each to its committed threshold (BENCHMARKS.md,
/// "Allocation gates"); `.ci/run` runs it through `Scripts/check-allocations.sh`.
///
///     AllocationGate --thresholds Benchmarks/Thresholds/6.3              # check every operation
///     AllocationGate --thresholds Benchmarks/Thresholds/6.3 --write-thresholds followed-trip-refresh
///
/// Exit status: 0 when every count is within its tolerance (a count well below its threshold only
/// prints a note), 1 when one rose above, 2 when the gate could not measure or read a threshold.
/// Counts are only meaningful from a release build: a debug build allocates where the optimizer
/// would not.
@main
enum AllocationGate {
    static func main() async {
        do {
            let arguments = try GateArguments(Array(CommandLine.arguments.dropFirst()))
            if arguments.mode == .serveEmulator {
                try await GateEmulator.serve()
                return
            }
            let passed = try await run(arguments)
            exit(passed ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("AllocationGate: \(error)\n".utf8))
            exit(2)
        }
    }

    /// Measures the operations asked for, then checks or writes their thresholds; returns whether
    /// every count is within its tolerance.
    private static func run(_ arguments: GateArguments) async throws -> Bool {
        guard MallocMeasurement.isCounting else {
            throw AllocationGateError(
                "mallocs are not counted on this platform (CMallocCounter needs Linux with glibc)")
        }
        let directory = arguments.thresholds ?? ""
        let fixtures = try GateFixtures.load()
        var emulator: EmulatorProcess?
        defer { emulator?.stop() }
        // The emulator process starts only when a networked operation is asked for.
        func emulatorPort() throws(AllocationGateError) -> Int {
            if let emulator { return emulator.port }
            let started = try EmulatorProcess()
            emulator = started
            return started.port
        }

        print("mallocs per operation; thresholds in \(directory); \(AllocationTolerance.statement)")
        var passed = true
        for operation in arguments.operations {
            let measured: Double
            switch operation {
            case .decodeTypicalTrip: measured = try CodecAllocations.decode(fixtures.typicalTrip, operation)
            case .decodeLargeTrip: measured = try CodecAllocations.decode(fixtures.largeTrip, operation)
            case .encodeTypicalTrip: measured = try CodecAllocations.encode(fixtures.typicalTrip, operation)
            case .encodeLargeTrip: measured = try CodecAllocations.encode(fixtures.largeTrip, operation)
            case .jsonTypicalTrip: measured = try CodecAllocations.json(fixtures.typicalTrip, operation)
            case .jsonLargeTrip: measured = try CodecAllocations.json(fixtures.largeTrip, operation)
            case .clientGetTrip: measured = try await ClientCallAllocations.perCall(port: try emulatorPort())
            case .followedTripRefresh: measured = try await RefreshAllocations.perRefresh(port: try emulatorPort())
            case .captureMessage: measured = try CaptureAllocations.perMessage(fixtures.capture)
            }
            switch arguments.mode {
            case .writeThresholds:
                let threshold = AllocationThreshold(mallocsPerOperation: AllocationFigure.threshold(measured))
                try threshold.write(operation, to: directory)
                print(
                    "wrote \(operation.rawValue): \(threshold.mallocsPerOperation) "
                        + "(measured \(AllocationFigure.text(measured))): \(operation.summary)")
            case .check, .serveEmulator:
                let threshold = try AllocationThreshold.read(operation, from: directory)
                let verdict = AllocationVerdict(measured: measured, threshold: threshold, operation: operation)
                if verdict == .aboveThreshold { passed = false }
                print(AllocationVerdict.line(verdict, operation: operation, measured: measured, threshold: threshold))
            }
        }
        if !passed {
            print("allocation gate failed: a count rose above its threshold (BENCHMARKS.md, \"Allocation gates\")")
        }
        return passed
    }
}
