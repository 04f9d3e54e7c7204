#!/usr/bin/env python3
"""Many parallel CreateTrip requests of the costliest shape against the emulator: its peak memory.

    Scripts/check-emulator-hostile-clients.py [PATH-TO-fleettrips] [--calls N] [--rounds R] [--limit-mib M]

Each request is `0a 00` over and over: empty RequestHeaders, the costliest shape to decode (before
the emulator had limits, four 4 MiB ones at once took a release build to 954 MiB). The script sends
them from this process with grpcio over four connections, R rounds with no token and R with a
server token the emulator accepts, to two emulators in turn, each started with `fleettrips serve
--jwt-secret ...` on 127.0.0.1 (port 0):

- "defaults", with the limits a user gets: N requests of 4 MiB at a time, every one over the 1 MiB
  request limit and refused from its length prefix, before it is received whole;
- "decoded", with --max-concurrent-streams 1 and --max-decoded-request-size 16 MiB: four requests
  of 1 MiB (the most the request limit lets through) at a time, one on each connection; one with
  the token is decoded until it passes the decoded-size bound.

No call may end OK, and in "decoded" every call with the token must end RESOURCE_EXHAUSTED (its
decoding passed the bound). The emulator's peak resident set (VmHWM in /proc/PID/status) is read
after each round; the script exits 1, saying what, when a peak passes M MiB or a call ended
otherwise, and 2 when the emulator does not start. Scripts/test.sh runs it with its defaults (16
calls, one round); BENCHMARKS.md has a longer run. Needs the project's .venv (`Scripts/setup.sh`).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import pathlib
import subprocess
import sys
import threading
import time

import grpc

ROOT = pathlib.Path(__file__).resolve().parent.parent
PATH = "/maps.fleetengine.v1.TripService/CreateTrip"
SECRET = "hostile-clients-hostile-clients-0"
MIB = 1024 * 1024
LARGE_REQUEST = b"\x0a\x00" * (2 * MIB)
ADMITTED_REQUEST = b"\x0a\x00" * (MIB // 2)
CONNECTIONS = 4
STARTUP_SECONDS = 60

# Each emulator: its name, its limit options, its request, its calls at a time (None: --calls), and
# the status every call with the token must end with (None: any status but OK, as grpcio reports a
# reset stream as CANCELLED or as the status that came before the reset, whichever it sees first).
EMULATORS = (
    ("defaults", [], LARGE_REQUEST, None, None),
    (
        "decoded",
        ["--max-concurrent-streams", "1", "--max-decoded-request-size", str(16 * MIB)],
        ADMITTED_REQUEST,
        CONNECTIONS,
        "RESOURCE_EXHAUSTED",
    ),
)


def memory_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def round_of_calls(address: str, token: str | None, request: bytes, calls: int) -> collections.Counter:
    metadata = [("authorization", f"Bearer {token}")] if token else []
    channels = [
        grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(CONNECTIONS)
    ]
    codes: collections.Counter = collections.Counter()
    try:
        methods = [channel.unary_unary(PATH) for channel in channels]
        with concurrent.futures.ThreadPoolExecutor(max_workers=calls) as pool:
            futures = [
                pool.submit(methods[index % CONNECTIONS], request, metadata=metadata, timeout=60)
                for index in range(calls)
            ]
            for future in futures:
                try:
                    future.result()
                    codes["OK"] += 1
                except grpc.RpcError as error:
                    codes[error.code().name] += 1
    finally:
        for channel in channels:
            channel.close()
    return codes


def start_emulator(fleettrips: str, options: list[str]) -> tuple[subprocess.Popen, str]:
    """Starts `fleettrips serve` and returns it with the address it listens on."""
    server = subprocess.Popen(
        [fleettrips, "serve", "--port", "0", "--jwt-secret", SECRET, *options],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )
    # A server that never prints its listening line is killed, which ends the read below.
    watchdog = threading.Timer(STARTUP_SECONDS, server.kill)
    watchdog.start()
    try:
        line = server.stdout.readline().strip()
    finally:
        watchdog.cancel()
    if not line.startswith("listening on "):
        server.kill()
        server.wait()
        raise RuntimeError(f"`fleettrips serve {' '.join(options)}` did not start (it printed {line!r})")
    return server, line.removeprefix("listening on ")


def check_emulator(fleettrips: str, token: str, emulator: tuple, arguments) -> list[str]:
    """Runs the rounds against one emulator, prints its table rows, and returns what went wrong."""
    name, options, request, calls, expected = emulator
    problems = []
    server, address = start_emulator(fleettrips, options)
    try:
        start = memory_kib(server.pid, "VmRSS") / 1024
        for label, bearer in (("none", None), ("server", token)):
            codes: collections.Counter = collections.Counter()
            for _ in range(arguments.rounds):
                codes += round_of_calls(address, bearer, request, calls or arguments.calls)
            peak = memory_kib(server.pid, "VmHWM") / 1024
            statuses = ", ".join(f"{code} {count}" for code, count in sorted(codes.items()))
            print(f"| {name} | {start:.0f} | {label} | {sum(codes.values())} | {statuses} | {peak:.0f} |")
            if codes["OK"]:
                problems.append(f"{name}: {codes['OK']} calls with token {label} ended OK")
            if bearer and expected and set(codes) != {expected}:
                problems.append(f"{name}: the calls with the token ended {statuses}, not all {expected}")
            if peak > arguments.limit_mib:
                problems.append(f"{name}: the emulator's peak, {peak:.0f} MiB, passed {arguments.limit_mib} MiB")
    finally:
        server.terminate()
        server.wait()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fleettrips", nargs="?", default=str(ROOT / ".build" / "debug" / "fleettrips"))
    parser.add_argument(
        "--calls", type=int, default=16, help="4 MiB calls in flight in each round with the default limits"
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds of calls for each of no token and token")
    parser.add_argument("--limit-mib", type=int, default=300, help="fail if an emulator's peak passes this")
    arguments = parser.parse_args()
    if arguments.calls < 1 or arguments.rounds < 1 or arguments.limit_mib < 1:
        parser.error("--calls, --rounds and --limit-mib must be at least 1")

    began = time.monotonic()
    token = subprocess.run(
        [arguments.fleettrips, "token", "--jwt-secret", SECRET, "--server"],
        check=True, capture_output=True, text=True, timeout=STARTUP_SECONDS,
    ).stdout.strip()
    print("| emulator | MiB at start | token | calls | statuses | peak MiB |")
    print("| --- | ---: | --- | ---: | --- | ---: |")
    problems = []
    try:
        for emulator in EMULATORS:
            problems += check_emulator(arguments.fleettrips, token, emulator, arguments)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{time.monotonic() - began:.1f} s")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
