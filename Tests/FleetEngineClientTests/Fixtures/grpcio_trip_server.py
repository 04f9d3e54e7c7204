#!/usr/bin/env python3
"""A second gRPC stack for the Swift client's tests: Fleet Engine's TripService served by grpcio.

Everything on the wire here comes from code we did not write: the message classes are Google's
published ones (google-maps-fleetengine's proto-plus types, used through their raw protobuf classes
via `.pb()`), HTTP/2 and gRPC framing are grpcio's C core, and rich error details are built with
googleapis-common-protos and grpcio-status. A Swift test that reads this server exactly therefore
agrees with Google's stack, not merely with our own emulator.

CONTRACT (the Swift tests depend on every line of it)
====================================================

Command line
    python3 grpcio_trip_server.py [--port 0] [--host 127.0.0.1] [--log FILE] [--max-seconds 120]
                                  [--tls-cert PEM --tls-key PEM]
    python3 grpcio_trip_server.py --write-seed-json FILE [--write-errors-json FILE]

    python3 is one with google-maps-fleetengine, grpcio and grpcio-status (the repository's .venv/bin/python3).

    Serving: binds HOST:PORT (port 0 picks a free port; an IPv6 host is bracketed), with TLS when
    --tls-cert and --tls-key (PEM files, both or neither) are given, plaintext h2c otherwise.
    The first stdout line is exactly `listening on HOST:PORT` (e.g. `listening on 127.0.0.1:54321`),
    flushed; nothing else is ever printed to stdout. The server exits (code 0) when its stdin reaches
    EOF -- so keep stdin an open pipe, and a test process that dies never leaves it running -- or
    after --max-seconds (default 120), whichever comes first.

    Fixture writing: --write-seed-json and/or --write-errors-json write the files below and exit
    without serving. The committed copies next to this file were made that way:
        grpcio-seed-trips.json   {"trip-small": {...}, "trip-large": {...}}: each trip as
                                 json_format.MessageToJson of the raw protobuf (camelCase names,
                                 defaults omitted), exactly what GetTrip answers for it until a
                                 test updates or deletes it.
        grpcio-errors.json       {"error-<code>": {"code": N, "codeName": "NOT_FOUND", "message": "...",
                                 "statusDetailsBinBase64": "<the grpc-status-details-bin bytes sent,
                                 standard padded base64>", "details": [MessageToJson of each detail
                                 Any, i.e. the unpacked fields plus "@type"]}, ...} for all 16 codes,
                                 computed for provider `test-project`.

Service: maps.fleetengine.v1.TripService, all six methods, in memory. Trip names are
`providers/{provider}/trips/{trip_id}`; any other form is INVALID_ARGUMENT.
    CreateTrip          parent `providers/{p}` and trip_id required; stores `trip` with its name set
                        and answers it. ALREADY_EXISTS when the name is taken.
    GetTrip             answers the stored trip (view and *_version fields are ignored), NOT_FOUND
                        when missing -- except for the special trip ids below.
    UpdateTrip          name and a non-empty update_mask of Trip field paths required (INVALID_ARGUMENT
                        otherwise); each masked field is replaced by the request trip's value (cleared
                        when unset there), as google.protobuf.FieldMask.MergeMessage with replace
                        semantics does; the name never changes. Answers the updated trip; NOT_FOUND
                        when missing.
    SearchTrips         parent `providers/{p}` and vehicle_id required; the trips of that provider whose
                        vehicle_id matches, ordered by name; active_trips_only drops COMPLETE and
                        CANCELED trips. page_size <= 0 means 50; page_token is the opaque
                        next_page_token of the previous page (INVALID_ARGUMENT if it is not one);
                        next_page_token is empty on the last page.
    DeleteTrip          removes the trip, answers Empty; NOT_FOUND when missing.
    ReportBillableTrip  needs a valid name and a country_code (INVALID_ARGUMENT otherwise); answers
                        Empty without looking the trip up.

Seeded trips (deterministic: fixed numbers, no clock, no randomness), provider `test-project`:
    providers/test-project/trips/trip-small   a few fields
    providers/test-project/trips/trip-large   ~18 KB serialized: remaining and vehicle waypoints with
                                              path_to_waypoint points and traffic, a route of hundreds of
                                              LatLngs, current_route_segment (URL-safe base64 text),
                                              timestamps, durations, enums, wrappers, last_location.
    Both have vehicle_id `vehicle-1`, so SearchTrips(vehicle_id="vehicle-1") under test-project finds
    [trip-large, trip-small] (by name) until a test changes the store.

Special GetTrip trip ids (any provider; the store is not consulted):
    error-<code>        <code> is a canonical gRPC code name, lowercase with dashes (error-not-found,
                        error-invalid-argument, error-resource-exhausted, ...; all 16 non-OK codes).
                        Fails with that code, message "<CODE_NAME> for <trip name>", and
                        grpc-status-details-bin = google.rpc.Status{code, message, details} where
                        details are ErrorInfo(reason=CODE_NAME, domain="fleetengine.googleapis.com",
                        metadata={"trip": name}) first, then:
                            invalid-argument    BadRequest (one field violation on "name")
                            resource-exhausted  RetryInfo(1.5s), QuotaFailure
                            unavailable         RetryInfo(0.25s)
                            permission-denied   ResourceInfo
                            not-found           LocalizedMessage(en-US), Help (one link)
                            internal            DebugInfo, RequestInfo
                        An unknown code name is a plain INVALID_ARGUMENT.
    slow-<ms>           waits <ms> ms, then answers trip-small's seeded content verbatim (its own name
                        included); stops waiting as soon as the call is cancelled or its deadline passes.
    flaky-<n>           the first n GetTrip calls for this exact name fail with UNAVAILABLE (message
                        "UNAVAILABLE (flaky k of n) for <name>", no details); later ones answer
                        trip-small's seeded content. Counters live in memory, per name.
    pushback-<ms>       the first GetTrip call for this name fails with UNAVAILABLE (message
                        "UNAVAILABLE (pushback <ms> ms) for <name>") and trailing metadata
                        `grpc-retry-pushback-ms: <ms>`; later ones answer trip-small's seeded content.
    trailers-only-<n>   fails at once with numeric status n (1-16), message "<CODE_NAME> for <name>",
                        no details and no other metadata.
    Note: grpcio answers every failure that comes before a response message as Trailers-Only (one
    HEADERS frame: :status 200, content-type, grpc-status, grpc-message and any trailers such as
    grpc-status-details-bin or grpc-retry-pushback-ms); trailers-only-<n> is the bare form of it.

--log FILE: one JSON object per line for every call received, written and flushed before the call is
handled:
    {"method": "/maps.fleetengine.v1.TripService/GetTrip",
     "metadata": [{"key": "authorization", "value": "Bearer ..."}, ...],  # every invocation metadata
                           # pair, in order, as grpcio hands them over (user-agent included; pseudo-headers
                           # and transport headers such as content-type, te and grpc-timeout left out --
                           # grpcio turns grpc-timeout into the deadline below); for "-bin" keys the value
                           # is the standard padded base64 of the bytes.
     "timeRemainingSeconds": 4.98,   # context.time_remaining() when the call arrived; null without deadline
     "request": {...}}               # the request as proto3 JSON (MessageToJson's camelCase form)
"""

