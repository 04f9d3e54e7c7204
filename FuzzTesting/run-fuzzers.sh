#!/bin/bash
# Builds the fuzzers (libFuzzer + AddressSanitizer; all of them, in one `swift build`), replays every
# known fail case and seed through each target run, then fuzzes each for SECONDS (60 unless told), one
# after the other. (replay.sh is CI's replay of every target, FuzzDecode's corpus too.)
#
#   FuzzTesting/run-fuzzers.sh [SECONDS [TARGET...]]
#
# A crash, sanitizer report, timeout (-timeout=10 s per input) or out-of-memory (-rss_limit_mb=2048)
# is saved in FailCases/<Target>/ and makes the script exit non-zero. New corpus entries the fuzzer
# finds go to corpus-work/<Target>/ (not committed), the logs to corpus-work/logs/.
# SECONDS=0 builds and replays only. TARGETs (all thirteen below unless named) are run in the order given.
set -uo pipefail

readonly SECONDS_PER_TARGET="${1:-60}"
if (( $# > 1 )); then
    readonly TARGETS=("${@:2}")
else
    readonly TARGETS=(
        FuzzCaptureFile FuzzPcapNG FuzzTCPReassembly FuzzHTTP2Frames FuzzTLSKeyLog FuzzTLSRecords FuzzGRPCResponse
        FuzzGRPCRequest FuzzJWT FuzzResourceNames FuzzHeaderValues FuzzTripJournal FuzzCLIReaders
    )
fi
# -use-ld=lld: Debian's gold linker fails on the sanitizer build.
readonly BUILD=(
    swift build -c debug --package-path . --scratch-path .build
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
)
readonly LIMITS=(-rss_limit_mb=2048 -timeout=10)
# Swift's own crash handler would read the crashed process's memory and trip ASan with a report
# about itself; libFuzzer's stack trace of the trap is enough.
export SWIFT_BACKTRACE=enable=no
# Leaves out the one executable that is not a fuzzer (see Package.swift).
export FUZZTESTING_SANITIZED=1

cd "$(dirname "$0")" || exit 1

# One build of every product is much faster than one build per product.
echo "=== Building the fuzzers"
"${BUILD[@]}" || exit 1
bin="$("${BUILD[@]}" --show-bin-path)" || exit 1

failures=()
mkdir -p corpus-work/logs
for target in "${TARGETS[@]}"; do
    mkdir -p "FailCases/${target}" "corpus-work/${target}"

    # Every fail case of every target (any input must be handled), and this target's seeds, so that
    # fixed crashes stay fixed.
    mapfile -t replay < <(find FailCases "Corpora/${target}" -type f ! -name '.*' | sort)
    echo "=== Replaying ${#replay[@]} inputs through ${target}"
    if ! "${bin}/${target}" "${LIMITS[@]}" "${replay[@]}" > "corpus-work/logs/${target}-replay.log" 2>&1; then
        tail -n 40 "corpus-work/logs/${target}-replay.log"
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
