// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package so that the main package never depends on
// swift-protobuf or the benchmark tool.
//
//     swift package --package-path Benchmarks benchmark
//
// BENCHMARKS.md at the repository root has the numbers and the exact command that made them.

// SwiftPM names a path dependency after its folder, and a clone's folder can have any name, so the
// name the products below refer to is read off the parent folder of this package.
let codecPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "main"

let package = Package(
    name: "swift-fleet-engine-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // apple/swift-protobuf's generated types for Protos/, made by Scripts/generate-benchmark-models.sh.
        .target(
            name: "SwiftProtobufModels",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        // protobuf-c called from C, with nothing of ours in between.
        .target(
            name: "CRawProtobufC",
            dependencies: [.product(name: "CFleetEngineProtos", package: codecPackage)]
        ),
        // Fixture loading and the check that every implementation reads the fixtures alike.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                "SwiftProtobufModels",
                "CRawProtobufC",
            ]
        ),
        // A plain loop over one operation, to run under `valgrind --tool=callgrind` or `perf`.
        .executableTarget(
            name: "CodecProfile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                "SwiftProtobufModels",
                "CRawProtobufC",
            ]
        ),
        // GetTrip through our client and through grpc-swift-2 with swift-protobuf, behind one protocol.
        .target(
            name: "ClientComparison",
            dependencies: [
                .product(name: "FleetEngineClient", package: codecPackage),
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                "SwiftProtobufModels",
            ]
        ),
        // Counts the process's allocations by defining malloc and friends in the executable.
        .target(name: "CMallocCounter"),
        // Closed-loop GetTrip load from one client against a server of the caller's (see
        // Scripts/client-load.py).
        .executableTarget(
            name: "ClientLoad",
            dependencies: [
                "ClientComparison",
                "CMallocCounter",
                "ProcessMeasures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // What a load generator measures of its own process.
        .target(name: "ProcessMeasures"),
        // One TripService following many simulated trips for half an hour or more while the emulator
        // (in process) injects faults: every trip completes, memory stays flat, no descriptor leaks
        // (see Scripts/follow-soak.sh).
        .executableTarget(
            name: "FollowSoak",
            dependencies: [
                "ProcessMeasures",
                .product(name: "TripTracking", package: codecPackage),
                .product(name: "FleetEngineClient", package: codecPackage),
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "FleetEngineEmulator", package: codecPackage),
                .product(name: "FleetEngineStatus", package: codecPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // One TripService following many trips of a simulating emulator: CPU, memory per trip and
        // location age (see Scripts/follow-load.py).
        .executableTarget(
            name: "FollowLoad",
            dependencies: [
                "ProcessMeasures",
                .product(name: "TripTracking", package: codecPackage),
                .product(name: "FleetEngineClient", package: codecPackage),
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "FleetEngineStatus", package: codecPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Mallocs per operation held to the committed thresholds in Thresholds/ (see
        // Scripts/check-allocations.sh). It depends on the modules it measures and nothing else, so
        // that CI builds neither swift-protobuf nor the benchmark tool for it.
        .executableTarget(
            name: "AllocationGate",
            dependencies: [
                "CMallocCounter",
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "FleetEngineStatus", package: codecPackage),
                .product(name: "FleetEngineClient", package: codecPackage),
                .product(name: "FleetEngineEmulator", package: codecPackage),
                .product(name: "FleetEngineCapture", package: codecPackage),
                .product(name: "TripTracking", package: codecPackage),
            ]
        ),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "FleetEngineCodec", package: codecPackage),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                "SwiftProtobufModels",
                "CRawProtobufC",
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
