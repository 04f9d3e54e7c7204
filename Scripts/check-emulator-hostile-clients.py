#!/usr/bin/env python3
"""Many parallel 4 MiB CreateTrip requests against the emulator, without and with a token: its peak memory.

    python3 Benchmarks/Scripts/emulator-hostile.py [PATH-TO-fleettrips] [--calls N] [--limit-mib M]

Starts `fleettrips serve --jwt-secret ...` on 127.0.0.1 (port 0), then sends CreateTrip requests
of 4 MiB each (`0a 00` over and over: two million empty RequestHeaders, the costliest shape to
decode) from this process with grpcio, N at a time over four connections: first with no token, then
with a server token the emulator accepts. The emulator's peak resident set (VmHWM in
/proc/PID/status) is read after each round, and the script exits 1 if it passed M MiB (300 by
default). It prints the status codes the calls ended with. Needs the project's .venv
(`Scripts/setup.sh`).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import pathlib
import subprocess
import sys

import grpc

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PATH = "/maps.fleetengine.v1.TripService/CreateTrip"
SECRET = "hostile-clients-hostile-clients-0"
REQUEST = b"\x0a\x00" * (2 * 1024 * 1024)


def memory_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def round_of_calls(address: str, token: str | None, calls: int) -> collections.Counter:
    metadata = [("authorization", f"Bearer {token}")] if token else []
    channels = [grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(4)]
    codes: collections.Counter = collections.Counter()
    try:
        methods = [channel.unary_unary(PATH) for channel in channels]
        with concurrent.futures.ThreadPoolExecutor(max_workers=calls) as pool:
            futures = [
                pool.submit(methods[index % 4], REQUEST, metadata=metadata, timeout=60) for index in range(calls)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fleettrips", nargs="?", default=str(ROOT / ".build" / "debug" / "fleettrips"))
    parser.add_argument("--calls", type=int, default=64, help="calls in flight in each round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of calls for each of no token and token")
    parser.add_argument("--limit-mib", type=int, default=300, help="fail if the emulator's peak passes this")
    arguments = parser.parse_args()

    token = subprocess.run(
        [arguments.fleettrips, "token", "--jwt-secret", SECRET, "--server"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    server = subprocess.Popen(
        [arguments.fleettrips, "serve", "--port", "0", "--jwt-secret", SECRET], stdout=subprocess.PIPE, text=True
    )
    try:
        address = server.stdout.readline().strip().removeprefix("listening on ")
        start = memory_kib(server.pid, "VmRSS")
        print(f"emulator at {address}, {start / 1024:.0f} MiB resident at start")
        print("| token | calls | statuses | emulator peak MiB |")
        print("| --- | ---: | --- | ---: |")
        for label, bearer in (("none", None), ("server", token)):
            codes: collections.Counter = collections.Counter()
            for _ in range(arguments.rounds):
                codes += round_of_calls(address, bearer, arguments.calls)
            peak = memory_kib(server.pid, "VmHWM") / 1024
            statuses = ", ".join(f"{name} {count}" for name, count in sorted(codes.items()))
            print(f"| {label} | {sum(codes.values())} | {statuses} | {peak:.0f} |")
        peak = memory_kib(server.pid, "VmHWM") / 1024
    finally:
        server.terminate()
        server.wait()
    if peak > arguments.limit_mib:
        print(f"the emulator's peak, {peak:.0f} MiB, passed {arguments.limit_mib} MiB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