import argparse
import base64
import json
import os
import re
import sys
import threading
from concurrent import futures

import grpc
from google.maps.fleetengine_v1 import types as fe
from google.protobuf import any_pb2, duration_pb2, empty_pb2, json_format
from google.protobuf import timestamp_pb2, wrappers_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from google.type import latlng_pb2
from grpc_status import rpc_status

# grpcio (de)serializes raw protobuf messages, not proto-plus wrappers: take the generated classes.
Trip = fe.Trip.pb()
TerminalLocation = fe.TerminalLocation.pb()
TripWaypoint = fe.TripWaypoint.pb()
VehicleLocation = fe.VehicleLocation.pb()
ConsumableTrafficPolyline = fe.ConsumableTrafficPolyline.pb()
SpeedReadingInterval = fe.SpeedReadingInterval.pb()
StopLocation = fe.StopLocation.pb()
TripAttribute = fe.TripAttribute.pb()
CreateTripRequest = fe.CreateTripRequest.pb()
GetTripRequest = fe.GetTripRequest.pb()
UpdateTripRequest = fe.UpdateTripRequest.pb()
SearchTripsRequest = fe.SearchTripsRequest.pb()
SearchTripsResponse = fe.SearchTripsResponse.pb()
DeleteTripRequest = fe.DeleteTripRequest.pb()
ReportBillableTripRequest = fe.ReportBillableTripRequest.pb()

