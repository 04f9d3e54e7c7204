#!/usr/bin/env python3
"""Write the google.rpc.Status fixtures the status layer is tested against, made with Google's own code.

Every status here is built with the message classes of googleapis-common-protos (google.rpc.status_pb2,
error_details_pb2, code_pb2) and turned into trailers by grpcio-status (grpc_status.rpc_status.to_status),
so the expected bytes, JSON and trailer values come from implementations we did not write.

Output: Tests/FleetEngineStatusTests/Fixtures/status-vectors.json, an object with the package versions
used and a list of cases. Each case has:

  name, code, codeName        the status code and its name in google.rpc.Code (code_pb2)
  message                     google.rpc.Status.message (some with non-ASCII text, '%', control characters)
  grpcMessage                 the message as the grpc-message trailer carries it: UTF-8 with every byte outside
                              0x20-0x7E and every '%' as %XX (gRPC's doc/PROTOCOL-HTTP2.md, "Responses");
                              computed here by that rule, since grpcio's C core does it below the Python API
  statusBase64                the serialized google.rpc.Status, standard padded base64
  statusJson                  json_format.MessageToJson(status) as a JSON object, or null when Python cannot
                              print it (a detail of a type it does not know, or bytes that do not parse)
  details                     per detail: typeUrl, typeName, valueBase64 (the Any's value), json (the detail's
                              own MessageToJson as a JSON object, for the ten types of error_details.proto;
                              null otherwise), anyJson (MessageToJson of the Any, or null), and
                              pythonParseError (why Python could not parse the value, or null)
  trailers                    what to_status returns: code (number), grpcCodeName (grpc.StatusCode name),
                              details (the message string), and grpcStatusDetailsBinBase64 (the
                              grpc-status-details-bin value as standard padded base64). The script checks that
                              these bytes equal statusBase64's. Null when to_status refuses the status (a code
                              outside google.rpc.Code), with its error in toStatusError.

Details are packed with Any.Pack(..., deterministic=True), which orders map entries by key; without it upb
writes them in a per-process random order and no other encoder could be expected to match the bytes.
All values are fixed and the JSON is written with sorted keys: running the script twice writes an
identical file.

    python3 Scripts/make-status-fixtures.py [--out FILE]
"""

from __future__ import annotations

import argparse
import base64
import json
import pathlib
import sys
from importlib import metadata

from google.protobuf import any_pb2, duration_pb2, json_format
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DEFAULT_OUT = pathlib.Path("Tests/FleetEngineStatusTests/Fixtures/status-vectors.json")
TRIP = "providers/fleet-demo-sf/trips/trip-5f2a9c0d1e7b"
PROJECT = "projects/fleet-demo-sf"
# A type no descriptor pool knows, as a server of another API might send.
MADE_UP_TYPE_URL = "type.example.com/example.fleet.v1.DispatchHint"
# Field 1 varint 150, field 2 string "abc", field 3 fixed32: a message only its sender can read.
MADE_UP_VALUE = bytes.fromhex("089601120361626335efbeadde")

STANDARD_TYPES = {descriptor.full_name for descriptor in error_details_pb2.DESCRIPTOR.message_types_by_name.values()}


# --- the ten detail types, every field set ------------------------------------------------------


def error_info() -> error_details_pb2.ErrorInfo:
    return error_details_pb2.ErrorInfo(
        reason="TRIP_NOT_VISIBLE_TO_CONSUMER",
        domain="fleetengine.googleapis.com",
        metadata={
            "tripId": "trip-5f2a9c0d1e7b",
            "providerId": "fleet-demo-sf",
            "consumer": "rider-42",
            "Zone": "us-west1",
        },
    )


def retry_info(seconds: int = 2, nanos: int = 250_000_000) -> error_details_pb2.RetryInfo:
    return error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=seconds, nanos=nanos))


