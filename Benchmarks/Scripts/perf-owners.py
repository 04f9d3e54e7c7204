#!/usr/bin/env python3
"""Shares of a perf profile by the module whose code spent them.

Reads `perf record -g` data (of ClientLoad or FollowLoad, say) through `perf script` and gives each sample to
one owner: the kernel or libprotobuf-c when the sample is in them, otherwise the innermost Swift
module on the call stack among those listed in MODULES (a sample in the Swift runtime, malloc or
memmove goes to the module that called it). Samples with no such frame are listed by the library
they fell in. Prints a Markdown table, largest share first.

    perf record -F 4000 -g -o client.data Benchmarks/.build/release/ClientLoad --client ours ...
    Benchmarks/Scripts/perf-owners.py client.data
"""

import argparse
import collections
import re
import subprocess

# Mangled-name prefixes of the modules a call goes through, and the name printed for each.
MODULES = [
    ("$s8NIOHTTP2", "NIOHTTP2"),
    ("$s8NIOHPACK", "NIOHPACK"),
    ("$s7NIOCore", "NIOCore"),
    ("$s8NIOPosix", "NIOPosix"),
    ("$s16FleetEngineCodec", "FleetEngineCodec"),
    ("fe_arena", "FleetEngineCodec"),
    ("$s17FleetEngineClient", "FleetEngineClient"),
    ("$s15FleetEngineWire", "FleetEngineWire"),
    ("$s17FleetEngineStatus", "FleetEngineStatus"),
    ("$s12TripTracking", "TripTracking"),
    ("$s19FleetEngineEmulator", "FleetEngineEmulator"),
    ("$s16ClientComparison", "the benchmark's callers"),
    ("$s10ClientLoad", "the benchmark's callers"),
    ("$s10FollowLoad", "the benchmark's callers"),
]

FRAME = re.compile(r"\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)$")


def samples(perf_data):
    """Each sample's stack, innermost frame first, as (symbol, library) pairs."""
    output = subprocess.run(
        ["perf", "script", "-i", perf_data, "-F", "ip,sym,dso", "--no-demangle"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    stack = []
    for line in output.splitlines():
        if not line.strip():
            if stack:
                yield stack
            stack = []
            continue
        match = FRAME.match(line)
        if match:
            stack.append((match.group(1), match.group(2)))
    if stack:
        yield stack


def owner(stack):
    symbol, library = stack[0]
    if "kernel" in library:
        return "kernel"
    if "protobuf-c" in library:
        return "libprotobuf-c"
    for symbol, _ in stack:
        for prefix, name in MODULES:
            if symbol.startswith(prefix):
                return name
    return "other: " + library.rsplit("/", 1)[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("perf_data", help="the perf.data file of a `perf record -g` run")
    arguments = parser.parse_args()
    counts = collections.Counter(owner(stack) for stack in samples(arguments.perf_data))
    total = sum(counts.values())
    if total == 0:
        raise SystemExit(f"{arguments.perf_data} holds no samples")
    print(f"| owner | share of {total:,} samples |")
    print("| --- | ---: |")
    for name, count in counts.most_common():
        print(f"| {name} | {100 * count / total:.1f} % |")


if __name__ == "__main__":
    main()
