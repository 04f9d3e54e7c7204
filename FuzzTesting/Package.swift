// swift-tools-version:6.1
// libFuzzer targets for the codec, built with AddressSanitizer. See README.md.
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [.package(path: "../")],
    targets: [
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "FuzzDecode",
            dependencies: ["CLibFuzzer", .product(name: "FleetEngineCodec", package: "main")]
        ),
        // Not a fuzzer: reads the fuzzer's corpus for Scripts/differential-check.py (no sanitizers).
        .executableTarget(
            name: "DifferentialDecode",
            dependencies: [.product(name: "FleetEngineCodec", package: "main")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
