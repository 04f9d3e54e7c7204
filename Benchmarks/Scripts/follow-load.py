#!/usr/bin/env python3
"""One TripService following many simulated trips: the follower's CPU and memory per trip, and the
age of the locations it delivers (GitHub issue 6, point 8).

    python3 Benchmarks/Scripts/follow-load.py [--trips 10000] [--interval 5] [--warmup 20] [--seconds 60]
        [--max-calls-per-minute N] [--quota-per-minute N]

Starts the emulator (`fleettrips serve --no-auth --simulate --trips N --speed 1 --port 0`) as a
process of its own, reads the simulated trip names it prints, and runs FollowLoad against it with
those names. FollowLoad prints one JSON object; this script adds the emulator's CPU share over the
same measured window (user + system from /proc/PID/stat, sampled when FollowLoad says the window
opens and closes), so that the follower's share is seen alone. Then, unless --no-control, it runs
FollowLoad's control against the same emulator: each trip fetched once and held, with no trip
service, so that the memory a decoded trip takes by itself can be told apart from what following it
adds ("heldTripsControl", "serviceMemoryPerTripBytes"). It prints the whole as JSON.

The trip service follows without a request budget unless --max-calls-per-minute gives one (FollowLoad's
option of that name), so that runs of code from before budgets existed measure the same work;
--quota-per-minute makes the emulator enforce a project-wide quota (`serve --quota-per-minute`).

Build both first, in release:

    swift build -c release --product fleettrips
    swift build -c release --package-path Benchmarks --product FollowLoad

Python 3 standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cpu_seconds(pid):
    """User + system CPU time of a process so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        # The command name may hold spaces and parentheses; the fields after its last ")" do not.
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_line(stream, expected, process):
    """Reads `stream` until a line equal to `expected`, passing other lines on to stderr."""
    for line in stream:
        if line.strip() == expected:
            return
        sys.stderr.write(line)
    raise SystemExit(f"FollowLoad ended (status {process.wait()}) before printing {expected!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=10_000)
    parser.add_argument("--interval", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--provider", default="emulator-project")
    parser.add_argument("--view", default="unspecified", help="unspecified, sdk or journey-sharing-v1s")
    parser.add_argument("--fleettrips", default=os.path.join(ROOT, ".build/release/fleettrips"))
    parser.add_argument("--follow-load", default=os.path.join(ROOT, "Benchmarks/.build/release/FollowLoad"))
    parser.add_argument("--no-control", action="store_true", help="skip the held-trips control run")
    parser.add_argument("--global-executor", action="store_true",
                        help="run the refreshes and subscribers on Swift's global executor (TripService's refreshExecutor)")
    parser.add_argument("--max-calls-per-minute", type=int,
                        help="the trip service's request budget (FollowLoad --max-calls-per-minute); none by default")
    parser.add_argument("--quota-per-minute", type=int,
                        help="a project-wide quota the emulator enforces (serve --quota-per-minute)")
    arguments = parser.parse_args()

    emulator = subprocess.Popen(
        [arguments.fleettrips, "serve", "--no-auth", "--simulate", "--trips", str(arguments.trips), "--speed", "1",
         "--provider", arguments.provider, "--port", "0"]
        + (["--quota-per-minute", str(arguments.quota_per_minute)] if arguments.quota_per_minute else []),
        stdout=subprocess.PIPE, text=True)
    try:
        first = emulator.stdout.readline().strip()
        if not first.startswith("listening on "):
            raise SystemExit(f"the emulator printed {first!r} instead of \"listening on HOST:PORT\"")
        port = int(first.rsplit(":", 1)[1])
        names = [emulator.stdout.readline().strip() for _ in range(arguments.trips)]
        if len(names) != arguments.trips or not all(names):
            raise SystemExit(f"the emulator printed fewer than {arguments.trips} trip names")
        with tempfile.NamedTemporaryFile("w", prefix="follow-load-names-", suffix=".txt") as names_file:
            names_file.write("\n".join(names) + "\n")
            names_file.flush()
            follower = subprocess.Popen(
                [arguments.follow_load, "--port", str(port), "--provider", arguments.provider,
                 "--names-file", names_file.name, "--interval", str(arguments.interval),
                 "--warmup", str(arguments.warmup), "--seconds", str(arguments.seconds), "--view", arguments.view]
                + (["--global-executor"] if arguments.global_executor else [])
                + (["--max-calls-per-minute", str(arguments.max_calls_per_minute)]
                   if arguments.max_calls_per_minute else []),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_for_line(follower.stderr, "window open", follower)
            emulator_before, follower_before, wall_before = (
                cpu_seconds(emulator.pid), cpu_seconds(follower.pid), time.monotonic())
            wait_for_line(follower.stderr, "window closed", follower)
            emulator_after, follower_after, wall_after = (
                cpu_seconds(emulator.pid), cpu_seconds(follower.pid), time.monotonic())
            output, errors = follower.communicate()
            # FollowLoad ends with glibc's malloc_stats(); its "Total" block is the whole heap.
            heap = re.search(r"Total \(incl\. mmap\):\s*system bytes\s*=\s*(\d+)\s*in use bytes\s*=\s*(\d+)", errors)
            sys.stderr.write(re.sub(r"(?s)Arena 0:.*max mmap bytes\s*=\s*\d+\n", "", errors))
            if follower.returncode != 0:
                raise SystemExit(f"FollowLoad failed with status {follower.returncode}")
            control = None
            if not arguments.no_control:
                control = json.loads(subprocess.run(
                    [arguments.follow_load, "--port", str(port), "--provider", arguments.provider,
                     "--names-file", names_file.name, "--view", arguments.view, "--held-trips-control"],
                    stdout=subprocess.PIPE, check=True, text=True).stdout)
        report = json.loads(output)
        wall = wall_after - wall_before
        report["emulatorCpuShareOfOneCore"] = round((emulator_after - emulator_before) / wall, 3)
        # The same window seen from outside, at the kernel's clock-tick resolution, as a check.
        report["followerCpuShareFromProc"] = round((follower_after - follower_before) / wall, 3)
        if heap is not None:
            # Bytes malloc holds from the system, and bytes in live allocations, at the end.
            report["heapSystemBytes"] = int(heap.group(1))
            report["heapInUseBytes"] = int(heap.group(2))
        if control is not None:
            report["heldTripsControl"] = control
            report["serviceMemoryPerTripBytes"] = round(
                report["memoryPerTripBytes"] - control["memoryPerTripBytes"], 1)
        print(json.dumps(report, indent=2))
    finally:
        emulator.terminate()
        try:
            emulator.wait(timeout=30)
        except subprocess.TimeoutExpired:
            emulator.kill()


if __name__ == "__main__":
    main()
