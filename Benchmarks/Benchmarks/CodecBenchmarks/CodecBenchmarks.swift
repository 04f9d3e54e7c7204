import Benchmark
import BenchmarkSupport
import CRawProtobufC
import FleetEngineCodec
import Foundation
import SwiftProtobufModels

/// Every benchmark of the suite, registered when the benchmark tool starts this executable.
///
/// Each fixture is decoded and encoded by FleetEngineCodec, by apple/swift-protobuf's generated
/// types and by protobuf-c called from C; the typical and large trips are also printed as JSON by
/// both Swift libraries. Everything runs on one thread. Before anything is registered,
/// `FairnessCheck` proves that all implementations read each fixture as the same message.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    let fixtures: [BenchmarkFixture]
    do throws(BenchmarkSetupError) {
        fixtures = try BenchmarkFixture.loadAll()
        try FairnessCheck.verifyAll(fixtures, jsonLabels: CodecBenchmarks.jsonLabels)
    } catch {
        // A benchmark of implementations that disagree would measure nothing useful: stop loudly.
        FileHandle.standardError.write(Data("CodecBenchmarks cannot start: \(error)\n".utf8))
        exit(1)
    }

    for fixture in fixtures {
        switch fixture.message {
        case .trip:
            CodecBenchmarks.registerBinary(
                fixture,
                ours: Trip.self,
                theirs: Maps_Fleetengine_V1_Trip.self,
                kind: RAW_MESSAGE_TRIP
            )
            if CodecBenchmarks.jsonLabels.contains(fixture.label) {
                CodecBenchmarks.registerJSON(fixture, ours: Trip.self, theirs: Maps_Fleetengine_V1_Trip.self)
            }
        case .searchTripsResponse:
            CodecBenchmarks.registerBinary(
                fixture,
                ours: SearchTripsResponse.self,
                theirs: Maps_Fleetengine_V1_SearchTripsResponse.self,
                kind: RAW_MESSAGE_SEARCH_TRIPS_RESPONSE
            )
        }
    }
}

/// The registration of each group of benchmarks.
enum CodecBenchmarks {
    /// JSON printing is measured on the typical and the large trip, as the goals name them.
    static let jsonLabels: Set<String> = ["typical", "large"]

    /// The configuration for one fixture: a small trip takes about a microsecond, under the
    /// resolution that one timed iteration gives, so its iterations run a thousand operations each
    /// (report with `--scale` to see per-operation numbers).
    static func configuration(for fixture: BenchmarkFixture) -> Benchmark.Configuration {
        .init(scalingFactor: fixture.label == "small" ? .kilo : .one)
    }
}
