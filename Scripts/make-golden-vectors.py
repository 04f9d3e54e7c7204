#!/usr/bin/env python3
"""Write the golden vectors the Swift codec is tested against, made with Google's own encoder.

Every message here is built with the raw protobuf classes from Google's published Python packages
(google-maps-fleetengine's `trips.Trip.pb()` and friends, googleapis-common-protos, protobuf), so
the expected bytes and JSON come from an implementation we did not write.

Output, in Tests/FleetEngineCodecTests/Fixtures/golden/:

  <case>.bin          SerializeToString(deterministic=True)
  <case>.json         json_format.MessageToJson(message) with default options (lowerCamelCase
                      names, default values omitted, indent 2, non-ASCII escaped) plus a newline;
                      absent for binary-only cases (unknown fields, wrong wire types)
  manifest.json       every case: name, group, message type, files, byte size, byteExact, and for
                      binary-only cases the unknown fields Google's parser kept
  rejected.json       binary inputs Google's parser rejects (type, hex, reason, Python's error)
  json_inputs.json    JSON texts Google's parser accepts in non-canonical forms (with the bytes
                      they parse to) and JSON texts it rejects

`byteExact` is true when re-encoding the decoded message must reproduce the bytes exactly; it is
false only for messages with a map field holding more than one entry, whose order protobuf leaves
undefined (Python sorts map entries by key under deterministic=True; another encoder need not).

The random data uses a fixed seed: running the script twice writes identical files.

    python3 Scripts/make-golden-vectors.py [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import random
import struct
import sys
from dataclasses import dataclass, field

from google.maps.fleetengine_v1.types import fleetengine, header, traffic, trip_api, trips
from google.protobuf import (
    field_mask_pb2,
    json_format,
    timestamp_pb2,
    unknown_fields,
    wrappers_pb2,
)
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2
from google.type import latlng_pb2

SEED = 20240501
DEFAULT_OUT = pathlib.Path("Tests/FleetEngineCodecTests/Fixtures/golden")

# Raw protobuf classes behind the proto-plus wrappers.
Trip = trips.Trip.pb()
TripStatus = trips.TripStatus
TripWaypoint = fleetengine.TripWaypoint.pb()
VehicleLocation = fleetengine.VehicleLocation.pb()
VehicleAttribute = fleetengine.VehicleAttribute.pb()
ConsumableTrafficPolyline = traffic.ConsumableTrafficPolyline.pb()
SpeedReadingInterval = traffic.SpeedReadingInterval.pb()
RequestHeader = header.RequestHeader.pb()
CreateTripRequest = trip_api.CreateTripRequest.pb()
GetTripRequest = trip_api.GetTripRequest.pb()
UpdateTripRequest = trip_api.UpdateTripRequest.pb()
SearchTripsRequest = trip_api.SearchTripsRequest.pb()
SearchTripsResponse = trip_api.SearchTripsResponse.pb()
DeleteTripRequest = trip_api.DeleteTripRequest.pb()
ReportBillableTripRequest = trip_api.ReportBillableTripRequest.pb()
LatLng = latlng_pb2.LatLng
Timestamp = timestamp_pb2.Timestamp

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# google.protobuf.Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS = -62135596800, 253402300799
# google.protobuf.Duration: about +-10,000 years.
DURATION_MAX_SECONDS = 315576000000

# 2024-05-01T12:00:00Z: "now" for every generated trip.
NOW = 1714564800
PROVIDER = "fleet-demo-sf"
SAN_FRANCISCO = (37.7749, -122.4194)


# --- wire-format helpers (for the hand-built unknown-field and malformed inputs) ---------------


def varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


def varint_field(number: int, value: int) -> bytes:
    return tag(number, 0) + varint(value)


def fixed64_field(number: int, payload: bytes) -> bytes:
    assert len(payload) == 8
    return tag(number, 1) + payload


def length_delimited_field(number: int, payload: bytes) -> bytes:
    return tag(number, 2) + varint(len(payload)) + payload


def group_field(number: int, payload: bytes) -> bytes:
    return tag(number, 3) + payload + tag(number, 4)


def fixed32_field(number: int, payload: bytes) -> bytes:
    assert len(payload) == 4
    return tag(number, 5) + payload


# --- realistic data -----------------------------------------------------------------------------


def encode_polyline(points: list[tuple[float, float]]) -> str:
    """Google's encoded polyline format (1e-5 degree steps, zig-zag deltas in 5-bit chunks)."""
    out = []
    previous = (0, 0)
    for lat, lng in points:
        current = (round(lat * 1e5), round(lng * 1e5))
        for delta in (current[0] - previous[0], current[1] - previous[1]):
            value = ~(delta << 1) if delta < 0 else delta << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        previous = current
    return "".join(out)


