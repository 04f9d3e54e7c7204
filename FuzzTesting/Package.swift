// swift-tools-version:6.1
// libFuzzer targets for the codec and the capture decoder, built with AddressSanitizer. See README.md.
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder can have any name.
let codecPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "main"

/// The capture decoder's library, which every capture fuzzer links.
let captureLibrary = Target.Dependency.product(name: "FleetEngineCapture", package: codecPackage)

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
        // What the capture fuzzers share: the capture-file checks, chunk sizes, reporting a finding.
        .target(name: "CaptureFuzzing", dependencies: [captureLibrary]),
        .executableTarget(name: "FuzzCaptureFile", dependencies: ["CLibFuzzer", "CaptureFuzzing"]),
        .executableTarget(name: "FuzzPcapNG", dependencies: ["CLibFuzzer", "CaptureFuzzing"]),
        .executableTarget(name: "FuzzTCPReassembly", dependencies: ["CLibFuzzer", "CaptureFuzzing", captureLibrary]),
        .executableTarget(name: "FuzzHTTP2Frames", dependencies: ["CLibFuzzer", "CaptureFuzzing", captureLibrary]),
    ],
    swiftLanguageModes: [.v6]
)
