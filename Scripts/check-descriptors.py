#!/usr/bin/env python3
"""Check that our .proto files describe the same messages Google publishes.

The Swift codec is built from the schema in Protos/. This script proves that schema is
wire-compatible with Google's own published one by comparing descriptors, field by field:

  ours:   protoc -I Protos --include_imports --descriptor_set_out=...   (every .proto under Protos/)
  Google: the descriptors inside Google's Python packages
          - maps.fleetengine.v1  google-maps-fleetengine (google.maps.fleetengine_v1.types.*)
          - google.rpc           googleapis-common-protos (google.rpc.status_pb2, error_details_pb2)
          - google.type          googleapis-common-protos (google.type.latlng_pb2)
          - google.protobuf      protobuf (google.protobuf.*_pb2)

Messages and enums are matched by full name (proto-plus names its files
google/maps/fleetengine_v1/types/*.proto, ours are google/maps/fleetengine/v1/*.proto, so file
names are not compared). For each message: nested message and enum names, map-entry-ness, oneof
names, and per field its name, number, label, type, type name, oneof membership, json name and
proto3_optional flag. For each enum: value names and numbers. For the TripService: method names,
input and output types, and streaming kind.

Every message and enum that Google declares in the trip files (header, fleetengine, traffic, trips,
trip_api), in google/rpc/{status,error_details}.proto, google/type/latlng.proto and the
google/protobuf files we mirror must exist in ours, and everything we declare must exist in
Google's. The vehicle files (vehicles, vehicle_api) are out of scope: their messages are not
required, but if we ever declare one it is compared with Google's.

One difference is allowed, and reported as such: Google's QuotaFailure.Violation.future_quota_value
is a proto3 `optional` field (proto3_optional=true in the synthetic oneof _future_quota_value).
protoc-c 1.4.1 rejects `optional`, so ours spells it as the same single-member oneof without the
flag; wire format and JSON are the same.

Run from the repository root:

    python3 Scripts/check-descriptors.py [--protos DIR]

Prints what it checked and every difference; exits 1 when there is any difference.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import inspect
import pathlib
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2, descriptor_pool

FieldDescriptorProto = descriptor_pb2.FieldDescriptorProto

OUR_PACKAGES = ("maps.fleetengine.v1", "google.rpc", "google.type", "google.protobuf")

# Google's modules whose declarations must all appear in ours.
REQUIRED_FLEETENGINE_MODULES = ("header", "fleetengine", "traffic", "trips", "trip_api")
# Out of scope: compared only if we declare one of their types.
OPTIONAL_FLEETENGINE_MODULES = ("vehicles", "vehicle_api")
REQUIRED_PB2_MODULES = (
    "google.rpc.status_pb2",
    "google.rpc.error_details_pb2",
    "google.type.latlng_pb2",
    "google.protobuf.any_pb2",
    "google.protobuf.duration_pb2",
    "google.protobuf.empty_pb2",
    "google.protobuf.field_mask_pb2",
    "google.protobuf.timestamp_pb2",
    "google.protobuf.wrappers_pb2",
)

TRIP_SERVICE = "maps.fleetengine.v1.TripService"
TRIP_SERVICE_GRPC_MODULE = "google.maps.fleetengine_v1.services.trip_service.transports.grpc"

# The one allowed difference (see the module docstring).
ALLOWED_PROTO3_OPTIONAL = "google.rpc.QuotaFailure.Violation.future_quota_value"


@dataclasses.dataclass(frozen=True)
class Field:
    """What of a field matters on the wire and in JSON."""

    name: str
    number: int
    label: str
    type: str
    type_name: str
    oneof: str | None
    json_name: str
    proto3_optional: bool


@dataclasses.dataclass
class Message:
    full_name: str
    syntax: str
    map_entry: bool
    oneofs: list[str]
    fields: dict[str, Field]
    nested_messages: set[str]
    nested_enums: set[str]


@dataclasses.dataclass
class Enum:
    full_name: str
    values: dict[str, int]


@dataclasses.dataclass(frozen=True)
class Method:
    name: str
    input_type: str
    output_type: str
    client_streaming: bool
    server_streaming: bool


def lower_camel_case(name: str) -> str:
    """The json name protoc derives when a field has none: drop underscores, capitalise what follows."""
    out = []
    upper_next = False
    for ch in name:
        if ch == "_":
            upper_next = True
        elif upper_next:
            out.append(ch.upper())
            upper_next = False
        else:
            out.append(ch)
    return "".join(out)


def label_name(label: int) -> str:
    return FieldDescriptorProto.Label.Name(label).removeprefix("LABEL_").lower()


def type_name(field_type: int) -> str:
    return FieldDescriptorProto.Type.Name(field_type).removeprefix("TYPE_").lower()


class Schema:
    """Messages, enums and services of some files, indexed by full name."""

    def __init__(self) -> None:
        self.messages: dict[str, Message] = {}
        self.enums: dict[str, Enum] = {}
        self.services: dict[str, dict[str, Method]] = {}

    def add_file(self, file: descriptor_pb2.FileDescriptorProto, json_names: dict[str, str] | None = None) -> None:
        """Index one file; `json_names` (full field name -> json name) overrides what the proto holds."""
        prefix = "." + file.package if file.package else ""
        syntax = file.syntax or "proto2"
        for message in file.message_type:
            self._add_message(message, prefix, syntax, json_names or {})
        for enum in file.enum_type:
            self._add_enum(enum, prefix)
        for service in file.service:
            methods = {
                m.name: Method(m.name, m.input_type, m.output_type, m.client_streaming, m.server_streaming)
                for m in service.method
            }
            self.services[f"{prefix}.{service.name}".lstrip(".")] = methods

    def _add_message(self, message, prefix: str, syntax: str, json_names: dict[str, str]) -> None:
        full = f"{prefix}.{message.name}"
        oneofs = [o.name for o in message.oneof_decl]
        fields = {}
        for f in message.field:
            full_field = f"{full}.{f.name}".lstrip(".")
            # upb's CopyToProto leaves json_name empty; protoc fills it. Either way the
            # effective name is the explicit one or protoc's lowerCamelCase derivation.
            json_name = json_names.get(full_field) or f.json_name or lower_camel_case(f.name)
            fields[f.name] = Field(
                name=f.name,
                number=f.number,
                label=label_name(f.label),
                type=type_name(f.type),
                type_name=f.type_name,
                oneof=oneofs[f.oneof_index] if f.HasField("oneof_index") else None,
                json_name=json_name,
                proto3_optional=f.proto3_optional,
            )
        self.messages[full.lstrip(".")] = Message(
            full_name=full.lstrip("."),
            syntax=syntax,
            map_entry=message.options.map_entry,
            oneofs=oneofs,
            fields=fields,
            nested_messages={n.name for n in message.nested_type},
            nested_enums={e.name for e in message.enum_type},
        )
        for nested in message.nested_type:
            self._add_message(nested, full, syntax, json_names)
        for enum in message.enum_type:
            self._add_enum(enum, full)

    def _add_enum(self, enum, prefix: str) -> None:
        full = f"{prefix}.{enum.name}".lstrip(".")
        self.enums[full] = Enum(full, {v.name: v.number for v in enum.value})

    def names(self) -> set[str]:
        return set(self.messages) | set(self.enums)


# --- loading ours -------------------------------------------------------------------------------


def load_ours(protos: pathlib.Path) -> tuple[Schema, list[str]]:
    """Compile every .proto under `protos` with protoc and index the declarations in our packages."""
    sources = sorted(str(p.relative_to(protos)) for p in protos.rglob("*.proto"))
    if not sources:
        raise SystemExit(f"no .proto files under {protos}")
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "ours.pb"
        cmd = ["protoc", "-I", str(protos), "--include_imports", f"--descriptor_set_out={out}", *sources]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"protoc failed:\n{result.stderr}")
        file_set = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    schema = Schema()
    files = []
    for file in file_set.file:
        if file.package in OUR_PACKAGES:
            schema.add_file(file)
            files.append(file.name)
    return schema, files


# --- loading Google's ---------------------------------------------------------------------------


def json_names_of(file_descriptor) -> dict[str, str]:
    """json names as Google's runtime (and so its JSON printer) sees them, by full field name."""
    names = {}

    def walk(message) -> None:
        for f in message.fields:
            names[f.full_name] = f.json_name
        for nested in message.nested_types:
            walk(nested)

    for message in file_descriptor.message_types_by_name.values():
        walk(message)
    return names


