// swift-tools-version:6.1
// libFuzzer targets for the codec, built with AddressSanitizer. See README.md.
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [.package(path: "../")],
    targets: [
        .executableTarget(
            name: "FuzzDecode",
            dependencies: [.product(name: "FleetEngineCodec", package: "main")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
