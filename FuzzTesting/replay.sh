#!/bin/bash
# CI's fuzz step: builds every fuzzer (libFuzzer + AddressSanitizer) in one `swift build`, then runs
# each once over the committed inputs, without fuzzing: every fail case in FailCases/ (every
# target's, and the codec's: any input must be handled), the target's seeds in Corpora/<Target>/,
# and for FuzzDecode its corpus in Corpus/. A crash, sanitizer report, `FINDING:`, timeout (10 s an
# input) or out-of-memory (2 GiB) fails the step, so a fixed crash cannot come back.
#
#   FuzzTesting/replay.sh
#
# Logs go to corpus-work/logs/<Target>-replay.log (not committed).
set -uo pipefail
cd "$(dirname "$0")" || exit 1
source ./fuzzers.sh

build_fuzzers || exit 1
failures=()
for target in "${ALL_TARGETS[@]}"; do
    replay "${target}" || failures+=("${target}")
done
if (( ${#failures[@]} > 0 )); then
    echo "FAILED: a replayed input fails in ${failures[*]}"
    exit 1
fi
echo "Every fail case and seed replays clean."
