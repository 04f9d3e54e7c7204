#!/usr/bin/env python3
"""GetTrip of the ~18 KB trip from our client and from grpc-swift-2, against one grpcio server.

    .venv/bin/python3 Benchmarks/Scripts/client-load.py [PATH-TO-ClientLoad] [--seconds S]
        [--concurrency N ...] [--client ours|ours-executor|grpc-swift|grpcio|google-python ...] [--python]
        [--rounds R] [--json-out FILE]

Build ClientLoad first (from the repository root):

    swift build -c release --package-path Benchmarks --product ClientLoad

Starts the Python grpcio TripService of the client tests
(Tests/FleetEngineClientTests/Fixtures/grpcio_trip_server.py) on 127.0.0.1, then, for each
concurrency (1 and 16 by default) and each client (ours; ours with the callers' tasks on the client's
own task executor, `--task-executor`; grpc-swift-2), runs ClientLoad against it, one run after the
other, so every run sees the same server. Each ClientLoad run makes one check call, warms up for a
second, measures for S seconds, then counts allocations for two more (see ClientLoad.swift); it
prints one JSON line, and this script prints those lines as a Markdown table. With --python (or
--client grpcio / google-python) Python clients run too (python-client-load.py: bare grpcio, and
Google's generated client), as yardsticks of what this machine makes a call cost. With --rounds R the
whole plan runs R times in a row, so the spread between rounds shows how steady the machine was.

Every subprocess has a timeout, and the server is stopped at the end however the script ends
(it also exits by itself when its stdin closes).
"""

import argparse
import json
import os
import subprocess
import sys
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(REPOSITORY, "Tests", "FleetEngineClientTests", "Fixtures", "grpcio_trip_server.py")
DEFAULT_BINARY = os.path.join(REPOSITORY, "Benchmarks", ".build", "release", "ClientLoad")
PYTHON_CLIENT = os.path.join(REPOSITORY, "Benchmarks", "Scripts", "python-client-load.py")
PYTHON_CLIENTS = ["grpcio", "google-python"]
TRIP = "providers/test-project/trips/trip-large"
WARM_UP_SECONDS = 1.0
ALLOCATION_SECONDS = 2.0
# Start-up, the check call and shutdown, on a busy machine.
RUN_SLACK_SECONDS = 60


def start_server(max_seconds):
    process = subprocess.Popen(
        [sys.executable, SERVER, "--port", "0", "--max-seconds", str(int(max_seconds))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on "):
        stop_server(process)
        raise SystemExit(f"the server did not start (first line: {line!r})")
    port = int(line.rsplit(":", 1)[1])
    return process, port


def stop_server(process):
    try:
        process.stdin.close()  # the server exits when its stdin closes
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def run_client(binary, client, concurrency, seconds, port):
    # "ours-executor": our client with the callers' tasks on its own task executor (--task-executor).
    # "grpcio", "google-python": the Python yardsticks of python-client-load.py (no allocation count).
    flags = ["--client", "ours", "--task-executor"] if client == "ours-executor" else ["--client", client]
    common = ["--concurrency", str(concurrency), "--seconds", str(seconds), "--port", str(port), "--trip", TRIP,
              "--warm-up-seconds", str(WARM_UP_SECONDS)]
    if client in PYTHON_CLIENTS:
        command = [sys.executable, PYTHON_CLIENT, *flags, *common]
    else:
        command = [binary, *flags, *common, "--allocation-seconds", str(ALLOCATION_SECONDS)]
    timeout = seconds + WARM_UP_SECONDS + ALLOCATION_SECONDS + RUN_SLACK_SECONDS
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if len(lines) != 1:
        raise SystemExit(f"{' '.join(command)} printed no JSON line:\n{result.stdout}")
    return json.loads(lines[0])


def format_number(value, digits=0):
    return "–" if value is None else f"{value:,.{digits}f}"


def print_table(rows, show_round):
    header = "| client | calls in flight | calls/s | p50 latency | p99 latency | client CPU per call | mallocs per call |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    if show_round:
        header = "| round " + header
        rule = "| ---: " + rule
    print(header)
    print(rule)
    for round_number, row in rows:
        name = row["client"] + (" (callers on its task executor)" if row.get("taskExecutor") else "")
        if row["client"] in PYTHON_CLIENTS:
            name += " (Python)"
        cells = [name, str(row["concurrency"]), format_number(row["callsPerSecond"]),
                 f"{format_number(row['p50Micros'])} µs", f"{format_number(row['p99Micros'])} µs",
                 f"{format_number(row['cpuMicrosPerCall'])} µs", format_number(row["mallocsPerCall"])]
        if show_round:
            cells.insert(0, str(round_number))
        print("| " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=DEFAULT_BINARY, help="ClientLoad (release build)")
    parser.add_argument("--seconds", type=float, default=8, help="measured seconds per run")
    parser.add_argument("--concurrency", type=int, action="append", help="calls in flight (repeatable)")
    parser.add_argument("--client", choices=["ours", "ours-executor", "grpc-swift", *PYTHON_CLIENTS],
                        action="append",
                        help="(repeatable) ours-executor: ours with the callers on its task executor; grpcio and "
                             "google-python: Python clients, as yardsticks (by default only with --python)")
    parser.add_argument("--python", action="store_true",
                        help="with the default clients, also run the Python ones (grpcio, google-python)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json-out", help="also write the JSON lines to this file")
    arguments = parser.parse_args()
    concurrencies = arguments.concurrency or [1, 16]
    clients = arguments.client or ["ours", "ours-executor", "grpc-swift"] + (PYTHON_CLIENTS if arguments.python else [])
    if not os.access(arguments.binary, os.X_OK):
        raise SystemExit(f"{arguments.binary} is not an executable; build it first (see --help)")

    runs = arguments.rounds * len(concurrencies) * len(clients)
    per_run = arguments.seconds + WARM_UP_SECONDS + ALLOCATION_SECONDS + RUN_SLACK_SECONDS
    server, port = start_server(max_seconds=runs * per_run + 60)
    rows = []
    try:
        started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        for round_number in range(1, arguments.rounds + 1):
            for concurrency in concurrencies:
                for client in clients:
                    row = run_client(arguments.binary, client, concurrency, arguments.seconds, port)
                    print(json.dumps(row), file=sys.stderr, flush=True)
                    rows.append((round_number, row))
    finally:
        stop_server(server)
    if arguments.json_out:
        with open(arguments.json_out, "w") as output:
            for _, row in rows:
                output.write(json.dumps(row) + "\n")
    print(f"GetTrip of {TRIP} from 127.0.0.1:{port} (grpcio), {arguments.seconds:g} s per run, started {started}")
    print()
    print_table(rows, show_round=arguments.rounds > 1)


if __name__ == "__main__":
    main()