class Data:
    """Deterministic generator of plausible San Francisco trip data."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def place(self, spread: float = 0.04) -> tuple[float, float]:
        lat = SAN_FRANCISCO[0] + self.rng.uniform(-spread, spread)
        lng = SAN_FRANCISCO[1] + self.rng.uniform(-spread, spread)
        return round(lat, 7), round(lng, 7)

    def path(self, start: tuple[float, float], end: tuple[float, float], count: int) -> list[tuple[float, float]]:
        """`count` points from start to end along a street-grid-like line with small jitter."""
        points = []
        for i in range(count):
            t = i / max(count - 1, 1)
            jitter = 0.0 if i in (0, count - 1) else 0.00015
            lat = start[0] + (end[0] - start[0]) * t + self.rng.uniform(-jitter, jitter)
            lng = start[1] + (end[1] - start[1]) * t + self.rng.uniform(-jitter, jitter)
            points.append((round(lat, 7), round(lng, 7)))
        return points

    def trip_id(self) -> str:
        return "trip-" + "".join(self.rng.choice("0123456789abcdef") for _ in range(12))

    def trip_name(self, trip_id: str | None = None) -> str:
        return f"providers/{PROVIDER}/trips/{trip_id or self.trip_id()}"

    def vehicle_id(self) -> str:
        return f"vehicle-{self.rng.randint(1, 250):03d}"

    def timestamp(self, offset_seconds: int) -> Timestamp:
        return Timestamp(seconds=NOW + offset_seconds, nanos=self.rng.randrange(0, 1_000_000_000))

    def traffic(self, points: list[tuple[float, float]]) -> ConsumableTrafficPolyline:
        """Speed readings over a few stretches of the path, plus the path as an encoded polyline."""
        polyline = ConsumableTrafficPolyline(encoded_path_to_waypoint=encode_polyline(points))
        index = 0
        speeds = [SpeedReadingInterval.Speed.NORMAL, SpeedReadingInterval.Speed.SLOW]
        speeds.append(SpeedReadingInterval.Speed.TRAFFIC_JAM)
        while index < len(points) - 1:
            end = min(len(points) - 1, index + self.rng.randint(8, 40))
            polyline.speed_reading_interval.add(
                start_polyline_point_index=index, end_polyline_point_index=end, speed=self.rng.choice(speeds)
            )
            index = end
        return polyline

    def waypoint(
        self,
        trip_id: str,
        kind: int,
        start: tuple[float, float],
        end: tuple[float, float],
        path_points: int,
        eta_offset: int,
    ) -> TripWaypoint:
        points = self.path(start, end, path_points)
        waypoint = TripWaypoint(trip_id=trip_id, waypoint_type=kind)
        waypoint.location.point.latitude, waypoint.location.point.longitude = end
        waypoint.location.trip_id = trip_id
        waypoint.location.terminal_location_type = kind
        for lat, lng in points:
            waypoint.path_to_waypoint.add(latitude=lat, longitude=lng)
        waypoint.encoded_path_to_waypoint = encode_polyline(points)
        waypoint.traffic_to_waypoint.CopyFrom(self.traffic(points))
        waypoint.distance_meters.value = 90 * path_points + self.rng.randint(0, 400)
        waypoint.eta.CopyFrom(self.timestamp(eta_offset))
        waypoint.duration.seconds = eta_offset
        waypoint.duration.nanos = self.rng.randrange(0, 1_000_000_000)
        return waypoint

    def vehicle_location(self, where: tuple[float, float]) -> VehicleLocation:
        location = VehicleLocation(location=LatLng(latitude=where[0], longitude=where[1]))
        location.horizontal_accuracy.value = round(self.rng.uniform(3, 15), 2)
        location.latlng_accuracy.value = location.horizontal_accuracy.value
        location.heading.value = self.rng.randint(0, 359)
        location.bearing_accuracy.value = round(self.rng.uniform(2, 20), 1)
        location.heading_accuracy.value = location.bearing_accuracy.value
        location.altitude.value = round(self.rng.uniform(5, 120), 1)
        location.vertical_accuracy.value = round(self.rng.uniform(2, 8), 1)
        location.altitude_accuracy.value = location.vertical_accuracy.value
        location.speed_kmph.value = self.rng.randint(0, 60)
        location.speed.value = round(location.speed_kmph.value / 3.6, 3)
        location.speed_accuracy.value = 0.5
        location.update_time.CopyFrom(self.timestamp(-2))
        location.server_time.CopyFrom(self.timestamp(-1))
        location.location_sensor = fleetengine.LocationSensor.ROAD_SNAPPED_LOCATION_PROVIDER
        location.is_road_snapped.value = True
        location.is_gps_sensor_enabled.value = True
        location.time_since_update.value = 2
        location.num_stale_updates.value = 0
        location.raw_location.latitude, location.raw_location.longitude = self.place(0.0005)
        location.raw_location_time.CopyFrom(self.timestamp(-2))
        location.raw_location_sensor = fleetengine.LocationSensor.GPS
        location.raw_location_accuracy.value = round(self.rng.uniform(3, 15), 2)
        location.road_snapped = True
        return location

    def trip(self, route_points: int, waypoint_path_points: int, intermediate_stops: int, status: int) -> Trip:
        """A trip while its vehicle drives to the pickup, with remaining waypoints and a route."""
        trip_id = self.trip_id()
        vehicle = self.place()
        pickup, dropoff = self.place(), self.place()
        stops = [self.place() for _ in range(intermediate_stops)]
        trip = Trip(name=self.trip_name(trip_id), vehicle_id=self.vehicle_id(), trip_status=status)
        trip.trip_type = fleetengine.TripType.EXCLUSIVE
        trip.pickup_point.point.latitude, trip.pickup_point.point.longitude = pickup
        trip.dropoff_point.point.latitude, trip.dropoff_point.point.longitude = dropoff
        for stop in stops:
            destination = trip.intermediate_destinations.add()
            destination.point.latitude, destination.point.longitude = stop
        if stops:
            trip.intermediate_destinations_version.CopyFrom(self.timestamp(-600))
        trip.pickup_time.CopyFrom(self.timestamp(420))
        trip.dropoff_time.CopyFrom(self.timestamp(1500))

        legs = [(vehicle, pickup, fleetengine.WaypointType.PICKUP_WAYPOINT_TYPE)]
        previous = pickup
        for stop in stops:
            legs.append((previous, stop, fleetengine.WaypointType.INTERMEDIATE_DESTINATION_WAYPOINT_TYPE))
            previous = stop
        legs.append((previous, dropoff, fleetengine.WaypointType.DROP_OFF_WAYPOINT_TYPE))
        eta = 0
        for start, end, kind in legs:
            eta += self.rng.randint(240, 600)
            trip.remaining_waypoints.add().CopyFrom(self.waypoint(trip_id, kind, start, end, waypoint_path_points, eta))

        route = self.path(vehicle, pickup, route_points)
        for lat, lng in route:
            trip.route.add(latitude=lat, longitude=lng)
        trip.current_route_segment = encode_polyline(route)
        trip.current_route_segment_version.CopyFrom(self.timestamp(-30))
        trip.current_route_segment_traffic.CopyFrom(self.traffic(route))
        trip.current_route_segment_traffic_version.CopyFrom(self.timestamp(-30))
        end_point = trip.current_route_segment_end_point
        end_point.location.point.latitude, end_point.location.point.longitude = pickup
        end_point.trip_id = trip_id
        end_point.waypoint_type = fleetengine.WaypointType.PICKUP_WAYPOINT_TYPE
        trip.remaining_distance_meters.value = 90 * route_points + self.rng.randint(0, 500)
        trip.eta_to_first_waypoint.CopyFrom(trip.remaining_waypoints[0].eta)
        trip.remaining_time_to_first_waypoint.CopyFrom(trip.remaining_waypoints[0].duration)
        trip.remaining_waypoints_version.CopyFrom(self.timestamp(-30))
        trip.remaining_waypoints_route_version.CopyFrom(self.timestamp(-30))
        trip.number_of_passengers = self.rng.randint(1, 4)
        trip.last_location.CopyFrom(self.vehicle_location(vehicle))
        trip.last_location_snappable = True
        trip.view = trips.TripView.SDK
        trip.attributes.add(key="fare_class", string_value=self.rng.choice(["standard", "xl", "comfort"]))
        trip.attributes.add(key="wheelchair_accessible", bool_value=self.rng.random() < 0.2)
        trip.attributes.add(key="quoted_fare_usd", number_value=round(self.rng.uniform(9, 60), 2))
        return trip

    def request_header(self, android: bool = False) -> RequestHeader:
        """The header a Consumer SDK attaches: an iPhone's, or an Android phone's (with its API level)."""
        if android:
            return RequestHeader(
                language_code="es-US",
                region_code="US",
                sdk_version="5.1.0",
                os_version="14",
                device_model="Pixel 8",
                sdk_type=RequestHeader.SdkType.DRIVER,
                maps_sdk_version="18.2.0",
                nav_sdk_version="5.4.0",
                platform=RequestHeader.Platform.ANDROID,
                manufacturer="Google",
                android_api_level=34,
                trace_id="9a8b7c6d5e4f30211203f4e5d6c7b8a9",
            )
        return RequestHeader(
            language_code="en-US",
            region_code="US",
            sdk_version="6.2.1",
            os_version="17.4.1",
            device_model="iPhone15,2",
            sdk_type=RequestHeader.SdkType.CONSUMER,
            maps_sdk_version="8.4.0",
            nav_sdk_version="5.3.0",
            platform=RequestHeader.Platform.IOS,
            manufacturer="Apple",
            trace_id="5f0c9b1e2a7d4c3b9e8f1a2b3c4d5e6f",
        )


# --- the case collection ------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    group: str
    message: object
    data: bytes
    json_text: str | None
    byte_exact: bool
    note: str | None = None
    unknown: list = field(default_factory=list)


def full_type(message) -> str:
    return message.DESCRIPTOR.full_name


def is_map_field(descriptor) -> bool:
    return descriptor.message_type is not None and descriptor.message_type.GetOptions().map_entry


def has_multi_entry_map(message) -> bool:
    """True when some map field (at any depth of real submessages) holds more than one entry."""
    for descriptor, value in message.ListFields():
        if is_map_field(descriptor):
            if len(value) > 1:
                return True
        elif descriptor.message_type is not None:
            children = value if descriptor.is_repeated else [value]
            if any(has_multi_entry_map(child) for child in children):
                return True
    return False


def unknown_fields_of(message, path: str = "") -> list[dict]:
    """The unknown fields Google's parser kept, with where they sit, depth first."""
    found = [
        {"path": path, "number": f.field_number, "wireType": f.wire_type}
        for f in unknown_fields.UnknownFieldSet(message)
    ]
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None or is_map_field(descriptor):
            continue
        if descriptor.is_repeated:
            for index, child in enumerate(value):
                found += unknown_fields_of(child, f"{path}{'.' if path else ''}{descriptor.name}[{index}]")
        else:
            found += unknown_fields_of(value, f"{path}{'.' if path else ''}{descriptor.name}")
    return found


