#!/usr/bin/env python3
"""Turns the text output of the codec benchmarks into the tables of BENCHMARKS.md.

    swift package --package-path Benchmarks benchmark --scale --time-units nanoseconds --no-progress \\
        | tee benchmark-output.txt
    python3 Scripts/benchmark-summary.py benchmark-output.txt

For every operation and fixture, one row per implementation: the median and 90th percentile of
the wall-clock time per operation in microseconds, mallocs per operation, and how many times
faster than swift-protobuf it is at the median (swift-protobuf's median divided by the row's).
JSON rows compare against swift-protobuf's `jsonString()`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

# Fixtures whose benchmark iterations run 1000 operations each (CodecBenchmarks.configuration):
# the tool prints their time and malloc count per iteration.
OPERATIONS_PER_ITERATION = {"small": 1000}

CASE_ORDER = ["small", "typical", "large", "search100"]
OPERATION_TITLES = {"decode": "Decode (binary to values)", "encode": "Encode (values to binary)", "json": "JSON printing"}
BASELINE = {"decode": "swift-protobuf", "encode": "swift-protobuf", "json": "swift-protobuf jsonString"}
IMPLEMENTATION_ORDER = [
    "FleetEngineCodec",
    "FleetEngineCodec jsonUTF8Bytes",
    "FleetEngineCodec jsonString",
    "swift-protobuf",
    "swift-protobuf jsonString",
    "swift-protobuf jsonUTF8Bytes",
    "protobuf-c",
    "protobuf-c arena",
]
NOTES = {
    ("decode", "protobuf-c"): "C, default allocator; unpack + free_unpacked",
    ("decode", "protobuf-c arena"): "C, the codec's arena; unpack + release",
    ("encode", "protobuf-c"): "C, pack into a preallocated buffer",
}

ANSI = re.compile(r"\x1b\[[0-9;]*m")
NAME = re.compile(r"^(decode|encode|json) (\w+): (.+)$")
TIME_UNITS = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
MAGNITUDES = {"K": 1e3, "M": 1e6, "G": 1e9}


def parse_row(line: str) -> tuple[str, list[float]]:
    cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
    return cells[0], [float(value) for value in cells[1:]]


def scale_of(label: str, units: dict[str, float]) -> float:
    """The factor from the row's printed values to base units (µs for time, 1 for counts)."""
    factor = 1.0
    for unit in re.findall(r"\(([^)]*)\)", label):
        if unit in units:
            factor *= units[unit]
        elif unit in MAGNITUDES:
            factor *= MAGNITUDES[unit]
    return factor


def parse(text: str) -> dict[tuple[str, str], dict[str, dict[str, float]]]:
    """Maps (operation, case) to implementation to median/p90 µs and mallocs per operation."""
    results: dict[tuple[str, str], dict[str, dict[str, float]]] = defaultdict(dict)
    current = None
    for raw in text.splitlines():
        line = ANSI.sub("", raw).rstrip()
        match = NAME.match(line)
        if match:
            current = match.groups()
            continue
        if current is None or not line.startswith("│"):
            continue
        if line.startswith("│ Metric"):
            continue
        label, values = parse_row(line)
        # Columns: p0 p25 p50 p75 p90 p99 p100 samples.
        per_iteration = OPERATIONS_PER_ITERATION.get(current[1], 1)
        entry = results[(current[0], current[1])].setdefault(current[2], {})
        if label.startswith("Time (wall clock)"):
            factor = scale_of(label, TIME_UNITS) / per_iteration
            entry["median"] = values[2] * factor
            entry["p90"] = values[4] * factor
            entry["samples"] = values[7]
        elif label.startswith("Malloc (total)"):
            entry["mallocs"] = values[2] * scale_of(label, {}) / per_iteration
    return results


def format_time(microseconds: float) -> str:
    return f"{microseconds:.2f}" if microseconds < 100 else f"{microseconds:.0f}"


def format_mallocs(count: float) -> str:
    return f"{count:.0f}" if count >= 10 or count == int(count) else f"{count:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="the benchmark tool's text output (default: stdin)")
    arguments = parser.parse_args()
    text = open(arguments.output, encoding="utf-8").read() if arguments.output else sys.stdin.read()
    results = parse(text)
    if not results:
        print("no benchmark results found in the input", file=sys.stderr)
        return 1

    for operation, title in OPERATION_TITLES.items():
        cases = [case for case in CASE_ORDER if (operation, case) in results]
        if not cases:
            continue
        print(f"### {title}\n")
        print(f"| fixture | implementation | median µs/op | p90 µs/op | mallocs/op | × {BASELINE[operation]} |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for case in cases:
            rows = results[(operation, case)]
            baseline = rows.get(BASELINE[operation], {}).get("median")
            names = sorted(rows, key=lambda name: IMPLEMENTATION_ORDER.index(name) if name in IMPLEMENTATION_ORDER else 99)
            for name in names:
                row = rows[name]
                if "median" not in row:
                    continue
                ratio = f"{baseline / row['median']:.2f}" if baseline else "–"
                note = NOTES.get((operation, name))
                shown = f"{name} ({note})" if note else name
                mallocs = format_mallocs(row["mallocs"]) if "mallocs" in row else "–"
                print(
                    f"| {case} | {shown} | {format_time(row['median'])} | {format_time(row['p90'])} "
                    f"| {mallocs} | {ratio} |"
                )
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
