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

# Only the gate's product: building the whole Benchmarks package would also build swift-protobuf
# and the benchmark tool, which the gate does not use.
# The C beneath (BoringSSL twice, through swift-crypto and swift-nio-ssl, and the codec's generated
# C) is compiled without optimisation: which mallocs it makes does not depend on that, and the
# release build from nothing takes about a quarter less CPU. The Swift code is optimised as users get it.
swift build -c release -Xcc -O0 --package-path Benchmarks --product AllocationGate
Benchmarks/.build/release/AllocationGate --thresholds "Benchmarks/Thresholds/$swift_version" "$@"