SERVICE = "maps.fleetengine.v1.TripService"
SEED_PROVIDER = "test-project"
ERROR_DOMAIN = "fleetengine.googleapis.com"
DEFAULT_PAGE_SIZE = 50
TRIP_NAME = re.compile(r"^providers/([^/]+)/trips/([^/]+)$")
PARENT_NAME = re.compile(r"^providers/([^/]+)$")

# Enum values by name, so the seed reads like the API and not like magic numbers.
TS = Trip.DESCRIPTOR.fields_by_name["trip_status"].enum_type.values_by_name
TT = Trip.DESCRIPTOR.fields_by_name["trip_type"].enum_type.values_by_name
TV = Trip.DESCRIPTOR.fields_by_name["view"].enum_type.values_by_name
WT = TripWaypoint.DESCRIPTOR.fields_by_name["waypoint_type"].enum_type.values_by_name
LS = VehicleLocation.DESCRIPTOR.fields_by_name["location_sensor"].enum_type.values_by_name
SPEED = SpeedReadingInterval.DESCRIPTOR.fields_by_name["speed"].enum_type.values_by_name

# ---------------------------------------------------------------------------------------------
# Seeded trips. Every number is derived from a loop index with fixed arithmetic and rounded, so
# two runs (and two Python versions) build byte-identical messages.
# ---------------------------------------------------------------------------------------------

BASE_SECONDS = 1_767_225_600  # 2026-01-01T00:00:00Z, a fixed epoch rather than the clock


def ts(offset_seconds, nanos=0):
    return timestamp_pb2.Timestamp(seconds=BASE_SECONDS + offset_seconds, nanos=nanos)


def latlng(lat, lng):
    return latlng_pb2.LatLng(latitude=round(lat, 6), longitude=round(lng, 6))


def path(start_lat, start_lng, count, step):
    # A gentle zig-zag: distinct, non-round coordinates exercise double encoding without randomness.
    return [latlng(start_lat + i * step, start_lng + i * step * 0.7 + (i % 3) * 0.000013) for i in range(count)]


def traffic(points, seed):
    # Intervals over the polyline's point indices, cycling through every speed category.
    speeds = [SPEED["NORMAL"].number, SPEED["SLOW"].number, SPEED["TRAFFIC_JAM"].number]
    intervals, start, k = [], 0, 0
    while start < points - 1:
        end = min(points - 1, start + 2 + (seed + k) % 4)
        intervals.append(SpeedReadingInterval(start_polyline_point_index=start, end_polyline_point_index=end,
                                              speed=speeds[(seed + k) % 3]))
        start, k = end, k + 1
    return ConsumableTrafficPolyline(speed_reading_interval=intervals,
                                     encoded_path_to_waypoint=f"_p~iF~ps|U_ulLnnqC_mqNvxq`@{seed:02d}")


def small_trip():
    return Trip(
        name=f"providers/{SEED_PROVIDER}/trips/trip-small",
        vehicle_id="vehicle-1",
        trip_status=TS["NEW"].number,
        trip_type=TT["EXCLUSIVE"].number,
        pickup_point=TerminalLocation(point=latlng(37.422, -122.084)),
        pickup_time=ts(600),
        dropoff_point=TerminalLocation(point=latlng(37.7749, -122.4194)),
        number_of_passengers=1,
    )