def sort_map_objects(message, value: dict) -> None:
    """Order the keys of every JSON object that stands for a map field, in place."""
    for descriptor, field_value in message.ListFields():
        member = value.get(descriptor.json_name)
        if member is None:
            continue
        if is_map_field(descriptor):
            value[descriptor.json_name] = dict(sorted(member.items()))
        elif descriptor.message_type is not None and descriptor.is_repeated and isinstance(member, list):
            for child, child_value in zip(field_value, member, strict=True):
                if isinstance(child_value, dict):
                    sort_map_objects(child, child_value)
        elif descriptor.message_type is not None and isinstance(member, dict):
            sort_map_objects(field_value, member)


def stable_json(message) -> str:
    """MessageToJson's text, except that map entries are ordered by key.

    upb iterates maps in a per-process random order, so MessageToJson alone would make a message
    with a multi-entry map print differently on every run. For every other message this is exactly
    MessageToJson's default output (same object, same json.dumps call).
    """
    value = json_format.MessageToDict(message)
    sort_map_objects(message, value)
    text = json.dumps(value, indent=2)
    if not has_multi_entry_map(message) and text != json_format.MessageToJson(message):
        raise SystemExit(f"stable_json differs from MessageToJson for a {full_type(message)} without maps")
    return text


class Golden:
    def __init__(self) -> None:
        self.cases: list[Case] = []

    def add(self, name: str, group: str, message, note: str | None = None) -> None:
        """A case with bytes and JSON; checks both round-trip through Google's parsers."""
        data = message.SerializeToString(deterministic=True)
        json_text = stable_json(message)
        if type(message).FromString(data).SerializeToString(deterministic=True) != data:
            raise SystemExit(f"{name}: binary round trip changed the bytes")
        reparsed = json_format.Parse(json_text, type(message)())
        if reparsed.SerializeToString(deterministic=True) != data:
            raise SystemExit(f"{name}: JSON round trip changed the bytes")
        self._append(Case(name, group, message, data, json_text, not has_multi_entry_map(message), note))

    def add_raw(self, name: str, group: str, message_class, raw: bytes, note: str) -> None:
        """A binary-only case from hand-built bytes; Google must parse them and give them back unchanged."""
        message = message_class.FromString(raw)
        data = message.SerializeToString(deterministic=True)
        if data != raw:
            raise SystemExit(f"{name}: Python re-serialized the bytes differently:\n {raw.hex()}\n {data.hex()}")
        unknown = unknown_fields_of(message)
        if not unknown:
            raise SystemExit(f"{name}: Python kept no unknown fields")
        self._append(Case(name, group, message, data, None, True, note, unknown))

    def _append(self, case: Case) -> None:
        if any(c.name == case.name for c in self.cases):
            raise SystemExit(f"duplicate case name {case.name}")
        self.cases.append(case)


# --- case groups --------------------------------------------------------------------------------


def trip_cases(golden: Golden, data: Data) -> None:
    """Trips of realistic sizes, and a page of search results."""
    small = Trip(name=data.trip_name(), vehicle_id=data.vehicle_id(), trip_status=TripStatus.NEW)
    small.trip_type = fleetengine.TripType.EXCLUSIVE
    small.pickup_point.point.latitude, small.pickup_point.point.longitude = data.place()
    small.dropoff_point.point.latitude, small.dropoff_point.point.longitude = data.place()
    small.number_of_passengers = 1
    golden.add("trip_small", "trip", small, "a new trip: a few fields")

    typical = data.trip(
        route_points=120, waypoint_path_points=4, intermediate_stops=0, status=TripStatus.ENROUTE_TO_PICKUP
    )
    golden.add("trip_typical", "trip", typical, "vehicle en route to pickup: 120-point route, 2 remaining waypoints")

    large = data.trip(
        route_points=1500, waypoint_path_points=170, intermediate_stops=6, status=TripStatus.ENROUTE_TO_PICKUP
    )
    for index in range(len(large.remaining_waypoints)):
        large.vehicle_waypoints.add().CopyFrom(large.remaining_waypoints[index])
        large.vehicle_waypoints[index].ClearField("path_to_waypoint")
    golden.add("trip_large", "trip", large, "long route, 8 waypoints with long paths, vehicle waypoints")

    page = SearchTripsResponse(next_page_token="CiRwcm92aWRlcnMvZmxlZXQtZGVtby1zZi90cmlwcy90cmlwLTEwMBAB")
    statuses = [
        TripStatus.NEW,
        TripStatus.ENROUTE_TO_PICKUP,
        TripStatus.ARRIVED_AT_PICKUP,
        TripStatus.ENROUTE_TO_DROPOFF,
    ]
    for _ in range(100):
        trip = data.trip(
            route_points=data.rng.randint(20, 120),
            waypoint_path_points=data.rng.randint(2, 8),
            intermediate_stops=data.rng.choice([0, 0, 0, 1]),
            status=data.rng.choice(statuses),
        )
        page.trips.add().CopyFrom(trip)
    golden.add("search_trips_response_100", "trip", page, "a page of 100 trips with a next-page token")


