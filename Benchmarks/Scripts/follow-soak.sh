#!/usr/bin/env bash
# The soak of following under faults (BENCHMARKS.md, "Following under faults"): one TripService
# follows simulated trips of an emulator running in the same process while the emulator fails,
# delays and drops calls, then without those faults until every trip ends. Bounded: it stops by
# itself at --max-minutes. Prints progress on standard error and one JSON report on standard output.
#
#     Benchmarks/Scripts/follow-soak.sh --trips 1000 --interval 5 --fault-minutes 30 --speed 0.4 --max-minutes 70
#
# Options are FollowSoak's (`--help` lists them). Loopback only; not part of CI (it runs an hour).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
swift build -c release --product FollowSoak >&2
exec .build/release/FollowSoak "$@"
