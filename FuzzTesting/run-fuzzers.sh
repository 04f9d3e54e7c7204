#!/bin/bash
# Builds the fuzzers (libFuzzer + AddressSanitizer; all of them, in one `swift build`), replays every
# known fail case and seed through each target run, then fuzzes each for SECONDS (60 unless told), one
# after the other (fuzzers.sh: the targets, the build, the replay; replay.sh is CI's replay of them all).
#
#   FuzzTesting/run-fuzzers.sh [SECONDS [TARGET...]]
#
# A crash, sanitizer report, timeout (-timeout=10 s per input) or out-of-memory (-rss_limit_mb=2048)
# is saved in FailCases/<Target>/ and makes the script exit non-zero. New corpus entries the fuzzer
# finds go to corpus-work/<Target>/ (not committed), the logs to corpus-work/logs/.
# SECONDS=0 builds and replays only. TARGETs (every fuzzer but FuzzDecode unless named) run in the order given.
set -uo pipefail

readonly SECONDS_PER_TARGET="${1:-60}"
readonly NAMED_TARGETS=("${@:2}")
cd "$(dirname "$0")" || exit 1
source ./fuzzers.sh
if (( ${#NAMED_TARGETS[@]} > 0 )); then
    TARGETS=("${NAMED_TARGETS[@]}")
else
    TARGETS=("${ALL_TARGETS[@]:1}")  # FuzzDecode is fuzzed by hand (README.md)
fi

build_fuzzers || exit 1
failures=()
for target in "${TARGETS[@]}"; do
    mkdir -p "FailCases/${target}" "corpus-work/${target}"

    if ! replay "${target}"; then
        failures+=("${target}: a replayed input fails (see corpus-work/logs/${target}-replay.log)")
        continue
    fi

    [[ "${SECONDS_PER_TARGET}" == 0 ]] && continue
    echo "=== Fuzzing ${target} for ${SECONDS_PER_TARGET} s"
    "${bin}/${target}" "corpus-work/${target}" "Corpora/${target}" "${LIMITS[@]}" \
        -max_total_time="${SECONDS_PER_TARGET}" -print_final_stats=1 \
        -artifact_prefix="FailCases/${target}/" > "corpus-work/logs/${target}.log" 2>&1
    status=$?
    grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "corpus-work/logs/${target}.log"
    if [[ ${status} != 0 ]]; then
        tail -n 60 "corpus-work/logs/${target}.log"
        failures+=("${target}: the fuzzer found a failure, saved in FailCases/${target}/")
    fi
done

if (( ${#failures[@]} > 0 )); then
    printf 'FAILED: %s\n' "${failures[@]}"
    exit 1
fi
echo "All fuzzers clean."