def trip_every_field_case(golden: Golden, data: Data) -> None:
    """One trip that sets every field of Trip and of every message it contains at least once."""
    trip = data.trip(route_points=8, waypoint_path_points=3, intermediate_stops=1, status=TripStatus.ENROUTE_TO_PICKUP)
    trip.trip_type = fleetengine.TripType.SHARED
    for stop_field in ("actual_pickup_point", "actual_pickup_arrival_point", "actual_dropoff_point"):
        stop = getattr(trip, stop_field)
        stop.point.latitude, stop.point.longitude = data.place()
        stop.timestamp.CopyFrom(data.timestamp(-60))
        stop.stop_time.CopyFrom(data.timestamp(-50))
    for repeated_field in ("actual_intermediate_destination_arrival_points", "actual_intermediate_destinations"):
        stop = getattr(trip, repeated_field).add()
        stop.point.latitude, stop.point.longitude = data.place()
        stop.timestamp.CopyFrom(data.timestamp(-300))
        stop.stop_time.CopyFrom(data.timestamp(-240))
    trip.intermediate_destination_index = 1
    trip.pickup_point.terminal_point_id.place_id = "ChIJIQBpAG2ahYAR_6128GcTUEo"
    trip.pickup_point.terminal_point_id.value = "ChIJIQBpAG2ahYAR_6128GcTUEo"
    trip.pickup_point.access_point_id = "ap-ferry-building-north"
    trip.pickup_point.trip_id = trip.name.rsplit("/", 1)[1]
    trip.pickup_point.terminal_location_type = fleetengine.WaypointType.PICKUP_WAYPOINT_TYPE
    trip.dropoff_point.terminal_point_id.generated_id = "gen-7f3a"
    trip.vehicle_waypoints.add().CopyFrom(trip.remaining_waypoints[0])
    location = trip.last_location
    location.flp_location.latitude, location.flp_location.longitude = data.place(0.0005)
    location.flp_update_time.CopyFrom(data.timestamp(-3))
    location.flp_latlng_accuracy_meters.value = 4.25
    location.flp_heading_degrees.value = 271
    location.supplemental_location.latitude, location.supplemental_location.longitude = data.place(0.0005)
    location.supplemental_location_time.CopyFrom(data.timestamp(-4))
    location.supplemental_location_sensor = fleetengine.LocationSensor.CUSTOMER_SUPPLIED_LOCATION
    location.supplemental_location_accuracy.value = 12.5
    golden.add("trip_every_field", "trip", trip, "every field of Trip and its submessages set")


def request_cases(golden: Golden, data: Data) -> None:
    """One of every TripService request type, and an empty search response."""
    new_trip = Trip(trip_type=fleetengine.TripType.EXCLUSIVE, number_of_passengers=2)
    new_trip.pickup_point.point.latitude, new_trip.pickup_point.point.longitude = data.place()
    new_trip.dropoff_point.point.latitude, new_trip.dropoff_point.point.longitude = data.place()
    stop = new_trip.intermediate_destinations.add()
    stop.point.latitude, stop.point.longitude = data.place()
    new_trip.attributes.add(key="fare_class", string_value="standard")
    create = CreateTripRequest(header=data.request_header(), parent=f"providers/{PROVIDER}", trip_id=data.trip_id())
    create.trip.CopyFrom(new_trip)
    golden.add("create_trip_request", "request", create)

    get = GetTripRequest(header=data.request_header(), name=data.trip_name(), view=trips.TripView.JOURNEY_SHARING_V1S)
    get.current_route_segment_version.CopyFrom(data.timestamp(-30))
    get.remaining_waypoints_version.CopyFrom(data.timestamp(-31))
    get.route_format_type = fleetengine.PolylineFormatType.ENCODED_POLYLINE_TYPE
    get.current_route_segment_traffic_version.CopyFrom(data.timestamp(-32))
    get.remaining_waypoints_route_version.CopyFrom(data.timestamp(-33))
    golden.add("get_trip_request", "request", get, "every version field and a view")

    update = UpdateTripRequest(header=data.request_header(), name=data.trip_name())
    update.trip.trip_status = TripStatus.ARRIVED_AT_PICKUP
    update.trip.vehicle_id = data.vehicle_id()
    update.trip.intermediate_destination_index = 0
    update.update_mask.CopyFrom(
        field_mask_pb2.FieldMask(paths=["trip_status", "vehicle_id", "intermediate_destination_index"])
    )
    golden.add("update_trip_request", "request", update)

    search = SearchTripsRequest(
        header=data.request_header(android=True),
        parent=f"providers/{PROVIDER}",
        vehicle_id=data.vehicle_id(),
        active_trips_only=True,
        page_size=50,
        page_token="CiRwcm92aWRlcnMvZmxlZXQtZGVtby1zZi90cmlwcy90cmlwLTA1MBAB",
    )
    search.minimum_staleness.seconds = 300
    golden.add("search_trips_request", "request", search)

    delete = DeleteTripRequest(header=data.request_header(), name=data.trip_name())
    golden.add("delete_trip_request", "request", delete)

    billable = ReportBillableTripRequest(
        name=data.trip_name(),
        country_code="US",
        platform=trips.BillingPlatformIdentifier.IOS,
        related_ids=[data.trip_id(), data.trip_id()],
        solution_type=ReportBillableTripRequest.SolutionType.ON_DEMAND_RIDESHARING_AND_DELIVERIES,
    )
    golden.add("report_billable_trip_request", "request", billable)

    golden.add("search_trips_response_empty", "request", SearchTripsResponse(), "no trips and no token: zero bytes")


