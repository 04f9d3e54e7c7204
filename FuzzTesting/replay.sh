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

readonly TARGETS=(
    FuzzDecode FuzzCaptureFile FuzzPcapNG FuzzTCPReassembly FuzzHTTP2Frames FuzzTLSKeyLog FuzzTLSRecords
    FuzzGRPCResponse FuzzGRPCRequest FuzzJWT FuzzResourceNames FuzzHeaderValues FuzzTripJournal FuzzCLIReaders
)
readonly LIMITS=(-rss_limit_mb=2048 -timeout=10)
# Swift's own crash handler would read the crashed process's memory and trip ASan with a report
# about itself; libFuzzer's stack trace of the trap is enough.
export SWIFT_BACKTRACE=enable=no
# Leaves out the one executable that is not a fuzzer (see Package.swift).
export FUZZTESTING_SANITIZED=1

cd "$(dirname "$0")" || exit 1

# -use-ld=lld: Debian's gold linker fails on the sanitizer build.
build=(
    swift build -c debug --package-path . --scratch-path .build
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
)
echo "=== Building ${#TARGETS[@]} fuzzers"
"${build[@]}" || exit 1
bin="$("${build[@]}" --show-bin-path)" || exit 1

mkdir -p corpus-work/logs
mapfile -t failCases < <(find FailCases -type f ! -name '.*' | sort)
failures=()
for target in "${TARGETS[@]}"; do
    inputs=("${failCases[@]}")
    if [[ -d "Corpora/${target}" ]]; then
        mapfile -t -O "${#inputs[@]}" inputs < <(find "Corpora/${target}" -type f ! -name '.*' | sort)
    fi
    # Files, not folders: given only files, libFuzzer runs each once; a folder would make it load a
    # corpus, and it stops at a file given beside one.
    if [[ "${target}" == FuzzDecode ]]; then
        mapfile -t -O "${#inputs[@]}" inputs < <(find Corpus -type f ! -name '.*' | sort)
    fi
    log="corpus-work/logs/${target}-replay.log"
    started=${SECONDS}
    if "${bin}/${target}" "${LIMITS[@]}" -runs=0 "${inputs[@]}" > "${log}" 2>&1; then
        echo "=== ${target}: $(grep -c '^Running: ' "${log}") inputs, clean ($((SECONDS - started)) s)"
    else
        tail -n 40 "${log}"
        failures+=("${target}: a replayed input fails (see FuzzTesting/${log})")
    fi
done

if (( ${#failures[@]} > 0 )); then
    printf 'FAILED: %s\n' "${failures[@]}"
    exit 1
fi
echo "Every fail case and seed replays clean."