def debug_info() -> error_details_pb2.DebugInfo:
    return error_details_pb2.DebugInfo(
        stack_entries=[
            "fleetengine.TripService.GetTrip",
            "fleetengine.storage.ReadTrip (shard 17)",
            "spanner.Read: déjà vu ↻",
        ],
        detail="read timed out after 30s\tretry budget exhausted",
    )


def localized_message(
    locale: str = "ja-JP", text: str = "ルートが見つかりません 🚕"
) -> error_details_pb2.LocalizedMessage:
    return error_details_pb2.LocalizedMessage(locale=locale, message=text)


def quota_failure() -> error_details_pb2.QuotaFailure:
    return error_details_pb2.QuotaFailure(
        violations=[
            error_details_pb2.QuotaFailure.Violation(
                subject=f"project:{PROJECT}",
                description="GetTrip requests per minute per project exceeded",
                api_service="fleetengine.googleapis.com",
                quota_metric="fleetengine.googleapis.com/get_trip_requests",
                quota_id="GetTripRequestsPerMinutePerProject",
                quota_dimensions={"region": "us-west1", "consumer": "rider-42"},
                quota_value=600,
                future_quota_value=1200,
            ),
            # future_quota_value has presence: zero, set, must survive (JSON prints "0").
            error_details_pb2.QuotaFailure.Violation(
                subject="clientip:203.0.113.7",
                description="Too many requests from this address",
                quota_value=-1,
                future_quota_value=0,
            ),
        ]
    )


def precondition_failure() -> error_details_pb2.PreconditionFailure:
    return error_details_pb2.PreconditionFailure(
        violations=[
            error_details_pb2.PreconditionFailure.Violation(
                type="TRIP_STATE",
                subject=TRIP,
                description="The trip is COMPLETE; only NEW or ENROUTE trips can be updated.",
            ),
            error_details_pb2.PreconditionFailure.Violation(
                type="TOS", subject="google.com/fleetengine", description="Terms of service not accepted"
            ),
        ]
    )


def bad_request() -> error_details_pb2.BadRequest:
    return error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(
                field="trip.pickup_point.point.latitude",
                description="latitude must be between -90 and 90",
                reason="LATITUDE_OUT_OF_RANGE",
                localized_message=localized_message("de-DE", "Breitengrad außerhalb des gültigen Bereichs"),
            ),
            error_details_pb2.BadRequest.FieldViolation(
                field="name",
                description="must read providers/{provider}/trips/{trip}",
                reason="INVALID_TRIP_NAME",
                localized_message=localized_message("en-US", "The trip name is malformed."),
            ),
        ]
    )


def request_info() -> error_details_pb2.RequestInfo:
    return error_details_pb2.RequestInfo(
        request_id="7b3f9a1e-0c2d-4e5f-8a9b-1c2d3e4f5a6b", serving_data="stack:fe-usw1-b;cell=7"
    )


def resource_info() -> error_details_pb2.ResourceInfo:
    return error_details_pb2.ResourceInfo(
        resource_type="fleetengine.googleapis.com/Trip",
        resource_name=TRIP,
        owner="project:fleet-demo-sf",
        description="The trip does not exist or was deleted.",
    )


def help_links() -> error_details_pb2.Help:
    return error_details_pb2.Help(
        links=[
            error_details_pb2.Help.Link(
                description="Fleet Engine error codes",
                url="https://developers.google.com/maps/documentation/mobility/fleet-engine/essentials/errors",
            ),
            error_details_pb2.Help.Link(description="Quotas", url="https://console.cloud.google.com/iam-admin/quotas"),
        ]
    )


def all_standard_details() -> list:
    return [
        error_info(),
        retry_info(),
        debug_info(),
        quota_failure(),
        precondition_failure(),
        bad_request(),
        request_info(),
        resource_info(),
        help_links(),
        localized_message(),
    ]


# --- packing and describing ---------------------------------------------------------------------


def pack(message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message, deterministic=True)
    return packed