def error_details() -> list[tuple[str, object]]:
    """One of every google.rpc error detail, as Fleet Engine might send them."""
    error_info = error_details_pb2.ErrorInfo(reason="RATE_LIMIT_EXCEEDED", domain="fleetengine.googleapis.com")
    error_info.metadata["service"] = "fleetengine.googleapis.com"
    retry = error_details_pb2.RetryInfo()
    retry.retry_delay.seconds, retry.retry_delay.nanos = 1, 500_000_000
    bad = error_details_pb2.BadRequest()
    violation = bad.field_violations.add(
        field="trip.pickup_point.point.latitude", description="must be between -90 and 90", reason="OUT_OF_RANGE"
    )
    violation.localized_message.locale = "de-DE"
    violation.localized_message.message = "Der Breitengrad muss zwischen -90 und 90 liegen."
    quota = error_details_pb2.QuotaFailure()
    quota_violation = quota.violations.add(
        subject="project:fleet-demo-sf",
        description="Quota exceeded for GetTrip requests per minute",
        api_service="fleetengine.googleapis.com",
        quota_metric="fleetengine.googleapis.com/get_trip_requests",
        quota_id="GetTripRequestsPerMinutePerProject",
        quota_value=600,
        future_quota_value=0,
    )
    quota_violation.quota_dimensions["region"] = "us-west1"
    precondition = error_details_pb2.PreconditionFailure()
    precondition.violations.add(type="TOS", subject="fleetengine.googleapis.com", description="Terms not accepted")
    resource = error_details_pb2.ResourceInfo(
        resource_type="fleetengine.googleapis.com/Trip",
        resource_name=f"providers/{PROVIDER}/trips/trip-missing",
        owner=f"project:{PROVIDER}",
        description="The trip does not exist.",
    )
    help_links = error_details_pb2.Help()
    help_links.links.add(
        description="Fleet Engine errors",
        url="https://developers.google.com/maps/documentation/mobility/fleet-engine/essentials/errors",
    )
    localized = error_details_pb2.LocalizedMessage(locale="fr-FR", message="Trop de requêtes, réessayez plus tard.")
    debug = error_details_pb2.DebugInfo(stack_entries=["TripService.GetTrip", "TripStore.Read"], detail="store timeout")
    request = error_details_pb2.RequestInfo(request_id="0f1e2d3c4b5a6978", serving_data="cell=us-west1-b")
    return [
        ("error_info", error_info),
        ("retry_info", retry),
        ("bad_request", bad),
        ("quota_failure", quota),
        ("precondition_failure", precondition),
        ("resource_info", resource),
        ("help", help_links),
        ("localized_message", localized),
        ("debug_info", debug),
        ("request_info", request),
    ]


def status_cases(golden: Golden) -> None:
    """google.rpc.Status with every detail packed in Any, and each detail on its own."""
    details = error_details()
    status = status_pb2.Status(code=8, message="Quota exceeded for quota metric 'GetTrip requests'.")
    for _, detail in details:
        packed = status.details.add()
        packed.Pack(detail, deterministic=True)
    golden.add("status_all_details", "status", status, "code 8 RESOURCE_EXHAUSTED with all ten detail types")
    for name, detail in details:
        golden.add(name, "status", detail)

    multi = error_details_pb2.ErrorInfo(reason="TRIP_NOT_FOUND", domain="fleetengine.googleapis.com")
    multi.metadata["trip"] = f"providers/{PROVIDER}/trips/trip-missing"
    multi.metadata["provider"] = PROVIDER
    multi.metadata["consumer"] = "projects/123456789"
    golden.add("error_info_three_metadata", "status", multi, "map with three entries: order is not defined")

    golden.add("status_no_details", "status", status_pb2.Status(code=5, message="Trip not found."))


def numeric_edge_cases(golden: Golden) -> None:
    """Extreme integers, negative and unknown enum values, special doubles, time edges."""
    trip = Trip(name="providers/p/trips/int32-extremes", number_of_passengers=INT32_MIN)
    trip.intermediate_destination_index = INT32_MAX
    trip.remaining_distance_meters.value = INT32_MIN
    trip.trip_status = -1
    trip.current_route_segment_traffic.speed_reading_interval.add(
        start_polyline_point_index=INT32_MIN, end_polyline_point_index=INT32_MAX, speed=-2
    )
    golden.add("trip_int32_extremes", "edge", trip, "INT32_MIN/MAX (10-byte varints for negatives), enum -1 and -2")

    unknown = Trip(name="providers/p/trips/unknown-enums", trip_status=42, trip_type=7, view=99)
    unknown.pickup_point.terminal_location_type = 13
    unknown.last_location.location_sensor = 1000
    unknown.current_route_segment_traffic.speed_reading_interval.add(speed=9)
    golden.add("trip_unknown_enum_values", "edge", unknown, "enum numbers the schema does not name (open enums)")

    golden.add("status_negative_code", "edge", status_pb2.Status(code=-1, message="negative code"))
    golden.add("status_code_int32_max", "edge", status_pb2.Status(code=INT32_MAX))

    quota = error_details_pb2.QuotaFailure()
    quota.violations.add(subject="min", quota_value=INT64_MIN, future_quota_value=INT64_MAX)
    quota.violations.add(subject="max", quota_value=INT64_MAX, future_quota_value=INT64_MIN)
    quota.violations.add(subject="absent future value", quota_value=-1)
    golden.add("quota_failure_int64_extremes", "edge", quota, "INT64_MIN/MAX; the third violation has no future value")

    for name, lat, lng, note in (
        ("latlng_negative_zero", -0.0, -0.0, "-0.0 has a non-zero bit pattern, so it is written"),
        ("latlng_largest", 1e308, -1.7976931348623157e308, "1e308 and -DBL_MAX"),
        ("latlng_smallest_subnormal", 5e-324, -5e-324, "the smallest subnormal, both signs"),
        ("latlng_nan_infinity", math.nan, math.inf, 'JSON: "NaN" and "Infinity" as strings'),
        ("latlng_negative_infinity", -math.inf, 0.0, 'JSON: "-Infinity"; longitude 0.0 is not written'),
    ):
        golden.add(name, "edge", LatLng(latitude=lat, longitude=lng), note)

    special = Trip(name="providers/p/trips/special-doubles")
    for lat, lng in [(-0.0, 0.0), (1e308, -1e308), (5e-324, -5e-324), (math.nan, math.inf), (-math.inf, 90.0)]:
        special.route.add(latitude=lat, longitude=lng)
    special.last_location.speed.value = -0.0
    special.last_location.altitude.value = math.nan
    special.last_location.heading_accuracy.value = math.inf
    special.attributes.add(key="nan", number_value=math.nan)
    special.attributes.add(key="negative zero", number_value=-0.0)
    golden.add("trip_special_doubles", "edge", special, "-0.0 is written (bit pattern non-zero); NaN, +-Infinity")

    times = Trip(name="providers/p/trips/time-edges")
    times.pickup_time.seconds = TIMESTAMP_MIN_SECONDS
    times.dropoff_time.seconds, times.dropoff_time.nanos = TIMESTAMP_MAX_SECONDS, 999_999_999
    times.eta_to_first_waypoint.seconds = -1
    times.eta_to_first_waypoint.nanos = 999_999_999
    times.remaining_time_to_first_waypoint.seconds = DURATION_MAX_SECONDS
    times.remaining_time_to_first_waypoint.nanos = 999_999_999
    times.current_route_segment_version.seconds = 0
    times.current_route_segment_version.nanos = 0
    golden.add("trip_time_extremes", "edge", times, "0001-01-01, 9999-12-31T23:59:59.999999999, 1969, epoch")

    negative = error_details_pb2.RetryInfo()
    negative.retry_delay.seconds, negative.retry_delay.nanos = -DURATION_MAX_SECONDS, -999_999_999
    golden.add("retry_info_duration_min", "edge", negative, "the most negative Duration")
    half = error_details_pb2.RetryInfo()
    half.retry_delay.seconds, half.retry_delay.nanos = 0, -500_000_000
    golden.add("retry_info_negative_half_second", "edge", half, 'JSON "-0.500s": seconds 0, negative nanos')


