#!/usr/bin/env bash
# The whole test suite, the second of the README's two commands (after Scripts/setup.sh):
#
#   Scripts/test.sh
#
# 1. the generated code (C and Swift) is what Scripts/generate-code.py makes from Protos/;
# 2. Protos/ declares what Google's published google-maps-fleetengine package declares;
# 3. the Swift test suite;
# 4. the binary decoder agrees with Google's parser on the committed fuzz corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

python3 Scripts/generate-code.py --check
python3 Scripts/check-descriptors.py
swift test "$@"
python3 Scripts/differential-check.py FuzzTesting/Corpus