def raw_any(type_url: str, value: bytes) -> any_pb2.Any:
    return any_pb2.Any(type_url=type_url, value=value)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def grpc_message(text: str) -> str:
    """Percent-encodes text for grpc-message (gRPC's doc/PROTOCOL-HTTP2.md, "Responses")."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x25 else f"%{b:02X}" for b in text.encode("utf-8"))


def json_object(message):
    """MessageToJson's text parsed back, or None when Python cannot print the message."""
    try:
        return json.loads(json_format.MessageToJson(message))
    except (json_format.Error, TypeError, KeyError, DecodeError):
        return None


def describe_detail(packed: any_pb2.Any) -> dict:
    type_name = packed.type_url.rsplit("/", 1)[-1]
    entry = {
        "typeUrl": packed.type_url,
        "typeName": type_name,
        "valueBase64": b64(packed.value),
        "json": None,
        "anyJson": json_object(packed),
        "pythonParseError": None,
    }
    if type_name in STANDARD_TYPES:
        message = getattr(error_details_pb2, type_name.split(".")[-1])()
        try:
            message.ParseFromString(packed.value)
            entry["json"] = json_object(message)
        except DecodeError as error:
            entry["pythonParseError"] = str(error)
    return entry


def make_case(name: str, code: int, message: str, details: list) -> dict:
    packed = [d if isinstance(d, any_pb2.Any) else pack(d) for d in details]
    status = status_pb2.Status(code=code, message=message, details=packed)
    data = status.SerializeToString(deterministic=True)
    if status_pb2.Status.FromString(data) != status:
        raise SystemExit(f"{name}: the status does not survive Google's own parser")
    case = {
        "name": name,
        "code": code,
        "codeName": code_pb2.Code.Name(code) if code in code_pb2.Code.values() else None,
        "message": message,
        "grpcMessage": grpc_message(message),
        "statusBase64": b64(data),
        "statusJson": json_object(status),
        "details": [describe_detail(d) for d in packed],
        "trailers": None,
        "toStatusError": None,
    }
    try:
        result = rpc_status.to_status(status)
    except ValueError as error:
        case["toStatusError"] = str(error)
        return case
    (key, value), *rest = result.trailing_metadata
    if rest or key != "grpc-status-details-bin":
        raise SystemExit(f"{name}: unexpected trailing metadata {result.trailing_metadata!r}")
    if value != data:
        raise SystemExit(f"{name}: to_status's grpc-status-details-bin differs from the serialized status")
    case["trailers"] = {
        "code": result.code.value[0],
        "grpcCodeName": result.code.name,
        "details": result.details,
        "grpcStatusDetailsBinBase64": b64(value),
    }
    return case


# --- the cases ------------------------------------------------------------------------------------