def fraction_digit_cases(golden: Golden) -> None:
    """Timestamps and Durations whose JSON needs 0, 3, 6 and 9 fraction digits."""
    trip = Trip(name="providers/p/trips/fraction-digits")
    for field_name, nanos in (
        ("pickup_time", 0),
        ("dropoff_time", 500_000_000),
        ("eta_to_first_waypoint", 500_000),
        ("remaining_waypoints_version", 1),
    ):
        getattr(trip, field_name).seconds = NOW
        getattr(trip, field_name).nanos = nanos
    for nanos in (0, 250_000_000, 123_000, 7):
        waypoint = trip.remaining_waypoints.add(trip_id="fraction-digits")
        waypoint.duration.seconds, waypoint.duration.nanos = 61, nanos
    negative = trip.remaining_waypoints.add(trip_id="negative duration")
    negative.duration.seconds, negative.duration.nanos = -61, -1_000
    golden.add("trip_fraction_digits", "edge", trip, "Timestamp/Duration nanos needing 0, 3, 6, 9 digits")


def text_cases(golden: Golden) -> None:
    """Non-ASCII text, an embedded NUL, and empty strings."""
    trip = Trip(name="providers/p/trips/旅行-🚕-رحلة", vehicle_id="車両-٤٢")
    trip.attributes.add(key="greeting", string_value="你好，世界 — こんにちは — 안녕하세요")
    trip.attributes.add(key="emoji", string_value="👩‍👩‍👧‍👦 🏳️‍🌈 🇺🇸 🚗💨")
    trip.attributes.add(key="rtl", string_value="שלום עולם — مرحبا بالعالم")
    trip.attributes.add(key="combining", string_value="e\u0301 a\u0308 Z\u0351\u0363\u0344")
    trip.attributes.add(key="bmp edge", string_value="\ufeff\uffff\U0010ffff")
    trip.pickup_point.access_point_id = "Café Ünïcödé"
    golden.add("trip_unicode_text", "edge", trip, "CJK, emoji with ZWJ, RTL, combining marks, U+FEFF, U+10FFFF")

    nul = Trip(name="providers/p/trips/nul\u0000inside", vehicle_id="\u0000")
    golden.add("trip_string_with_nul", "edge", nul, "strings are byte counts: a NUL inside must survive")

    info = error_details_pb2.ErrorInfo(reason="ÜNÏCÖDÉ", domain="例え.jp")
    info.metadata["日本語キー"] = "値 ✓"
    golden.add("error_info_unicode_metadata", "edge", info)


def presence_cases(golden: Golden) -> None:
    """Empty repeated fields, empty submessages, and oneofs or wrappers holding default values."""
    empty_lists = SearchTripsResponse(next_page_token="end")
    golden.add("search_trips_response_token_only", "edge", empty_lists, "an empty repeated field is simply absent")

    waypoint_without_path = Trip(name="providers/p/trips/empty-path")
    waypoint_without_path.remaining_waypoints.add(trip_id="empty-path", waypoint_type=1)
    golden.add("trip_waypoint_without_path", "edge", waypoint_without_path, "TripWaypoint with no path points")

    empty = Trip(name="providers/p/trips/empty-submessages")
    empty.pickup_point.SetInParent()
    empty.last_location.SetInParent()
    empty.remaining_distance_meters.value = 0
    empty.last_location.is_road_snapped.value = False
    empty.last_location.speed.value = 0.0
    empty.route.add()
    empty.current_route_segment_traffic.speed_reading_interval.add()
    golden.add("trip_empty_submessages", "edge", empty, "present-but-empty messages and wrappers holding 0/false")

    attributes = Trip(name="providers/p/trips/oneof-defaults")
    attributes.attributes.add(key="bool", bool_value=False)
    attributes.attributes.add(key="number", number_value=0.0)
    attributes.attributes.add(key="string", string_value="")
    attributes.attributes.add(key="unset")
    attributes.pickup_point.terminal_point_id.place_id = ""
    golden.add("trip_attribute_oneof_defaults", "edge", attributes, "oneof members set to their default stay present")

    for name, kwargs in (
        ("vehicle_attribute_bool_false", {"bool_value": False, "value": "false"}),
        ("vehicle_attribute_number_zero", {"number_value": 0.0}),
        ("vehicle_attribute_string_empty", {"string_value": ""}),
    ):
        golden.add(name, "edge", VehicleAttribute(key="k", **kwargs), "oneof set to its default")

    quota = error_details_pb2.QuotaFailure()
    quota.violations.add(subject="zero future value", future_quota_value=0)
    golden.add("quota_failure_future_value_zero", "edge", quota, "proto3 optional set to 0 is written (presence)")


