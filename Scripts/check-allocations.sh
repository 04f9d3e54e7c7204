#!/usr/bin/env bash
# Builds Benchmarks' AllocationGate (release: the counts users get) and holds each operation's
# mallocs to its threshold in Benchmarks/Thresholds/<Swift major.minor>/ (BENCHMARKS.md,
# "Allocation gates"). Exits 1 when a count rose above its threshold plus the tolerance.
#
#   Scripts/check-allocations.sh                                        # check every operation
#   Scripts/check-allocations.sh followed-trip-refresh                  # check one
#   Scripts/check-allocations.sh --write-thresholds followed-trip-refresh   # measure and write one
#   Scripts/check-allocations.sh --write-thresholds                     # measure and write all
#
# A written threshold is committed on its own, saying why the count moved.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# Counts depend on the compiler that built the code, so each Swift version has its own thresholds.
swift_version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1)
if [ -z "$swift_version" ]; then
    echo "check-allocations: cannot read the Swift version from 'swift --version'" >&2
    exit 2
fi

# Only the gate's product (not swift-protobuf or the benchmark tool, which the gate does not use),
# built in the main package's build folder, .build, rather than Benchmarks/.build: the set-up's
# release build of fleettrips has compiled every package the gate depends on there (BoringSSL twice,
# through swift-crypto and swift-nio-ssl, SwiftNIO, grpc-swift-2), with the same flags, so only this
# package's modules, as a dependency of Benchmarks, and the gate itself compile here. From a fresh
# clone after the set-up that is about two minutes, where a build of its own took ten to thirty-five.
# The Swift and the C are optimised as users get them.
swift build -c release --package-path Benchmarks --scratch-path .build --product AllocationGate
.build/release/AllocationGate --thresholds "Benchmarks/Thresholds/$swift_version" "$@"
