// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "swift-fleet-engine",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FleetEngineCodec", targets: ["FleetEngineCodec"]),
        .library(name: "FleetEngineStatus", targets: ["FleetEngineStatus"]),
        .library(name: "FleetEngineGRPCCore", targets: ["FleetEngineGRPCCore"]),
        .library(name: "FleetEngineWire", targets: ["FleetEngineWire"]),
        .library(name: "FleetEngineAuth", targets: ["FleetEngineAuth"]),
        .library(name: "FleetEngineClient", targets: ["FleetEngineClient"]),
        .library(name: "FleetEngineEmulator", targets: ["FleetEngineEmulator"]),
        .library(name: "FleetEngineCapture", targets: ["FleetEngineCapture"]),
        .library(name: "TripTracking", targets: ["TripTracking"]),
        .library(name: "JourneySharing", targets: ["JourneySharing"]),
        // The protoc-c structs and functions, for benchmarks that call protobuf-c directly.
        .library(name: "CFleetEngineProtos", targets: ["CFleetEngineProtos"]),
        // Two small modules with no public API, products only so that FuzzTesting can drive them through
        // `@testable import` without building the emulator's or the command's dependencies: the
        // emulator's journal format, and the readers of the command's input.
        .library(name: "FleetEngineJournal", targets: ["FleetEngineJournal"]),
        .library(name: "FleetTripsInput", targets: ["FleetTripsInput"]),
        .executable(name: "fleettrips", targets: ["fleettrips"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CProtobufC",
            pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"]), .brew(["protobuf-c"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "CFleetEngineProtos",
            dependencies: ["CProtobufC"],
            exclude: ["README.md"]
        ),
        .target(
            name: "FleetEngineCodec",
            dependencies: ["CFleetEngineProtos", "CProtobufC"]
        ),
        .target(
            name: "FleetEngineStatus",
            dependencies: ["FleetEngineCodec"]
        ),
        // The bridge to grpc-swift-2, in a module of its own so that only its users build grpc-swift.
        .target(
            name: "FleetEngineGRPCCore",
            dependencies: [
                "FleetEngineCodec",
                "FleetEngineStatus",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
            ]
        ),
        .target(
            name: "FleetEngineWire",
            dependencies: ["FleetEngineCodec", "FleetEngineStatus", "CZlib"]
        ),
        // Fleet Engine's JWTs: service account keys, minting, verification. swift-crypto only, no NIO or gRPC.
        .target(
            name: "FleetEngineAuth",
            dependencies: [
                "FleetEngineCodec",
                "FleetEngineStatus",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "FleetEngineClient",
            dependencies: [
                "FleetEngineAuth",
                "FleetEngineCodec",
                "FleetEngineStatus",
                "FleetEngineWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The emulator's journal format: entries written and read back, with nothing of its server.
        .target(name: "FleetEngineJournal", dependencies: ["FleetEngineCodec"]),
        .target(
            name: "FleetEngineEmulator",
            dependencies: [
                "FleetEngineAuth",
                "FleetEngineJournal",
                "FleetEngineCodec",
                "FleetEngineStatus",
                "FleetEngineGRPCCore",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "FleetEngineCapture",
            dependencies: [
                "FleetEngineCodec", "FleetEngineStatus", "FleetEngineWire",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "TripTracking",
            dependencies: [
                "FleetEngineClient", "FleetEngineCodec", "FleetEngineStatus",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Followed trips as live web pages (journey sharing): the only module that builds an HTTP server.
        .target(
            name: "JourneySharing",
            dependencies: [
                "TripTracking", "FleetEngineCodec", "FleetEngineStatus",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Assets")]
        ),
        // The readers of the command's input (base64, hex, gRPC-framed streams) and the error its
        // commands fail with.
        .target(name: "FleetTripsInput", dependencies: ["FleetEngineCodec", "FleetEngineStatus", "FleetEngineWire"]),
        .target(
            name: "FleetTripsCLI",
            dependencies: [
                "FleetTripsInput",
                "FleetEngineAuth",
                "TripTracking",
                "FleetEngineCapture",
                "FleetEngineCodec",
                "FleetEngineStatus",
                "FleetEngineWire",
                "FleetEngineEmulator",
                "FleetEngineClient",
                "JourneySharing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "fleettrips",
            dependencies: ["FleetTripsCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // What several test targets share: hex and gRPC framing by hand, JSON compared by meaning,
        // sample google.rpc details, an emulator with a client of ours on loopback, a serial executor.
        .target(
            name: "FleetEngineTestSupport",
            dependencies: [
                "FleetEngineAuth",
                "FleetEngineClient",
                "FleetEngineCodec",
                "FleetEngineEmulator",
                "FleetEngineStatus",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Tests/FleetEngineTestSupport"
        ),
        .testTarget(
            name: "FleetEngineCodecTests",
            dependencies: ["FleetEngineCodec", "CFleetEngineProtos", "FleetEngineTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FleetEngineStatusTests",
            dependencies: ["FleetEngineStatus", "FleetEngineCodec", "FleetEngineTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FleetEngineGRPCCoreTests",
            dependencies: [
                "FleetEngineGRPCCore", "FleetEngineStatus", "FleetEngineCodec", "FleetEngineTestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
            ]
        ),
        .testTarget(
            name: "FleetEngineAuthTests",
            dependencies: [
                "FleetEngineAuth", "FleetEngineCodec", "FleetEngineStatus", "FleetEngineTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FleetEngineEmulatorTests",
            dependencies: [
                "FleetEngineAuth",
                "FleetEngineEmulator",
                "FleetEngineJournal",
                "FleetEngineCodec",
                "FleetEngineStatus",
                "FleetEngineGRPCCore",
                "FleetEngineTestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FleetEngineWireTests",
            dependencies: ["FleetEngineWire", "FleetEngineStatus", "FleetEngineCodec", "FleetEngineTestSupport"]
        ),
        .testTarget(
            name: "FleetEngineClientTests",
            dependencies: [
                "FleetEngineAuth",
                "FleetEngineClient",
                "FleetEngineEmulator",
                "FleetEngineCodec",
                "FleetEngineStatus",
                "FleetEngineWire",
                "FleetEngineTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FleetEngineCaptureTests",
            dependencies: [
                "FleetEngineCapture", "FleetEngineCodec", "FleetEngineStatus", "FleetEngineWire",
                "FleetEngineTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // Seals the TLS records of synthetic captures with keys the tests choose.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TripTrackingTests",
            dependencies: [
                "TripTracking", "FleetEngineAuth", "FleetEngineClient", "FleetEngineEmulator", "FleetEngineStatus",
                "FleetEngineCodec",
                "FleetEngineWire", "FleetEngineTestSupport", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JourneySharingTests",
            dependencies: [
                "JourneySharing", "TripTracking", "FleetEngineClient", "FleetEngineCodec", "FleetEngineEmulator",
                "FleetEngineStatus", "FleetEngineTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FleetTripsCLITests",
            dependencies: [
                "FleetTripsCLI", "FleetTripsInput", "FleetEngineAuth", "FleetEngineCapture", "FleetEngineEmulator",
                "FleetEngineStatus",
                "FleetEngineCodec",
                "FleetEngineWire", "FleetEngineClient", "TripTracking", "FleetEngineTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift target is explicit about what it uses: an existential is spelled `any`, and an import
// is internal unless it says `public import`, so a module's public surface names the modules it
// exposes. (MemberImportVisibility is left off: which module owns a C type such as `timespec`,
// Glibc or CoreFoundation, differs between debug and release builds on Linux, so a file that
// imports one fails to build in the other configuration.)
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