def unknown_field_cases(golden: Golden) -> None:
    """Binary-only: fields the schema does not know, which Google's parser keeps and writes back."""
    name = length_delimited_field(1, b"providers/p/trips/unknown-fields")
    top = (
        name
        + varint_field(1000, 150)
        + fixed32_field(1001, (1234567).to_bytes(4, "little"))
        + fixed64_field(1002, (-2).to_bytes(8, "little", signed=True))
        + length_delimited_field(1003, b"opaque \x00\xff bytes")
        + varint_field(536870911, 1)
    )
    golden.add_raw(
        "trip_unknown_top_level",
        "unknown",
        Trip,
        top,
        "unknown varint, fixed32, fixed64, length-delimited, and field 2^29-1 at top level",
    )

    lat_lng = fixed64_field(1, struct.pack("<d", 37.7955)) + fixed64_field(2, struct.pack("<d", -122.3937))
    point = (
        lat_lng
        + varint_field(50, 7)
        + fixed32_field(51, b"\x01\x02\x03\x04")
        + fixed64_field(52, b"\x01\x02\x03\x04\x05\x06\x07\x08")
        + length_delimited_field(53, b"\x08\x01")
    )
    terminal = length_delimited_field(1, point) + varint_field(99, 1)
    nested = name + length_delimited_field(5, terminal)
    golden.add_raw(
        "trip_unknown_nested",
        "unknown",
        Trip,
        nested,
        "unknown fields of every wire type inside Trip.pickup_point.point, one inside pickup_point",
    )

    group = group_field(2000, varint_field(1, 5) + length_delimited_field(2, b"in group") + group_field(3, b""))
    golden.add_raw(
        "trip_unknown_group", "unknown", Trip, name + group, "an unknown group (wire types 3/4) with a nested group"
    )

    wrong = name + varint_field(1, 5) + length_delimited_field(3, b"\x02")
    golden.add_raw(
        "trip_known_field_wrong_wire_type",
        "unknown",
        Trip,
        wrong,
        "Trip.name (string) sent as a varint and trip_status (enum) as length-delimited: kept as unknown fields",
    )


# --- rejected binary inputs ---------------------------------------------------------------------


def rejected_inputs() -> list[dict]:
    """Bytes Google's parser must reject; each is checked here, and dropped with a warning if accepted."""
    candidates = [
        ("truncated_varint", Trip, b"\x50\x80", "varint ends in a byte with the continuation bit set"),
        ("varint_11_bytes", Trip, b"\x50" + b"\x80" * 10 + b"\x01", "varint longer than 10 bytes"),
        ("length_past_end", Trip, b"\x0a\x05ab", "length-delimited field claims 5 bytes, 2 remain"),
        (
            "nested_length_past_parent",
            Trip,
            b"\x2a\x03\x0a\x05\x09\x00\x00",
            "pickup_point holds 3 bytes, its point claims 5",
        ),
        ("invalid_utf8_string", Trip, b"\x0a\x01\xff", "Trip.name = b'\\xff' is not UTF-8"),
        ("invalid_utf8_nested_string", Trip, b"\x2a\x03\x22\x01\xc3", "pickup_point.trip_id is a cut UTF-8 sequence"),
        ("field_number_zero", Trip, b"\x00\x01", "field number 0 is invalid"),
        ("field_number_2_pow_29", Trip, tag(536870912, 0) + b"\x01", "field number 536870912 is above 2^29-1"),
        ("wire_type_6", Trip, b"\x0e\x01", "wire type 6 does not exist"),
        ("wire_type_7", Trip, b"\x0f\x01", "wire type 7 does not exist"),
        ("end_group_without_start", Trip, b"\x0a\x01a" + tag(99, 4), "end-group tag with no open group"),
        ("unterminated_group", Trip, group_field(99, b"\x08\x01")[:-2], "group started, input ends before its end tag"),
        (
            "mismatched_end_group",
            Trip,
            tag(99, 3) + b"\x08\x01" + tag(98, 4),
            "group 99 closed by an end-group tag for field 98",
        ),
    ]
    accepted = []
    for name, message_class, data, reason in candidates:
        try:
            message_class.FromString(data)
        except DecodeError as error:
            accepted.append(
                {
                    "name": name,
                    "type": message_class.DESCRIPTOR.full_name,
                    "hex": data.hex(),
                    "reason": reason,
                    "pythonError": str(error),
                }
            )
        else:
            print(f"warning: Python accepts {name} ({data.hex()}); dropped from rejected.json", file=sys.stderr)
    return accepted


# --- JSON inputs --------------------------------------------------------------------------------