def large_trip():
    name = f"providers/{SEED_PROVIDER}/trips/trip-large"
    trip = Trip(
        name=name,
        vehicle_id="vehicle-1",
        trip_status=TS["ENROUTE_TO_INTERMEDIATE_DESTINATION"].number,
        trip_type=TT["SHARED"].number,
        pickup_point=TerminalLocation(point=latlng(37.4219, -122.0841), access_point_id="access-point-7",
                                      trip_id="trip-large", terminal_location_type=WT["PICKUP_WAYPOINT_TYPE"].number),
        actual_pickup_point=StopLocation(point=latlng(37.42191, -122.08412), timestamp=ts(905, 250_000_000),
                                         stop_time=ts(960)),
        actual_pickup_arrival_point=StopLocation(point=latlng(37.42188, -122.08409), timestamp=ts(880, 5)),
        pickup_time=ts(900, 123_000_000),
        intermediate_destinations=[
            TerminalLocation(point=latlng(37.44 + i * 0.011, -122.11 - i * 0.017)) for i in range(3)],
        intermediate_destinations_version=ts(120, 456_789_000),
        intermediate_destination_index=1,
        actual_intermediate_destination_arrival_points=[
            StopLocation(point=latlng(37.4401, -122.1099), timestamp=ts(1500))],
        actual_intermediate_destinations=[
            StopLocation(point=latlng(37.44012, -122.10995), timestamp=ts(1520), stop_time=ts(1580))],
        dropoff_point=TerminalLocation(point=latlng(37.7749, -122.4194)),
        dropoff_time=ts(3600, 999_999_999),
        current_route_segment=base64.urlsafe_b64encode(bytes((i * 37 + 11) % 256 for i in range(540))).decode(),
        current_route_segment_version=ts(1700, 1_000),
        current_route_segment_traffic=traffic(40, 3),
        current_route_segment_traffic_version=ts(1701),
        remaining_distance_meters=wrappers_pb2.Int32Value(value=24_817),
        eta_to_first_waypoint=ts(1980, 500_000_000),
        remaining_time_to_first_waypoint=duration_pb2.Duration(seconds=279, nanos=500_000_000),
        remaining_waypoints_version=ts(1702, 7),
        remaining_waypoints_route_version=ts(1703),
        number_of_passengers=3,
        last_location=VehicleLocation(
            location=latlng(37.4501, -122.1203),
            horizontal_accuracy=wrappers_pb2.DoubleValue(value=4.25),
            latlng_accuracy=wrappers_pb2.DoubleValue(value=4.25),
            heading=wrappers_pb2.Int32Value(value=271),
            bearing_accuracy=wrappers_pb2.DoubleValue(value=2.5),
            heading_accuracy=wrappers_pb2.DoubleValue(value=2.5),
            altitude=wrappers_pb2.DoubleValue(value=31.75),
            vertical_accuracy=wrappers_pb2.DoubleValue(value=1.125),
            speed_kmph=wrappers_pb2.Int32Value(value=43),
            speed=wrappers_pb2.DoubleValue(value=11.944),
            speed_accuracy=wrappers_pb2.DoubleValue(value=0.75),
            update_time=ts(1690, 250_000_000),
            server_time=ts(1691),
            location_sensor=LS["FUSED_LOCATION_PROVIDER"].number,
            is_road_snapped=wrappers_pb2.BoolValue(value=True),
            is_gps_sensor_enabled=wrappers_pb2.BoolValue(value=False),  # present although false
            time_since_update=wrappers_pb2.Int32Value(value=3),
            num_stale_updates=wrappers_pb2.Int32Value(value=0),  # present although zero
            raw_location=latlng(37.45012, -122.12034),
            raw_location_time=ts(1689, 999_000_000),
            raw_location_sensor=LS["GPS"].number,
            raw_location_accuracy=wrappers_pb2.DoubleValue(value=6.5),
            road_snapped=True,
        ),
        last_location_snappable=True,
        view=TV["SDK"].number,
        attributes=[
            TripAttribute(key="fare_class", string_value="premium"),
            TripAttribute(key="wheelchair", bool_value=True),
            TripAttribute(key="surge", number_value=1.35),
        ],
    )
    # Remaining waypoints: intermediate stops then drop-off, each with its path and traffic.
    for i in range(6):
        kind = WT["DROP_OFF_WAYPOINT_TYPE"] if i == 5 else WT["INTERMEDIATE_DESTINATION_WAYPOINT_TYPE"]
        points = path(37.45 + i * 0.01, -122.12 - i * 0.01, 40, 0.00037)
        trip.remaining_waypoints.append(TripWaypoint(
            location=TerminalLocation(point=points[-1], trip_id="trip-large", terminal_location_type=kind.number),
            trip_id="trip-large",
            waypoint_type=kind.number,
            path_to_waypoint=points,
            traffic_to_waypoint=traffic(len(points), i),
            distance_meters=wrappers_pb2.Int32Value(value=1_250 + i * 1_117),
            eta=ts(1980 + i * 300, i * 100_000_000),
            duration=duration_pb2.Duration(seconds=279 + i * 300, nanos=(i * 250_000_000) % 1_000_000_000),
        ))
    # Vehicle waypoints interleave another trip's stops, without paths (as Fleet Engine sends them).
    for i in range(4):
        other = i % 2 == 1
        trip.vehicle_waypoints.append(TripWaypoint(
            location=TerminalLocation(point=latlng(37.46 + i * 0.013, -122.13 - i * 0.009)),
            trip_id="trip-shared-9" if other else "trip-large",
            waypoint_type=(WT["PICKUP_WAYPOINT_TYPE"] if other else WT["DROP_OFF_WAYPOINT_TYPE"]).number,
            distance_meters=wrappers_pb2.Int32Value(value=900 + i * 1_400),
            eta=ts(2100 + i * 420),
            duration=duration_pb2.Duration(seconds=400 + i * 420),
        ))
    trip.current_route_segment_end_point.CopyFrom(trip.remaining_waypoints[0])
    trip.route.extend(path(37.4219, -122.0841, 460, 0.00017))
    return trip


