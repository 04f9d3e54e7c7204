import BenchmarkSupport
import Foundation

/// A plain process around the benchmarks' operations, for what the benchmark tool does not do.
///
///     CodecProfile loop <decode|encode|json> <implementation> <fixture> [iterations]
///         repeats one operation, for `perf record` or `valgrind --tool=callgrind`;
///     CodecProfile compare <decode|encode|json> <fixture> [rounds]
///         times the implementations of one operation in alternation (see InterleavedComparison);
///     CodecProfile compare-all [rounds]
///         does that for every operation the benchmarks measure and prints a Markdown table.
///
/// Fixtures are `small`, `typical`, `large`, `search100`; implementations are `ours`,
/// `ours-string` (JSON as a String), `swift-protobuf`, `protobuf-c`, `protobuf-c-arena`.
/// Every run first checks, as the benchmarks do, that all implementations read the fixtures alike.
@main
struct CodecProfile {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "loop" where arguments.count == 4 || arguments.count == 5:
                try loop(arguments)
            case "compare" where arguments.count == 3 || arguments.count == 4:
                try compare(arguments)
            case "compare-all" where arguments.count <= 2:
                try compareAll(rounds: arguments.count == 2 ? try count(arguments[1]) : 300)
            default:
                fail(
                    """
                    usage: CodecProfile loop <decode|encode|json> <implementation> <fixture> [iterations]
                           CodecProfile compare <decode|encode|json> <fixture> [rounds]
                           CodecProfile compare-all [rounds]
                    """
                )
            }
        } catch {
            fail("CodecProfile: \(error)")
        }
    }

    static func loop(_ arguments: [String]) throws {
        let operation = try parse(Operation.self, arguments[1])
        let implementation = try parse(Implementation.self, arguments[2])
        let fixture = try checkedFixture(arguments[3])
        let iterations = arguments.count == 5 ? try count(arguments[4]) : 1000
        let measured = try MeasuredOperation(operation, implementation, fixture)
        var consumed = 0
        let start = ContinuousClock.now
        for _ in 0..<iterations {
            consumed &+= try measured.run()
        }
        let elapsed = ContinuousClock.now - start
        print("\(operation.rawValue) \(fixture.label) \(implementation.rawValue): \(iterations) iterations, \(elapsed)")
        print("consumed \(consumed)")
    }

    static func compare(_ arguments: [String]) throws {
        let operation = try parse(Operation.self, arguments[1])
        let fixture = try checkedFixture(arguments[2])
        let rounds = arguments.count == 4 ? try count(arguments[3]) : 300
        printTableHeader()
        try printComparison(operation, fixture, rounds: rounds)
    }

    static func compareAll(rounds: Int) throws {
        let fixtures = try BenchmarkFixture.loadAll()
        try FairnessCheck.verifyAll(fixtures, jsonLabels: ["typical", "large"])
        printTableHeader()
        for operation in Operation.allCases {
            for fixture in fixtures where operation != .json || ["typical", "large"].contains(fixture.label) {
                try printComparison(operation, fixture, rounds: rounds)
            }
        }
    }

    static func printTableHeader() {
        print(
            "| operation | fixture | implementation | median µs/op | p90 µs/op | × swift-protobuf (medians) | × swift-protobuf (paired) |"
        )
        print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    }

    /// One row per implementation. "Paired" is the median over rounds of swift-protobuf's batch
    /// time divided by this implementation's batch time in the same round.
    static func printComparison(_ operation: Operation, _ fixture: BenchmarkFixture, rounds: Int) throws {
        let operations = try Implementation.running(operation).map { try MeasuredOperation(operation, $0, fixture) }
        let (samples, consumed) = try InterleavedComparison(operations: operations).run(rounds: rounds)
        guard let baseline = samples.first(where: { $0.implementation == .swiftProtobuf }) else { return }
        for sample in samples {
            let ratios = zip(baseline.microseconds, sample.microseconds).map { $0 / $1 }.sorted()
            let paired = ratios.isEmpty ? 0 : ratios[ratios.count / 2]
            print(
                "| \(operation.rawValue) | \(fixture.label) | \(sample.implementation.rawValue) "
                    + "| \(format(sample.median)) | \(format(sample.percentile(0.9))) "
                    + "| \(format(baseline.median / sample.median)) | \(format(paired)) |"
            )
        }
        // Keeps every result alive for the optimizer without cluttering the table.
        if consumed == Int.min { print("") }
    }

    static func checkedFixture(_ label: String) throws -> BenchmarkFixture {
        let fixture = try BenchmarkFixture.load(label: label)
        try FairnessCheck.verifyAll([fixture], jsonLabels: [fixture.label])
        return fixture
    }

    static func parse<Value: RawRepresentable & CaseIterable>(
        _ type: Value.Type,
        _ text: String
    ) throws -> Value where Value.RawValue == String {
        guard let value = Value(rawValue: text) else {
            let choices = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw BenchmarkSetupError("'\(text)' is not one of \(choices)")
        }
        return value
    }

    static func count(_ text: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw BenchmarkSetupError("'\(text)' is not a positive count")
        }
        return value
    }

    static func format(_ value: Double) -> String {
        String(format: value < 100 ? "%.2f" : "%.0f", value)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