def cases() -> list[dict]:
    out = [
        make_case("ok", code_pb2.OK, "", []),
        make_case("cancelled-plain", code_pb2.CANCELLED, "Call cancelled by the client", []),
        make_case(
            "unknown-control-characters",
            code_pb2.UNKNOWN,
            "line one\nline two\r\n\ttabbed \x00 nul \x01\x1f\x7f end",
            [debug_info()],
        ),
        make_case("invalid-argument-bad-request", code_pb2.INVALID_ARGUMENT, "Invalid trip name.", [bad_request()]),
        make_case(
            "deadline-exceeded-debug-info", code_pb2.DEADLINE_EXCEEDED, "Deadline exceeded after 10s", [debug_info()]
        ),
        make_case(
            "not-found-resource-info",
            code_pb2.NOT_FOUND,
            f"Trip '{TRIP}' not found.",
            [resource_info(), request_info()],
        ),
        make_case("already-exists-request-info", code_pb2.ALREADY_EXISTS, "Trip already exists.", [request_info()]),
        make_case(
            "permission-denied-error-info",
            code_pb2.PERMISSION_DENIED,
            "Permission denied on trip.",
            [error_info(), help_links()],
        ),
        make_case(
            "resource-exhausted-quota",
            code_pb2.RESOURCE_EXHAUSTED,
            "Quota exceeded: 100% of GetTrip requests per minute used.",
            [quota_failure(), retry_info(37, 5), error_info()],
        ),
        make_case(
            "failed-precondition",
            code_pb2.FAILED_PRECONDITION,
            "Trip is COMPLETE.",
            [precondition_failure()],
        ),
        make_case("aborted-retry-info", code_pb2.ABORTED, "Transaction aborted, retry.", [retry_info(0, 1)]),
        make_case(
            "out-of-range-minimal-bad-request",
            code_pb2.OUT_OF_RANGE,
            "page_size must be <= 100",
            [
                error_details_pb2.BadRequest(
                    field_violations=[error_details_pb2.BadRequest.FieldViolation(field="page_size")]
                )
            ],
        ),
        make_case(
            "unimplemented-percent-signs",
            code_pb2.UNIMPLEMENTED,
            "100% not here: %41 stays %41, %zz and a lone % too",
            [],
        ),
        make_case(
            "internal-non-ascii",
            code_pb2.INTERNAL,
            "Interner Fehler: Straße «Ünïcödé» — 日本語 🚕",
            [debug_info(), localized_message("de-DE", "Interner Fehler, bitte später erneut versuchen")],
        ),
        make_case(
            "unavailable-retry-info-and-duration",
            code_pb2.UNAVAILABLE,
            "The service is currently unavailable.",
            [retry_info(), duration_pb2.Duration(seconds=3, nanos=1)],
        ),
        make_case(
            "data-loss-made-up-type",
            code_pb2.DATA_LOSS,
            "Unrecoverable data loss.",
            [raw_any(MADE_UP_TYPE_URL, MADE_UP_VALUE)],
        ),
        make_case(
            "unauthenticated-localized",
            code_pb2.UNAUTHENTICATED,
            "Request had invalid authentication credentials.",
            [error_info(), localized_message()],
        ),
        make_case(
            "all-details",
            code_pb2.FAILED_PRECONDITION,
            "Every detail type at once.",
            all_standard_details() + [duration_pb2.Duration(seconds=-1, nanos=-500_000_000)],
        ),
        # The type URL names a standard type, but the bytes are a string field with invalid UTF-8,
        # which proto3 parsers must refuse.
        make_case(
            "internal-undecodable-error-info",
            code_pb2.INTERNAL,
            "Detail bytes are not an ErrorInfo.",
            [raw_any("type.googleapis.com/google.rpc.ErrorInfo", bytes.fromhex("0a02fffe")), pack(request_info())],
        ),
        # A different host before the type name; the type is still google.rpc.RetryInfo.
        make_case(
            "unavailable-other-type-url-host",
            code_pb2.UNAVAILABLE,
            "Backend unavailable.",
            [raw_any("example.com/google.rpc.RetryInfo", retry_info(1, 0).SerializeToString())],
        ),
        # A code google.rpc.Code does not define: to_status refuses it, the wire may still carry it.
        make_case("code-outside-google-rpc-code", 42, "A code from the future.", [error_info()]),
    ]
    covered = {d["typeName"] for case in out for d in case["details"] if d["json"] is not None}
    if covered != STANDARD_TYPES:
        raise SystemExit(f"detail types without a case: {sorted(STANDARD_TYPES - covered)}")
    missing_codes = set(code_pb2.Code.values()) - {case["code"] for case in out}
    if missing_codes:
        raise SystemExit(f"codes without a case: {sorted(missing_codes)}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=DEFAULT_OUT, type=pathlib.Path, help=f"output file (default: {DEFAULT_OUT})")
    args = parser.parse_args()

    document = {
        "generator": "Scripts/make-status-fixtures.py",
        "packages": {
            name: metadata.version(name) for name in ("googleapis-common-protos", "grpcio-status", "protobuf")
        },
        "cases": cases(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(document['cases'])} cases to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