def fleetengine_file(module_name: str):
    """The FileDescriptor behind one proto-plus module of google.maps.fleetengine_v1.types."""
    module = importlib.import_module(f"google.maps.fleetengine_v1.types.{module_name}")
    for name in sorted(module.__protobuf__.manifest):
        obj = getattr(module, name)
        if hasattr(obj, "pb"):
            return obj.pb().DESCRIPTOR.file
    raise SystemExit(f"no message class in google.maps.fleetengine_v1.types.{module_name}")


def add_google_file(schema: Schema, file_descriptor) -> str:
    proto = descriptor_pb2.FileDescriptorProto()
    file_descriptor.CopyToProto(proto)
    schema.add_file(proto, json_names_of(file_descriptor))
    return file_descriptor.name


def load_google() -> tuple[Schema, Schema, list[str]]:
    """Google's declarations: the required set and the out-of-scope vehicle files."""
    required = Schema()
    files = [add_google_file(required, fleetengine_file(m)) for m in REQUIRED_FLEETENGINE_MODULES]
    for module_name in REQUIRED_PB2_MODULES:
        files.append(add_google_file(required, importlib.import_module(module_name).DESCRIPTOR))
    optional = Schema()
    for module_name in OPTIONAL_FLEETENGINE_MODULES:
        add_google_file(optional, fleetengine_file(module_name))
    return required, optional, files