def json_inputs() -> dict:
    """Non-canonical JSON Google's parser accepts (with the bytes it yields) and JSON it rejects."""
    trip = Trip.DESCRIPTOR.full_name
    status = status_pb2.Status.DESCRIPTOR.full_name
    quota = error_details_pb2.QuotaFailure.DESCRIPTOR.full_name
    bytes_value = wrappers_pb2.BytesValue.DESCRIPTOR.full_name
    lat_lng = LatLng.DESCRIPTOR.full_name
    classes = {
        trip: Trip,
        status: status_pb2.Status,
        quota: error_details_pb2.QuotaFailure,
        bytes_value: wrappers_pb2.BytesValue,
        lat_lng: LatLng,
    }
    accepted_inputs = [
        (
            "proto_field_names",
            trip,
            '{"vehicle_id": "vehicle-007", "trip_status": "NEW"}',
            "proto names, not lowerCamelCase",
        ),
        ("int64_as_number", quota, '{"violations": [{"quotaValue": 123, "futureQuotaValue": 0}]}', "int64 unquoted"),
        ("int64_max_as_number", quota, '{"violations": [{"quotaValue": 9223372036854775807}]}', "int64 max unquoted"),
        ("int32_as_string", trip, '{"numberOfPassengers": "3"}', "int32 quoted"),
        ("int32_with_exponent", trip, '{"numberOfPassengers": 1e2}', "integral value written with an exponent"),
        ("int32_as_float_literal", trip, '{"numberOfPassengers": 3.0}', "integral value with a fraction part"),
        ("enum_as_number", trip, '{"tripStatus": 2}', "enum by number"),
        ("enum_unknown_number", trip, '{"tripStatus": 42}', "enum number the schema does not name"),
        ("timestamp_offset", trip, '{"pickupTime": "2024-05-01T12:00:00+02:00"}', "RFC 3339 offset, not Z"),
        (
            "timestamp_offset_fraction",
            trip,
            '{"pickupTime": "2024-05-01T12:00:00.5-07:30"}',
            "negative offset with a 1-digit fraction",
        ),
        ("duration_one_fraction_digit", trip, '{"remainingTimeToFirstWaypoint": "1.5s"}', "1 fraction digit"),
        (
            "double_special_strings",
            trip,
            '{"route": [{"latitude": "NaN", "longitude": "-Infinity"}, {"latitude": "Infinity"}]}',
            "NaN and Infinity as strings",
        ),
        ("double_as_string", lat_lng, '{"latitude": "37.7749", "longitude": "-1.5e2"}', "doubles quoted"),
        ("bytes_base64url_no_padding", bytes_value, '"-_8"', "base64url alphabet, padding left out"),
        (
            "any_bytes_value_base64url",
            status,
            '{"details": [{"@type": "type.googleapis.com/google.protobuf.BytesValue", "value": "-_8"}]}',
            "an Any holding a BytesValue: its 'value' is base64url without padding",
        ),
        (
            "null_message_field",
            trip,
            '{"name": "providers/p/trips/t", "pickupPoint": null}',
            "null leaves the field unset",
        ),
        ("null_repeated_field", trip, '{"route": null}', "null leaves the list empty"),
        ("null_wrapper_field", trip, '{"remainingDistanceMeters": null}', "null leaves the wrapper unset"),
        ("null_enum_field", trip, '{"tripStatus": null}', "null leaves the enum at its default"),
        ("wrapper_as_bare_value", trip, '{"remainingDistanceMeters": 1500}', "Int32Value written as a bare number"),
    ]
    rejected_inputs = [
        ("unknown_field_name", trip, '{"bogus": 1}', "Trip has no field 'bogus'"),
        ("duplicate_key", trip, '{"name": "a", "name": "b"}', "the same key twice"),
        ("string_for_bool", trip, '{"lastLocationSnappable": "true"}', "bool must be an unquoted true or false"),
        ("bool_for_int32", trip, '{"numberOfPassengers": true}', "bool where an integer is expected"),
        ("number_for_string", trip, '{"name": 5}', "number where a string is expected"),
        ("object_for_repeated", trip, '{"route": {}}', "object where a list is expected"),
        ("int32_above_range", trip, '{"numberOfPassengers": 2147483648}', "2^31 does not fit int32"),
        ("int32_below_range", trip, '{"numberOfPassengers": -2147483649}', "-2^31-1 does not fit int32"),
        ("int32_with_fraction", trip, '{"numberOfPassengers": 3.5}', "not an integer"),
        (
            "int64_above_range",
            quota,
            '{"violations": [{"quotaValue": "9223372036854775808"}]}',
            "2^63 does not fit int64",
        ),
        ("bad_enum_name", trip, '{"tripStatus": "FLYING"}', "TripStatus has no value FLYING"),
        ("bad_timestamp_month", trip, '{"pickupTime": "2024-13-01T00:00:00Z"}', "month 13"),
        ("timestamp_without_offset", trip, '{"pickupTime": "2024-05-01T12:00:00"}', "RFC 3339 needs Z or an offset"),
        ("timestamp_space_separator", trip, '{"pickupTime": "2024-05-01 12:00:00Z"}', "'T' separator required"),
        ("timestamp_year_10000", trip, '{"pickupTime": "10000-01-01T00:00:00Z"}', "after 9999-12-31"),
        ("duration_without_unit", trip, '{"remainingTimeToFirstWaypoint": "1.5"}', "Duration must end in 's'"),
        ("lowercase_nan", lat_lng, '{"latitude": "nan"}', "only 'NaN' is accepted"),
        ("double_overflow", lat_lng, '{"latitude": 1e400}', "number too large for a double"),
        (
            "two_oneof_members",
            trip,
            '{"attributes": [{"key": "k", "boolValue": false, "numberValue": 1}]}',
            "two members of one oneof",
        ),
    ]
    result = {"accepted": [], "rejected": []}
    for name, type_name, text, note in accepted_inputs:
        message = json_format.Parse(text, classes[type_name]())
        result["accepted"].append(
            {
                "name": name,
                "type": type_name,
                "json": text,
                "hex": message.SerializeToString(deterministic=True).hex(),
                "canonicalJson": json_format.MessageToJson(message, indent=None),
                "note": note,
            }
        )
    for name, type_name, text, reason in rejected_inputs:
        try:
            json_format.Parse(text, classes[type_name]())
        except json_format.ParseError as error:
            result["rejected"].append(
                {"name": name, "type": type_name, "json": text, "reason": reason, "pythonError": str(error)}
            )
        else:
            print(f"warning: Python accepts JSON {name}; dropped from the rejected list", file=sys.stderr)
    return result


# --- output -------------------------------------------------------------------------------------


def coverage_gaps(cases: list[Case]) -> list[str]:
    """Fields of the messages the cases use that no case ever sets (printed, so gaps are visible)."""
    seen_types = {}
    set_fields = set()

    def walk(message) -> None:
        descriptor = message.DESCRIPTOR
        seen_types[descriptor.full_name] = descriptor
        for field_descriptor, value in message.ListFields():
            set_fields.add(field_descriptor.full_name)
            if field_descriptor.message_type is None or is_map_field(field_descriptor):
                continue
            for child in value if field_descriptor.is_repeated else [value]:
                walk(child)

    for case in cases:
        walk(case.message)
    return sorted(f.full_name for d in seen_types.values() for f in d.fields if f.full_name not in set_fields)


def write_json(path: pathlib.Path, value) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=DEFAULT_OUT, type=pathlib.Path, help=f"output folder (default: {DEFAULT_OUT})")
    args = parser.parse_args()

    data = Data(SEED)
    golden = Golden()
    trip_cases(golden, data)
    trip_every_field_case(golden, data)
    request_cases(golden, data)
    status_cases(golden)
    numeric_edge_cases(golden)
    fraction_digit_cases(golden)
    text_cases(golden)
    presence_cases(golden)
    unknown_field_cases(golden)

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    expected = {"manifest.json", "rejected.json", "json_inputs.json", "README.md"}
    manifest = []
    for case in golden.cases:
        files = [f"{case.name}.bin"]
        (out / files[0]).write_bytes(case.data)
        if case.json_text is not None:
            files.append(f"{case.name}.json")
            (out / files[1]).write_text(case.json_text + "\n", encoding="utf-8")
        expected.update(files)
        entry = {
            "name": case.name,
            "group": case.group,
            "type": full_type(case.message),
            "files": files,
            "byteSize": len(case.data),
            "byteExact": case.byte_exact,
        }
        if case.note:
            entry["note"] = case.note
        if case.unknown:
            entry["unknownFields"] = case.unknown
            entry["pythonKeepsUnknownFields"] = True
        manifest.append(entry)
    write_json(out / "manifest.json", {"generator": "Scripts/make-golden-vectors.py", "seed": SEED, "cases": manifest})
    write_json(out / "rejected.json", {"generator": "Scripts/make-golden-vectors.py", "inputs": rejected_inputs()})
    write_json(out / "json_inputs.json", {"generator": "Scripts/make-golden-vectors.py", **json_inputs()})

    stale = sorted(p.name for p in out.iterdir() if p.name not in expected)
    for name in stale:
        print(f"warning: {out / name} is not written by this script", file=sys.stderr)
    print(f"wrote {len(manifest)} cases to {out}")
    for entry in manifest:
        flags = "" if entry["byteExact"] else "  (not byteExact)"
        print(f"  {entry['name']:<40} {entry['type']:<45} {entry['byteSize']:>7} bytes{flags}")
    gaps = coverage_gaps(golden.cases)
    print(f"fields never set by any case: {', '.join(gaps) if gaps else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
