// swift-tools-version:6.1
// libFuzzer targets for the codec, the capture decoder and the gRPC wire layer, built with AddressSanitizer.
// See README.md.
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder can have any name.
let codecPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "main"

/// The capture decoder's library, which every capture fuzzer links.
let captureLibrary = Target.Dependency.product(name: "FleetEngineCapture", package: codecPackage)

/// The gRPC wire layer and the status it reads, which the wire fuzzers drive.
let wireLibrary = Target.Dependency.product(name: "FleetEngineWire", package: codecPackage)
let statusLibrary = Target.Dependency.product(name: "FleetEngineStatus", package: codecPackage)

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(path: "../"),
        // The TLS fuzzer seals the records it feeds the decoder with the AEADs and key schedule of
        // the suites it reads.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
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
        .executableTarget(name: "FuzzTLSKeyLog", dependencies: ["CLibFuzzer", "CaptureFuzzing", captureLibrary]),
        .executableTarget(
            name: "FuzzTLSRecords",
            dependencies: [
                "CLibFuzzer", "CaptureFuzzing", captureLibrary, .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What the gRPC wire fuzzers share: the script an input is read as, playing it cut three ways.
        .target(name: "WireFuzzing", dependencies: ["CLibFuzzer", "CaptureFuzzing", wireLibrary, statusLibrary]),
        .executableTarget(
            name: "FuzzGRPCResponse",
            dependencies: ["CaptureFuzzing", "WireFuzzing", wireLibrary, statusLibrary]
        ),
        .executableTarget(
            name: "FuzzGRPCRequest", dependencies: ["CaptureFuzzing", "WireFuzzing", wireLibrary]
        ),
    ],
    swiftLanguageModes: [.v6]
)
