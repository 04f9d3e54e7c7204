#!/usr/bin/env python3
"""GetTrip against the emulator: calls per second, latency, and the server's CPU per call.

    python3 Benchmarks/Scripts/emulator-load.py [PATH-TO-fleettrips] [--seconds S]

Starts `fleettrips serve --no-auth --simulate` (build it first: `swift build -c release --product
fleettrips`), then drives GetTrip on the simulated trips from this process with grpcio's C core
(requests serialized once, responses left as bytes, so the client costs as little as possible) at 1
and at 64 calls in flight, over one HTTP/2 connection, for S seconds each after a warm-up. The
server's CPU time is read from /proc/PID/stat (user + system) before and after each run; divided by
the calls, it is the server CPU per call. Latency is per call, from issue to completion.
"""

import argparse
import os
import subprocess
import threading
import time

import grpc
from google.maps import fleetengine_v1 as fe

PATH = "/maps.fleetengine.v1.TripService/GetTrip"


def server_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def run(channel, requests, concurrency, seconds):
    call = channel.unary_unary(PATH)
    latencies = []
    sizes = []
    lock = threading.Lock()
    done = threading.Event()
    deadline = time.monotonic() + seconds
    in_flight = [0]
    counter = [0]

    def issue():
        index = counter[0]
        counter[0] += 1
        start = time.perf_counter()
        future = call.future(requests[index % len(requests)], timeout=30)

        def finished(f):
            elapsed = time.perf_counter() - start
            response = f.result()
            with lock:
                latencies.append(elapsed)
                sizes.append(len(response))
                if time.monotonic() < deadline:
                    issue()
                else:
                    in_flight[0] -= 1
                    if in_flight[0] == 0:
                        done.set()

        future.add_done_callback(finished)

    with lock:
        in_flight[0] = concurrency
        for _ in range(concurrency):
            issue()
    done.wait(seconds + 60)
    return latencies, sizes


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=".build/release/fleettrips")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--trips", type=int, default=20)
    arguments = parser.parse_args()
    process = subprocess.Popen(
        [arguments.binary, "serve", "--no-auth", "--simulate", "--trips", str(arguments.trips), "--seed", "1",
         "--speed", "10"],
        stdout=subprocess.PIPE, text=True)
    try:
        address = process.stdout.readline().strip().removeprefix("listening on ")
        names = [process.stdout.readline().strip() for _ in range(arguments.trips)]
        requests = [fe.GetTripRequest.serialize(fe.GetTripRequest(name=name)) for name in names]
        channel = grpc.insecure_channel(address)
        print(f"GetTrip on {len(names)} simulated trips, {arguments.seconds:.0f} s per row, one connection")
        print("| calls in flight | calls/s | p50 latency | p99 latency | server CPU per call | response size |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        for concurrency in (1, 64):
            run(channel, requests, concurrency, 2)  # warm-up
            cpu_before = server_cpu_seconds(process.pid)
            started = time.perf_counter()
            latencies, sizes = run(channel, requests, concurrency, arguments.seconds)
            wall = time.perf_counter() - started
            cpu = server_cpu_seconds(process.pid) - cpu_before
            calls = len(latencies)
            print(f"| {concurrency} | {calls / wall:,.0f} | {percentile(latencies, 0.5) * 1e3:.2f} ms "
                  f"| {percentile(latencies, 0.99) * 1e3:.2f} ms | {cpu / calls * 1e6:,.0f} µs "
                  f"| {sum(sizes) / len(sizes):,.0f} B |")
        channel.close()
    finally:
        process.terminate()
        process.wait(timeout=20)


if __name__ == "__main__":
    main()