SEED_TRIPS = {"trip-small": small_trip(), "trip-large": large_trip()}

# ---------------------------------------------------------------------------------------------
# Rich errors, a pure function of the trip name. The same function feeds the server and
# grpcio-errors.json, so the fixture holds exactly the bytes the server sends.
# ---------------------------------------------------------------------------------------------

# Canonical gRPC code names by their lowercase-with-dashes spelling (e.g. "not-found": NOT_FOUND).
CODES_BY_SLUG = {c.name.lower().replace("_", "-"): c for c in grpc.StatusCode if c != grpc.StatusCode.OK}
CODES_BY_NUMBER = {c.value[0]: c for c in grpc.StatusCode if c != grpc.StatusCode.OK}


def pack(message):
    detail = any_pb2.Any()
    # deterministic=True orders map entries; upb otherwise may vary it per process.
    detail.Pack(message, deterministic=True)
    return detail


def rich_status(code, name):
    """The google.rpc.Status sent for GetTrip(name) where name's trip id is error-<code>."""
    code_name = code.name
    provider = TRIP_NAME.match(name).group(1)
    details = [error_details_pb2.ErrorInfo(reason=code_name, domain=ERROR_DOMAIN, metadata={"trip": name})]
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        details.append(error_details_pb2.BadRequest(field_violations=[error_details_pb2.BadRequest.FieldViolation(
            field="name", description="The trip id error-invalid-argument is rejected on purpose.")]))
    elif code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        details.append(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=1, nanos=500_000_000)))
        details.append(error_details_pb2.QuotaFailure(violations=[error_details_pb2.QuotaFailure.Violation(
            subject=f"project:{provider}", description="GetTrip requests per minute exceeded.")]))
    elif code == grpc.StatusCode.UNAVAILABLE:
        details.append(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(nanos=250_000_000)))
    elif code == grpc.StatusCode.PERMISSION_DENIED:
        details.append(error_details_pb2.ResourceInfo(
            resource_type="fleetengine.googleapis.com/Trip", resource_name=name, owner=f"providers/{provider}",
            description="The caller may not read this trip."))
    elif code == grpc.StatusCode.NOT_FOUND:
        details.append(error_details_pb2.LocalizedMessage(locale="en-US", message=f"The trip {name} does not exist."))
        details.append(error_details_pb2.Help(links=[error_details_pb2.Help.Link(
            description="Fleet Engine trips",
            url="https://developers.google.com/maps/documentation/mobility/fleet-engine")]))
    elif code == grpc.StatusCode.INTERNAL:
        details.append(error_details_pb2.DebugInfo(
            stack_entries=["grpcio_trip_server.get_trip", "grpcio_trip_server.rich_status"],
            detail="Synthetic internal error for the client's tests."))
        details.append(error_details_pb2.RequestInfo(request_id=f"grpcio-trip-server/{name}", serving_data="fixture"))
    return status_pb2.Status(code=code.value[0], message=f"{code_name} for {name}", details=[pack(d) for d in details])