def lookup_in_default_pool(full_name: str) -> Schema | None:
    """A type we declare that no reference file has: maybe Google's runtime knows it anyway."""
    pool = descriptor_pool.Default()
    for finder in (pool.FindMessageTypeByName, pool.FindEnumTypeByName):
        try:
            descriptor = finder(full_name)
        except KeyError:
            continue
        schema = Schema()
        add_google_file(schema, descriptor.file)
        return schema
    return None


def google_trip_service() -> tuple[dict[str, Method], str]:
    """TripService's methods from Google's descriptor pool, or else from the gRPC transport's source.

    proto-plus packages carry no service descriptors, so the usual source is the transport: each
    method is a `unary_unary("/maps.fleetengine.v1.TripService/<Name>", request_serializer=X.serialize,
    response_deserializer=Y.deserialize)` call; X and Y are resolved in that module's namespace.
    """
    try:
        service = descriptor_pool.Default().FindServiceByName(TRIP_SERVICE)
    except KeyError:
        service = None
    if service is not None:
        methods = {
            m.name: Method(
                m.name,
                "." + m.input_type.full_name,
                "." + m.output_type.full_name,
                m.client_streaming,
                m.server_streaming,
            )
            for m in service.methods
        }
        return methods, "Google's descriptor pool"

    module = importlib.import_module(TRIP_SERVICE_GRPC_MODULE)
    source_path = inspect.getsourcefile(module)
    tree = ast.parse(pathlib.Path(source_path).read_text())
    streaming = {
        "unary_unary": (False, False),
        "unary_stream": (False, True),
        "stream_unary": (True, False),
        "stream_stream": (True, True),
    }

    def resolve(expression: ast.expr) -> str:
        # `trip_api.CreateTripRequest.serialize` -> the class -> its descriptor's full name.
        if not isinstance(expression, ast.Attribute):
            raise SystemExit(f"unexpected serializer expression in {source_path}: {ast.dump(expression)}")
        parts = []
        node = expression.value
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        parts.append(node.id)
        obj = module
        for part in reversed(parts):
            obj = getattr(obj, part)
        descriptor = obj.pb().DESCRIPTOR if hasattr(obj, "pb") else obj.DESCRIPTOR
        return "." + descriptor.full_name

    methods = {}
    prefix = f"/{TRIP_SERVICE}/"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in streaming or not node.args:
            continue
        path = node.args[0]
        if not (isinstance(path, ast.Constant) and str(path.value).startswith(prefix)):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        name = path.value[len(prefix) :]
        client_streaming, server_streaming = streaming[node.func.attr]
        methods[name] = Method(
            name,
            resolve(keywords["request_serializer"]),
            resolve(keywords["response_deserializer"]),
            client_streaming,
            server_streaming,
        )
    if not methods:
        raise SystemExit(f"found no TripService methods in {source_path}")
    return methods, f"the method paths in {source_path}"


