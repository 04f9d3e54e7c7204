// swift-tools-version:6.1
// libFuzzer targets for the codec, built with AddressSanitizer. See README.md.
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder can have any name.
let codecPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "main"

let package = Package(
    name: "FuzzTesting",
    dependencies: [.package(path: "../")],
    targets: [
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "FuzzDecode",
            dependencies: ["CLibFuzzer", .product(name: "FleetEngineCodec", package: codecPackage)]
        ),
        // Not a fuzzer: reads the fuzzer's corpus for Scripts/differential-check.py (no sanitizers).
        .executableTarget(
            name: "DifferentialDecode",
            dependencies: [.product(name: "FleetEngineCodec", package: codecPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