def errors_fixture():
    out = {}
    for slug, code in CODES_BY_SLUG.items():
        trip_id = f"error-{slug}"
        status = rich_status(code, f"providers/{SEED_PROVIDER}/trips/{trip_id}")
        sent = rpc_status.to_status(status)  # what the server hands grpcio, so take the bytes from it
        (key, value), = sent.trailing_metadata
        assert key == "grpc-status-details-bin"
        assert code_pb2.Code.Name(status.code) == code.name  # grpc and google.rpc agree on numbering
        out[trip_id] = {
            "code": status.code,
            "codeName": code.name,
            "message": status.message,
            "statusDetailsBinBase64": base64.b64encode(value).decode(),
            "details": [json.loads(json_format.MessageToJson(d)) for d in status.details],
        }
    return out


def seed_fixture():
    return {trip_id: json.loads(json_format.MessageToJson(trip)) for trip_id, trip in SEED_TRIPS.items()}


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")

# ---------------------------------------------------------------------------------------------
# The service.
# ---------------------------------------------------------------------------------------------


class TripStore:
    def __init__(self):
        self.lock = threading.Lock()
        self.trips = {trip.name: clone(trip) for trip in SEED_TRIPS.values()}
        self.failures_seen = {}  # name -> failed calls so far, for flaky-/pushback- ids


def clone(message):
    copy = type(message)()
    copy.CopyFrom(message)
    return copy


def parse_trip_name(context, name):
    match = TRIP_NAME.match(name)
    if not match:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                      f"name must be providers/{{provider}}/trips/{{trip}}, got {name!r}")
    return match.group(1), match.group(2)


def parse_parent(context, parent):
    match = PARENT_NAME.match(parent)
    if not match:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"parent must be providers/{{provider}}, got {parent!r}")
    return match.group(1)


def encode_page_token(last_name):
    return base64.urlsafe_b64encode(f"after:{last_name}".encode()).decode()


def decode_page_token(context, token):
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
    except (ValueError, UnicodeDecodeError):
        text = ""
    if not text.startswith("after:"):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid page_token {token!r}")
    return text[len("after:"):]


