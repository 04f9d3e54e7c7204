#!/usr/bin/env python3
"""Peak memory of decoding 4 MiB inputs of hostile shapes: Google's upb against `fleettrips decode`.

    python3 Benchmarks/Scripts/decoded-memory.py [PATH-TO-fleettrips] [--max-decoded-size BYTES]

Builds each input in memory, writes it to a temporary file, and decodes it in a fresh process per
input: upb through Python's `protobuf` package (`FromString`), and `fleettrips decode --type ...
FILE` with its output sent to /dev/null. A process's peak resident set is what `/usr/bin/time -f %M`
reports (not this script's own wait4: a child's peak starts at its parent's size when it forks);
from it is subtracted the peak of the same command on an empty input, so the figure is what the
decode added. The inputs:

- empty-trips: a SearchTripsResponse of 2,097,152 empty trips (`0a 00` each): the most
  sub-messages 4 MiB can hold, each a whole Trip to both parsers.
- empty-route-points: a Trip whose route holds 2,097,152 empty LatLng (`4a 00` each).
- deep-groups: a Trip holding unknown groups (field 15) nested 99 deep (upb's and the codec's
  limit is 100), repeated to fill 4 MiB.
- packed-unknown: a Trip with one unknown length-delimited field of 4 MiB of one-byte varints,
  the shape of a huge packed repeated field (the Fleet Engine schema has no packed field of its
  own, so a sender's packed field is unknown to both parsers).
- large-trip: the golden large trip with its route repeated up to 4 MiB, a trip as Fleet
  Engine sends it, only longer.

Needs the project's .venv (`Scripts/setup.sh`), whose `protobuf` uses upb.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
GOLDEN = ROOT / "Tests" / "FleetEngineCodecTests" / "Fixtures" / "golden"
FOUR_MIB = 4 * 1024 * 1024

UPB_DECODE = """
import sys
from google.maps.fleetengine_v1.types import trip_api, trips
classes = {"Trip": trips.Trip.pb(), "SearchTripsResponse": trip_api.SearchTripsResponse.pb()}
data = open(sys.argv[2], "rb").read()
if data:
    message = classes[sys.argv[1]].FromString(data)
"""


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def empty_trips() -> bytes:
    return b"\x0a\x00" * (FOUR_MIB // 2)


def empty_route_points() -> bytes:
    return b"\x4a\x00" * (FOUR_MIB // 2)


def deep_groups() -> bytes:
    start, end = varint(15 << 3 | 3), varint(15 << 3 | 4)
    nest = start * 99 + end * 99
    return nest * (FOUR_MIB // len(nest))


def packed_unknown() -> bytes:
    payload_size = FOUR_MIB - 8
    return varint(1000 << 3 | 2) + varint(payload_size) + b"\x01" * payload_size


def large_trip() -> bytes:
    from google.maps.fleetengine_v1.types import trips

    trip = trips.Trip.pb().FromString((GOLDEN / "trip_large.bin").read_bytes())
    route = list(trip.route)
    while trip.ByteSize() < FOUR_MIB - 64 * 1024:
        trip.route.extend(route)
    return trip.SerializeToString(deterministic=True)


INPUTS = [
    ("empty-trips", "SearchTripsResponse", empty_trips),
    ("empty-route-points", "Trip", empty_route_points),
    ("deep-groups", "Trip", deep_groups),
    ("packed-unknown", "Trip", packed_unknown),
    ("large-trip", "Trip", large_trip),
]


def peak_kib(command: list[str]) -> tuple[int, int]:
    """Runs `command` to completion; its peak resident set in KiB and its exit status."""
    with tempfile.NamedTemporaryFile("r") as report:
        process = subprocess.run(
            ["/usr/bin/time", "-o", report.name, "-f", "%M"] + command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return int(report.read().split()[-1]), process.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fleettrips", nargs="?", default=str(ROOT / ".build" / "debug" / "fleettrips"))
    parser.add_argument("--max-decoded-size", type=int, help="passed to fleettrips decode")
    arguments = parser.parse_args()

    ours = [arguments.fleettrips, "decode"]
    if arguments.max_decoded_size is not None:
        ours += ["--max-decoded-size", str(arguments.max_decoded_size)]
    print("| input | bytes | upb peak MiB | upb / input | ours peak MiB | ours / input | ours exit |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as directory:
        empty = pathlib.Path(directory) / "empty.bin"
        empty.write_bytes(b"")
        for label, message_type, build in INPUTS:
            data = build()
            path = pathlib.Path(directory) / f"{label}.bin"
            path.write_bytes(data)
            upb = [sys.executable, "-c", UPB_DECODE, message_type]
            upb_base, _ = peak_kib(upb + [str(empty)])
            upb_peak, upb_status = peak_kib(upb + [str(path)])
            if upb_status != 0:
                print(f"upb refused {label} (exit {upb_status})", file=sys.stderr)
            swift = ours + ["--type", f"maps.fleetengine.v1.{message_type}"]
            our_base, _ = peak_kib(swift + [str(empty)])
            our_peak, our_status = peak_kib(swift + [str(path)])
            upb_mib = (upb_peak - upb_base) / 1024
            our_mib = (our_peak - our_base) / 1024
            input_mib = len(data) / (1024 * 1024)
            print(
                f"| {label} | {len(data)} | {upb_mib:.0f} | {upb_mib / input_mib:.0f}x "
                f"| {our_mib:.0f} | {our_mib / input_mib:.0f}x | {our_status} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
