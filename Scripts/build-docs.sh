#!/usr/bin/env bash
# Builds the DocC documentation of every library module, with warnings as errors: a ``symbol``
# link that resolves to nothing, a <doc:...> reference to a missing article or a malformed page
# fails the build, in the catalogs (Sources/<Module>/Documentation.docc) and in `///` comments.
#
#   Scripts/build-docs.sh        # archives go to .build/plugins/Swift-DocC/outputs/<Module>.doccarchive
#
# One generate-documentation run takes every target, so the modules build once, and with the
# compiler flags of CI's other builds (-warnings-as-errors), so after them nothing is compiled
# again. Further arguments go to the plugin (e.g. --verbose).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

targets=(
    FleetEngineCodec
    FleetEngineStatus
    FleetEngineGRPCCore
    FleetEngineWire
    FleetEngineAuth
    FleetEngineClient
    FleetEngineCapture
    TripTracking
    JourneySharing
    FleetEngineEmulator
)

arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done

swift package --disable-sandbox -Xswiftc -warnings-as-errors \
    generate-documentation "${arguments[@]}" --warnings-as-errors "$@"
