#!/usr/bin/env python3
"""Times Google's upb parser and serializer on the benchmark fixtures, for BENCHMARKS.md.

    python3 Scripts/bench-upb.py                 # every case, 2 s of samples per operation
    python3 Scripts/bench-upb.py --seconds 5 --case typical --case large

upb is the C parser inside Python's `protobuf` package (protobuf 4.21 and later); it is the fastest
widely used protobuf runtime, so it shows where a C parser's floor is. Each case's bytes are the
golden `.bin` files the Swift benchmarks read. Reported per operation: the median and the 90th
percentile of repeated timeit samples, each sample long enough (about 10 ms) that the timer's
resolution and Python's call overhead do not count for much. Python's loop and call overhead are
still inside the numbers, so for the small trip they are an upper bound.

Needs `google-maps-fleetengine` (brings `protobuf` and `googleapis-common-protos`); the script
refuses to run on the pure-Python or C++ backends.
"""

from __future__ import annotations

import argparse
import pathlib
import platform
import statistics
import sys
import timeit

from google.maps.fleetengine_v1.types import trip_api, trips
from google.protobuf import __version__ as protobuf_version
from google.protobuf.internal import api_implementation

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "Tests" / "FleetEngineCodecTests" / "Fixtures" / "golden"

CASES = [
    ("small", "trip_small", trips.Trip.pb()),
    ("typical", "trip_typical", trips.Trip.pb()),
    ("large", "trip_large", trips.Trip.pb()),
    ("search100", "search_trips_response_100", trip_api.SearchTripsResponse.pb()),
]


def per_op_microseconds(operation, seconds: float) -> tuple[float, float]:
    """Median and p90 in microseconds per call, from samples of about 10 ms each."""
    timer = timeit.Timer(operation)
    number, _ = timer.autorange()  # calls per sample so that one sample takes >= 0.2 s
    number = max(1, number // 20)  # about 10 ms per sample
    one_sample = max(timer.timeit(number), 1e-9)
    repeat = max(20, int(seconds / one_sample))
    samples = sorted(t / number * 1e6 for t in timer.repeat(repeat=repeat, number=number))
    return statistics.median(samples), samples[int(0.9 * (len(samples) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent sampling each operation")
    parser.add_argument(
        "--case",
        action="append",
        choices=[label for label, _, _ in CASES],
        help="measure only this fixture (repeatable; default: all)",
    )
    arguments = parser.parse_args()

    backend = api_implementation.Type()
    if backend != "upb":
        print(f"protobuf's backend is {backend!r}, not 'upb': these numbers would not be upb's", file=sys.stderr)
        return 1

    print(f"protobuf {protobuf_version} ({backend}), Python {platform.python_version()}")
    print("| case | bytes | operation | median µs/op | p90 µs/op |")
    print("| --- | ---: | --- | ---: | ---: |")
    for label, case, message_class in CASES:
        if arguments.case and label not in arguments.case:
            continue
        data = (GOLDEN / f"{case}.bin").read_bytes()
        message = message_class.FromString(data)
        # The same check the Swift benchmarks make: the parse reads the whole message.
        if message.SerializeToString(deterministic=True) != data:
            print(f"upb does not re-serialize {case} to the same bytes", file=sys.stderr)
            return 1
        operations = [
            ("parse (FromString)", lambda: message_class.FromString(data)),
            ("serialize (SerializeToString)", message.SerializeToString),
        ]
        for name, operation in operations:
            median, p90 = per_op_microseconds(operation, arguments.seconds)
            print(f"| {label} | {len(data)} | {name} | {median:.2f} | {p90:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