# --- comparing ----------------------------------------------------------------------------------


class Report:
    def __init__(self) -> None:
        self.differences: list[str] = []
        self.allowed: list[str] = []
        self.counts = dict(messages=0, map_entries=0, enums=0, fields=0, enum_values=0, oneofs=0, methods=0)

    def differ(self, text: str) -> None:
        self.differences.append(text)


def compare_field(report: Report, message: str, theirs: Field, ours: Field) -> None:
    where = f"{message}.{theirs.name}"
    for attribute in ("number", "label", "type", "type_name", "oneof", "json_name"):
        a, b = getattr(theirs, attribute), getattr(ours, attribute)
        if a != b:
            report.differ(f"{where}: {attribute} is {b!r} in ours, {a!r} in Google's")
    if theirs.proto3_optional != ours.proto3_optional:
        if where == ALLOWED_PROTO3_OPTIONAL and theirs.proto3_optional and theirs.oneof == ours.oneof:
            report.allowed.append(
                f"{where}: Google's is proto3 `optional` (proto3_optional=true, synthetic oneof "
                f"{theirs.oneof}); ours is the same single-member oneof without the flag, because "
                "protoc-c 1.4.1 rejects `optional`. Same wire format and JSON: treated as equal."
            )
        else:
            report.differ(
                f"{where}: proto3_optional is {ours.proto3_optional} in ours, {theirs.proto3_optional} in Google's"
            )


def compare_message(report: Report, theirs: Message, ours: Message) -> None:
    name = theirs.full_name
    report.counts["messages"] += 1
    report.counts["map_entries"] += int(ours.map_entry)
    if theirs.syntax != ours.syntax:
        report.differ(f"{name}: syntax is {ours.syntax} in ours, {theirs.syntax} in Google's")
    if theirs.map_entry != ours.map_entry:
        report.differ(f"{name}: map_entry is {ours.map_entry} in ours, {theirs.map_entry} in Google's")
    if sorted(theirs.oneofs) != sorted(ours.oneofs):
        report.differ(f"{name}: oneofs are {sorted(ours.oneofs)} in ours, {sorted(theirs.oneofs)} in Google's")
    report.counts["oneofs"] += len(set(theirs.oneofs) & set(ours.oneofs))
    for kind, a, b in (
        ("nested messages", theirs.nested_messages, ours.nested_messages),
        ("nested enums", theirs.nested_enums, ours.nested_enums),
    ):
        if a != b:
            report.differ(f"{name}: {kind} are {sorted(b)} in ours, {sorted(a)} in Google's")
    for field_name in sorted(set(theirs.fields) - set(ours.fields)):
        f = theirs.fields[field_name]
        report.differ(f"{name}: field {field_name} = {f.number} is missing from ours")
    for field_name in sorted(set(ours.fields) - set(theirs.fields)):
        f = ours.fields[field_name]
        report.differ(f"{name}: field {field_name} = {f.number} is ours only (Google has no such field)")
    for field_name in sorted(set(theirs.fields) & set(ours.fields)):
        report.counts["fields"] += 1
        compare_field(report, name, theirs.fields[field_name], ours.fields[field_name])
    numbers = [f.number for f in ours.fields.values()]
    if len(numbers) != len(set(numbers)):
        report.differ(f"{name}: ours uses a field number twice: {sorted(numbers)}")


