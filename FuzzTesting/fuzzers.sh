# Sourced by replay.sh and run-fuzzers.sh (from this folder): the fuzzers, how they are built, the
# limits they run under, and one target's replay of the committed inputs.

# Every fuzzer of Package.swift.
readonly ALL_TARGETS=(
    FuzzDecode FuzzCaptureFile FuzzPcapNG FuzzTCPReassembly FuzzHTTP2Frames FuzzTLSKeyLog FuzzTLSRecords
    FuzzGRPCResponse FuzzGRPCRequest FuzzJWT FuzzResourceNames FuzzHeaderValues FuzzTripJournal FuzzCLIReaders
)
# Ten seconds an input, 2 GiB of memory: past either, libFuzzer reports a timeout or out-of-memory.
readonly LIMITS=(-rss_limit_mb=2048 -timeout=10)
# Swift's own crash handler would read the crashed process's memory and trip ASan with a report
# about itself; libFuzzer's stack trace of the trap is enough.
export SWIFT_BACKTRACE=enable=no
# Leaves out the one executable that is not a fuzzer (see Package.swift).
export FUZZTESTING_SANITIZED=1
# -use-ld=lld: Debian's gold linker fails on the sanitizer build.
readonly BUILD=(
    swift build -c debug --package-path . --scratch-path .build
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
)

# Builds every fuzzer in one `swift build` (much faster than one build per product) and sets `bin`
# to the folder of the executables.
build_fuzzers() {
    echo "=== Building ${#ALL_TARGETS[@]} fuzzers"
    "${BUILD[@]}" || return 1
    bin="$("${BUILD[@]}" --show-bin-path)" || return 1
}

# replay TARGET: runs TARGET once over every fail case in FailCases/ (every target's, and the
# codec's: any input must be handled), its seeds in Corpora/TARGET/ and, for FuzzDecode, its corpus
# in Corpus/, without fuzzing. The log goes to corpus-work/logs/TARGET-replay.log; on failure its end
# is printed and the status is not zero.
replay() {
    local target="$1" inputs
    mapfile -t inputs < <(find FailCases -type f ! -name '.*' | sort)
    if [[ -d "Corpora/${target}" ]]; then
        mapfile -t -O "${#inputs[@]}" inputs < <(find "Corpora/${target}" -type f ! -name '.*' | sort)
    fi
    if [[ "${target}" == FuzzDecode ]]; then
        mapfile -t -O "${#inputs[@]}" inputs < <(find Corpus -type f ! -name '.*' | sort)
    fi
    # Files, not folders: given only files, libFuzzer runs each once; a folder would make it load a
    # corpus, and it stops at a file given beside one.
    local log="corpus-work/logs/${target}-replay.log" started=${SECONDS}
    mkdir -p corpus-work/logs
    if "${bin}/${target}" "${LIMITS[@]}" -runs=0 "${inputs[@]}" > "${log}" 2>&1; then
        echo "=== ${target}: $(grep -c '^Running: ' "${log}") inputs replayed, clean ($((SECONDS - started)) s)"
    else
        tail -n 40 "${log}"
        echo "=== ${target}: a replayed input fails (see FuzzTesting/${log})"
        return 1
    fi
}
