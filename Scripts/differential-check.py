#!/usr/bin/env python3
"""Differential check: our binary decoder against Google's (upb, in Python's protobuf package).

    python3 Scripts/differential-check.py FOLDER [FOLDER ...]

Every file in the folders (typically the fuzzer's corpus, FuzzTesting/corpus-work) is read as
FuzzDecode reads it: the first byte picks the message type, the rest is the message. For each
binary input, our decoder (FuzzTesting's DifferentialDecode tool) and Google's parser must agree:
both refuse it, or both accept it and re-encode it to the same bytes (Google's deterministic
serialization). Prints a summary and every disagreement (the first 20 in full); exits 1 on any.

Two differences are documented behaviour, not disagreements, and are counted apart:
- an unknown field whose tag was written in more bytes than needed (`88 00` for `08`): Google keeps
  the padded tag, we write it in its shortest form (protobuf-c packs tags that way);
- `google.protobuf.Empty`: upb keeps whatever bytes it is given unparsed, even a field number 0; we
  check them as for any message, as Google's C++ parser does.

Builds the tool first (release, no sanitizers) unless DIFFERENTIAL_DECODE names a built binary.
"""

import os
import subprocess
import sys

from google.protobuf import descriptor_pool, message_factory
from google.protobuf.message import DecodeError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "FuzzTesting")
SCRATCH = os.path.join(FUZZ, ".build-differential")


def google_classes():
    """Google's message class for each full name, from the packages the golden vectors use."""
    import google.protobuf.any_pb2  # noqa: F401  (registers the well-known types)
    import google.protobuf.duration_pb2  # noqa: F401
    import google.protobuf.empty_pb2  # noqa: F401
    import google.protobuf.field_mask_pb2  # noqa: F401
    import google.protobuf.timestamp_pb2  # noqa: F401
    import google.protobuf.wrappers_pb2  # noqa: F401
    import google.rpc.error_details_pb2  # noqa: F401
    import google.rpc.status_pb2  # noqa: F401
    import google.type.latlng_pb2  # noqa: F401
    from google.maps.fleetengine_v1.types import trips

    pools = [trips.Trip.pb().DESCRIPTOR.file.pool, descriptor_pool.Default()]
    cache = {}

    def lookup(name):
        if name not in cache:
            for pool in pools:
                try:
                    cache[name] = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
                    break
                except KeyError:
                    continue
            else:
                raise SystemExit("Google's packages have no message " + name)
        return cache[name]

    return lookup


def read_varint(data, position):
    value, shift = 0, 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def shortest_tags(data, descriptor):
    """Google's bytes with every unknown field's tag in its shortest form (recursing into known
    sub-messages), which is how we write them."""
    out, position = bytearray(), 0
    while position < len(data):
        tag, after_tag = read_varint(data, position)
        number, wire_type = tag >> 3, tag & 7
        if wire_type == 0:
            _, end = read_varint(data, after_tag)
        elif wire_type == 1:
            end = after_tag + 8
        elif wire_type == 5:
            end = after_tag + 4
        elif wire_type == 2:
            length, start = read_varint(data, after_tag)
            end = start + length
        else:  # a group: find its end tag
            end, depth = after_tag, 1
            while depth:
                inner, end = read_varint(data, end)
                if inner & 7 == 3:
                    depth += 1
                elif inner & 7 == 4:
                    depth -= 1
                    continue
                if depth and inner & 7 != 4:
                    end = skip_value(data, end, inner & 7)
        field = descriptor.fields_by_number.get(number)
        if field is not None and wire_type == 2 and field.message_type is not None:
            inner = shortest_tags(data[start:end], field.message_type)
            out += data[position:after_tag] + varint(len(inner)) + inner
        elif field is None or not matches(field, wire_type):
            out += varint(tag) + data[after_tag:end]
        else:
            out += data[position:end]
        position = end
    return bytes(out)


def skip_value(data, position, wire_type):
    if wire_type == 0:
        return read_varint(data, position)[1]
    if wire_type == 1:
        return position + 8
    if wire_type == 5:
        return position + 4
    length, start = read_varint(data, position)
    return start + length


def matches(field, wire_type):
    from google.protobuf.descriptor import FieldDescriptor as F

    expected = {F.TYPE_DOUBLE: 1, F.TYPE_FIXED64: 1, F.TYPE_SFIXED64: 1, F.TYPE_FLOAT: 5, F.TYPE_FIXED32: 5,
                F.TYPE_SFIXED32: 5, F.TYPE_STRING: 2, F.TYPE_BYTES: 2, F.TYPE_MESSAGE: 2}.get(field.type, 0)
    return wire_type == expected or (wire_type == 2 and field.is_repeated and expected != 2)


def tool_path():
    if os.environ.get("DIFFERENTIAL_DECODE"):
        return os.environ["DIFFERENTIAL_DECODE"]
    subprocess.run(
        ["swift", "build", "-c", "release", "--package-path", FUZZ, "--scratch-path", SCRATCH,
         "--product", "DifferentialDecode"],
        check=True,
    )
    return os.path.join(SCRATCH, "release", "DifferentialDecode")


def main():
    folders = sys.argv[1:]
    if not folders:
        print(__doc__)
        return 2
    paths = sorted(
        os.path.join(folder, name) for folder in folders for name in os.listdir(folder)
        if os.path.isfile(os.path.join(folder, name))
    )
    ours = subprocess.run(
        [tool_path()], input="\n".join(paths) + "\n", capture_output=True, text=True, check=True
    ).stdout.splitlines()
    lookup = google_classes()
    counts = {
        "both refuse": 0,
        "both accept, same bytes": 0,
        "same but for padded tags": 0,
        "upb keeps Empty unparsed": 0,
        "skipped (JSON input)": 0,
    }
    disagreements = []
    for line in ours:
        path, type_name, result = line.split("\t")
        if result == "SKIP":
            counts["skipped (JSON input)"] += 1
            continue
        with open(path, "rb") as f:
            body = f.read()[1:]
        cls = lookup(type_name)
        try:
            google_bytes = cls.FromString(body).SerializeToString(deterministic=True)
            google = google_bytes.hex()
        except DecodeError:
            google_bytes = google = None
        if result.startswith("ERROR") and google is None:
            counts["both refuse"] += 1
        elif not result.startswith("ERROR") and google == result:
            counts["both accept, same bytes"] += 1
        elif google is not None and not result.startswith("ERROR") and \
                shortest_tags(google_bytes, cls.DESCRIPTOR).hex() == result:
            counts["same but for padded tags"] += 1
        elif type_name == "google.protobuf.Empty":
            counts["upb keeps Empty unparsed"] += 1
        else:
            disagreements.append((path, type_name, body.hex(), result, google or "DecodeError"))
    for label, count in counts.items():
        print("%-26s %d" % (label + ":", count))
    print("%-26s %d" % ("disagreements:", len(disagreements)))
    for path, type_name, body, result, google in disagreements[:20]:
        print("\n%s (%s)\n  input:  %s\n  ours:   %s\n  google: %s" % (path, type_name, body[:400], result, google))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