def compare_enum(report: Report, theirs: Enum, ours: Enum) -> None:
    name = theirs.full_name
    report.counts["enums"] += 1
    for value in sorted(set(theirs.values) - set(ours.values)):
        report.differ(f"{name}: value {value} = {theirs.values[value]} is missing from ours")
    for value in sorted(set(ours.values) - set(theirs.values)):
        report.differ(f"{name}: value {value} = {ours.values[value]} is ours only")
    for value in sorted(set(theirs.values) & set(ours.values)):
        report.counts["enum_values"] += 1
        if theirs.values[value] != ours.values[value]:
            report.differ(f"{name}.{value}: number is {ours.values[value]} in ours, {theirs.values[value]} in Google's")


def compare_declaration(report: Report, name: str, theirs: Schema, ours: Schema) -> None:
    if name in theirs.messages and name in ours.messages:
        compare_message(report, theirs.messages[name], ours.messages[name])
    elif name in theirs.enums and name in ours.enums:
        compare_enum(report, theirs.enums[name], ours.enums[name])
    else:
        kind_theirs = "message" if name in theirs.messages else "enum"
        kind_ours = "message" if name in ours.messages else "enum"
        report.differ(f"{name}: is a {kind_ours} in ours, a {kind_theirs} in Google's")


def compare_service(report: Report, ours: Schema, theirs: dict[str, Method]) -> None:
    services = {n for n in ours.services if n.split(".")[:-1] == TRIP_SERVICE.split(".")[:-1]}
    for extra in sorted(services - {TRIP_SERVICE}):
        report.differ(f"service {extra}: ours only (out of scope or unknown to Google's package)")
    if TRIP_SERVICE not in ours.services:
        report.differ(f"service {TRIP_SERVICE}: missing from ours")
        return
    mine = ours.services[TRIP_SERVICE]
    for name in sorted(set(theirs) - set(mine)):
        report.differ(f"{TRIP_SERVICE}.{name}: missing from ours")
    for name in sorted(set(mine) - set(theirs)):
        report.differ(f"{TRIP_SERVICE}.{name}: ours only")
    for name in sorted(set(theirs) & set(mine)):
        report.counts["methods"] += 1
        for attribute in ("input_type", "output_type", "client_streaming", "server_streaming"):
            a, b = getattr(theirs[name], attribute), getattr(mine[name], attribute)
            if a != b:
                report.differ(f"{TRIP_SERVICE}.{name}: {attribute} is {b!r} in ours, {a!r} in Google's")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protos", default="Protos", type=pathlib.Path, help="our .proto root (default: Protos)")
    args = parser.parse_args()

    ours, our_files = load_ours(args.protos)
    required, optional, google_files = load_google()
    service_methods, service_source = google_trip_service()
    report = Report()

    for name in sorted(required.names() - ours.names()):
        report.differ(f"{name}: declared by Google, missing from ours")
    for name in sorted(ours.names()):
        if name in required.names():
            compare_declaration(report, name, required, ours)
        elif name in optional.names():
            compare_declaration(report, name, optional, ours)
        elif (pool_schema := lookup_in_default_pool(name)) is not None:
            compare_declaration(report, name, pool_schema, ours)
        else:
            report.differ(f"{name}: declared by ours, unknown to Google's packages")
    compare_service(report, ours, service_methods)

    print(f"ours:     {len(our_files)} files from protoc ({args.protos})")
    print(f"Google's: {len(google_files)} files from the installed Python packages")
    print(f"TripService methods taken from {service_source}")
    c = report.counts
    print(
        f"compared {c['messages']} messages (incl. nested, {c['map_entries']} map entries), {c['fields']} fields, "
        f"{c['oneofs']} oneofs, {c['enums']} enums, {c['enum_values']} enum values, {c['methods']} TripService methods"
    )
    for note in report.allowed:
        print(f"allowed difference: {note}")
    if report.differences:
        print(f"{len(report.differences)} difference(s):")
        for difference in report.differences:
            print(f"  - {difference}")
        return 1
    print("no differences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