class TripService:
    def __init__(self, store):
        self.store = store

    def CreateTrip(self, request, context):
        provider = parse_parent(context, request.parent)
        if not request.trip_id:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "trip_id is required")
        name = f"providers/{provider}/trips/{request.trip_id}"
        parse_trip_name(context, name)  # rejects a trip_id holding a slash
        trip = clone(request.trip)
        trip.name = name
        with self.store.lock:
            if name in self.store.trips:
                context.abort(grpc.StatusCode.ALREADY_EXISTS, f"trip {name} already exists")
            self.store.trips[name] = trip
            return clone(trip)

    def GetTrip(self, request, context):
        _, trip_id = parse_trip_name(context, request.name)
        name = request.name
        if trip_id.startswith("error-"):
            code = CODES_BY_SLUG.get(trip_id[len("error-"):])
            if code is None:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"unknown status code name in {trip_id!r}")
            context.abort_with_status(rpc_status.to_status(rich_status(code, name)))
        if trip_id.startswith("trailers-only-"):
            code = CODES_BY_NUMBER.get(int_suffix(context, trip_id, "trailers-only-"))
            if code is None:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{trip_id!r}: code must be 1-16")
            context.abort(code, f"{code.name} for {name}")
        if trip_id.startswith("slow-"):
            self.sleep_unless_cancelled(context, int_suffix(context, trip_id, "slow-") / 1000)
            return clone(SEED_TRIPS["trip-small"])
        if trip_id.startswith("flaky-"):
            failures = int_suffix(context, trip_id, "flaky-")
            attempt = self.count_failure(name, failures)
            if attempt:
                context.abort(grpc.StatusCode.UNAVAILABLE, f"UNAVAILABLE (flaky {attempt} of {failures}) for {name}")
            return clone(SEED_TRIPS["trip-small"])
        if trip_id.startswith("pushback-"):
            ms = int_suffix(context, trip_id, "pushback-")
            if self.count_failure(name, 1):
                context.set_trailing_metadata((("grpc-retry-pushback-ms", str(ms)),))
                context.abort(grpc.StatusCode.UNAVAILABLE, f"UNAVAILABLE (pushback {ms} ms) for {name}")
            return clone(SEED_TRIPS["trip-small"])
        with self.store.lock:
            trip = self.store.trips.get(name)
            if trip is None:
                context.abort(grpc.StatusCode.NOT_FOUND, f"trip {name} not found")
            return clone(trip)

    def UpdateTrip(self, request, context):
        parse_trip_name(context, request.name)
        mask = request.update_mask
        if not request.HasField("update_mask") or not mask.paths:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "update_mask is required")
        if not mask.IsValidForDescriptor(Trip.DESCRIPTOR):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"update_mask has unknown Trip fields: {list(mask.paths)}")
        with self.store.lock:
            trip = self.store.trips.get(request.name)
            if trip is None:
                context.abort(grpc.StatusCode.NOT_FOUND, f"trip {request.name} not found")
            # Replace semantics: a masked field the request leaves unset is cleared, not kept.
            mask.MergeMessage(request.trip, trip, replace_message_field=True, replace_repeated_field=True)
            trip.name = request.name
            return clone(trip)

    def SearchTrips(self, request, context):
        provider = parse_parent(context, request.parent)
        if not request.vehicle_id:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "vehicle_id is required")
        if request.page_size < 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "page_size must not be negative")
        after = decode_page_token(context, request.page_token) if request.page_token else ""
        size = request.page_size or DEFAULT_PAGE_SIZE
        inactive = {TS["COMPLETE"].number, TS["CANCELED"].number}
        prefix = f"providers/{provider}/trips/"
        with self.store.lock:
            # A cursor on the last name returned keeps pages stable while trips are created or deleted.
            matches = [trip for name, trip in sorted(self.store.trips.items())
                       if name.startswith(prefix) and name > after and trip.vehicle_id == request.vehicle_id
                       and not (request.active_trips_only and trip.trip_status in inactive)]
            page = [clone(trip) for trip in matches[:size]]
        token = encode_page_token(page[-1].name) if len(matches) > size else ""
        return SearchTripsResponse(trips=page, next_page_token=token)

    def DeleteTrip(self, request, context):
        parse_trip_name(context, request.name)
        with self.store.lock:
            if self.store.trips.pop(request.name, None) is None:
                context.abort(grpc.StatusCode.NOT_FOUND, f"trip {request.name} not found")
        return empty_pb2.Empty()

    def ReportBillableTrip(self, request, context):
        parse_trip_name(context, request.name)
        if not request.country_code:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "country_code is required")
        return empty_pb2.Empty()

    def count_failure(self, name, failures):
        """Returns the 1-based number of this failing attempt, or 0 once `failures` have happened."""
        with self.store.lock:
            seen = self.store.failures_seen.get(name, 0)
            if seen >= failures:
                return 0
            self.store.failures_seen[name] = seen + 1
            return seen + 1

    @staticmethod
    def sleep_unless_cancelled(context, seconds):
        # The callback runs when the RPC ends for any reason (cancel, deadline), so a cancelled slow
        # call gives its worker thread back at once instead of holding it for the whole delay.
        ended = threading.Event()
        context.add_callback(ended.set)
        if context.is_active():
            ended.wait(seconds)


