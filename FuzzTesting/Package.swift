// swift-tools-version:6.1
// libFuzzer targets for the codec, the capture decoder, the gRPC wire layer and the parsers of tokens, names,
// header values, the emulator's journal and the command line's input, built with AddressSanitizer.
// See README.md.
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder can have any name.
let codecPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "main"

/// The capture decoder's library, which every capture fuzzer links.
let captureLibrary = Target.Dependency.product(name: "FleetEngineCapture", package: codecPackage)

/// The gRPC wire layer and the status it reads, which the wire fuzzers drive.
let wireLibrary = Target.Dependency.product(name: "FleetEngineWire", package: codecPackage)
let statusLibrary = Target.Dependency.product(name: "FleetEngineStatus", package: codecPackage)

/// Fuzzers of one module's parsers each, with the first byte choosing among related ones.
func parserFuzzer(_ name: String, _ products: [String], extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["CaptureFuzzing"] + products.map { .product(name: $0, package: codecPackage) }
            + extra
    )
}

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
        // What the fuzzers share: the capture-file checks, chunk sizes, reporting a finding, libFuzzer's driver.
        .target(name: "CaptureFuzzing", dependencies: ["CLibFuzzer", captureLibrary]),
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
        .target(name: "WireFuzzing", dependencies: ["CaptureFuzzing", wireLibrary, statusLibrary]),
        .executableTarget(
            name: "FuzzGRPCResponse",
            dependencies: ["CaptureFuzzing", "WireFuzzing", wireLibrary, statusLibrary]
        ),
        .executableTarget(
            name: "FuzzGRPCRequest", dependencies: ["CaptureFuzzing", "WireFuzzing", wireLibrary]
        ),
        parserFuzzer(
            "FuzzJWT", ["FleetEngineAuth", "FleetEngineCodec"],
            extra: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        parserFuzzer("FuzzResourceNames", ["FleetEngineStatus"]),
        parserFuzzer("FuzzHeaderValues", ["FleetEngineWire", "FleetEngineStatus"]),
        // These two reach the package's readers through `@testable import`: the fuzz build is a debug
        // build, which SwiftPM compiles with testability. Their modules are small on purpose, so the
        // fuzz build has nothing of the emulator's server or the command (NIO, gRPC, a second BoringSSL).
        parserFuzzer("FuzzTripJournal", ["FleetEngineJournal"]),
        parserFuzzer("FuzzCLIReaders", ["FleetTripsInput", "FleetEngineWire"]),
    ],
    swiftLanguageModes: [.v6]
)

// Not a fuzzer: reads the fuzzer's corpus for Scripts/differential-check.py (no sanitizers). Left out of
// the build of every fuzzer at once (replay.sh and run-fuzzers.sh set FUZZTESTING_SANITIZED=1), where
// libFuzzer's `main`, linked into every executable, would find no `LLVMFuzzerTestOneInput` in it.
if Context.environment["FUZZTESTING_SANITIZED"] != "1" {
    package.targets.append(
        .executableTarget(
            name: "DifferentialDecode",
            dependencies: [.product(name: "FleetEngineCodec", package: codecPackage)]
        )
    )
}
