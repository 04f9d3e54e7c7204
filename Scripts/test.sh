#!/usr/bin/env bash
# The whole test suite, the second of the README's two commands (after Scripts/setup.sh):
#
#   Scripts/test.sh
#
# 0. every target declares the modules it imports, and no library product but FleetEngineGRPCCore
#    and the emulator builds grpc-swift-2 (Scripts/check-dependencies.py);
# 1. the generated code (C and Swift) is what Scripts/generate-code.py makes from Protos/;
# 2. Protos/ declares what Google's published google-maps-fleetengine package declares;
# 3. the Swift test suite;
# 4. no test closure was compiled into another closure's body (a Swift 6.3 fault with closures in
#    macro arguments, see Scripts/check-test-closures.py);
# 5. the binary decoder agrees with Google's parser on the committed fuzz corpus;
# 6. Google's own TripServiceClient finds nothing amiss in the emulator (`fleettrips serve`);
# 7. the TLS captures decrypt to what tshark decrypts with the same key logs, message for message
#    (Scripts/check-tls-captures.py);
# 8. many parallel 4 MiB requests, with the limits a user gets and with tighter ones, keep the
#    emulator's memory under 300 MiB (Scripts/check-emulator-hostile-clients.py);
# 9. the grpcio TripService the client tests run against behaves as its fixtures say;
# 10. the journey sharing pages of `fleettrips demo --web`, opened in headless Chromium, draw the
#     trip's route, move its vehicle, follow it to COMPLETE, share one following between two tabs,
#     and log no console error (Scripts/check-trip-page-in-browser.py).
#
# Everything builds with warnings as errors, as CI requires; further arguments go to `swift build`
# and `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

set -- -Xswiftc -warnings-as-errors "$@"

python=python3
if [ -x .venv/bin/python3 ]; then python=.venv/bin/python3; fi

"$python" Scripts/check-dependencies.py
"$python" Scripts/generate-code.py --check
"$python" Scripts/check-descriptors.py
swift test "$@"
"$python" Scripts/check-test-closures.py
"$python" Scripts/differential-check.py FuzzTesting/Corpus
swift build --product fleettrips "$@"
"$python" Scripts/check-tls-captures.py "$(swift build --show-bin-path "$@")/fleettrips"
"$python" Scripts/check-emulator-with-google-client.py "$(swift build --show-bin-path "$@")/fleettrips"
"$python" Scripts/check-emulator-hostile-clients.py "$(swift build --show-bin-path "$@")/fleettrips"
"$python" Scripts/check-grpcio-trip-server.py
"$python" Scripts/check-trip-page-in-browser.py "$(swift build --show-bin-path "$@")/fleettrips"