def int_suffix(context, trip_id, prefix):
    digits = trip_id[len(prefix):]
    if not digits.isdigit():
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{trip_id!r}: expected {prefix}<number>")
    return int(digits)

# ---------------------------------------------------------------------------------------------
# Wiring: handlers, the call log, the server's lifetime.
# ---------------------------------------------------------------------------------------------

METHODS = {
    "CreateTrip": (CreateTripRequest, Trip),
    "GetTrip": (GetTripRequest, Trip),
    "UpdateTrip": (UpdateTripRequest, Trip),
    "SearchTrips": (SearchTripsRequest, SearchTripsResponse),
    "DeleteTrip": (DeleteTripRequest, empty_pb2.Empty),
    "ReportBillableTrip": (ReportBillableTripRequest, empty_pb2.Empty),
}

# Above this, grpcio's time_remaining() is its stand-in for "no deadline" (an infinite future).
NO_DEADLINE_SECONDS = 10 ** 8


class CallLog:
    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8") if path else None
        self.lock = threading.Lock()

    def record(self, method, request, context):
        if self.file is None:
            return
        metadata = [{"key": key, "value": base64.b64encode(value).decode() if key.endswith("-bin") else value}
                    for key, value in context.invocation_metadata()]
        remaining = context.time_remaining()
        line = json.dumps({
            "method": method,
            "metadata": metadata,
            "timeRemainingSeconds": None if remaining is None or remaining > NO_DEADLINE_SECONDS else remaining,
            "request": json.loads(json_format.MessageToJson(request)),
        })
        with self.lock:
            self.file.write(line + "\n")
            self.file.flush()


def handlers(service, log):
    def logged(method_name, implementation):
        path = f"/{SERVICE}/{method_name}"

        def handle(request, context):
            log.record(path, request, context)
            return implementation(request, context)
        return handle

    return grpc.method_handlers_generic_handler(SERVICE, {
        method_name: grpc.unary_unary_rpc_method_handler(
            logged(method_name, getattr(service, method_name)),
            request_deserializer=request_type.FromString,
            response_serializer=response_type.SerializeToString)
        for method_name, (request_type, response_type) in METHODS.items()
    })


def main():
    parser = argparse.ArgumentParser(description="grpcio TripService server for the Swift client's tests")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log")
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--write-seed-json")
    parser.add_argument("--write-errors-json")
    args = parser.parse_args()

    if args.write_seed_json or args.write_errors_json:
        if args.write_seed_json:
            write_json(args.write_seed_json, seed_fixture())
        if args.write_errors_json:
            write_json(args.write_errors_json, errors_fixture())
        return 0
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")

    # Enough workers that a test's burst of slow calls cannot starve the others.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
    server.add_generic_rpc_handlers((handlers(TripService(TripStore()), CallLog(args.log)),))
    host = f"[{args.host}]" if ":" in args.host else args.host
    address = f"{host}:{args.port}"
    if args.tls_cert:
        with open(args.tls_key, "rb") as key, open(args.tls_cert, "rb") as cert:
            port = server.add_secure_port(address, grpc.ssl_server_credentials([(key.read(), cert.read())]))
    else:
        port = server.add_insecure_port(address)
    if port == 0:
        print(f"cannot bind {address}", file=sys.stderr)
        return 1
    server.start()
    sys.stdout.write(f"listening on {host}:{port}\n")
    sys.stdout.flush()

    done = threading.Event()

    def watch_stdin():
        # Our parent holds the other end: EOF means it closed it or died.
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except OSError:  # no usable stdin counts as closed
            pass
        done.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    done.wait(args.max_seconds)
    server.stop(grace=None).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
