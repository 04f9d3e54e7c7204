#!/usr/bin/env python3
"""Drives the emulator with Google's own Fleet Engine client, and fails on any difference.

    Scripts/check-emulator-with-google-client.py [PATH-TO-fleettrips]

Starts `fleettrips serve` (the emulator) on a free loopback port, then uses the official
`google.maps.fleetengine_v1.TripServiceClient` from PyPI's google-maps-fleetengine, over an
insecure grpcio channel, through every TripService method: every documented error with its
google.rpc details (decoded by google-api-core from grpc-status-details-bin), JWT auth (tokens
minted here with Python's hmac, independently of our minter, and one from `fleettrips token`),
paging, field masks, and the parts GetTrip leaves out for the versions a caller holds. A second
emulator with --qps checks RESOURCE_EXHAUSTED with RetryInfo. Exits non-zero on the first
difference, saying what it expected and what came back.
"""

import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

import grpc
from google.api_core import exceptions
from google.maps import fleetengine_v1 as fe
from google.maps.fleetengine_v1.services.trip_service.transports import TripServiceGrpcTransport
from google.protobuf import field_mask_pb2
from google.rpc import error_details_pb2
from google.type import latlng_pb2

SECRET = "emulator-check-secret-0123456789abcdef"
PROVIDER = "google-client-check"
AUDIENCE = "https://fleetengine.googleapis.com/"
CHECKS = []


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(trip_id, lifetime=3600, secret=SECRET, audience=AUDIENCE, with_trip=True):
    """An HS256 Fleet Engine token, made without any of our code (RFC 7515 compact form)."""
    now = int(time.time())
    claims = {"iss": "check@example.com", "sub": "check@example.com", "aud": audience,
              "iat": now, "exp": now + lifetime}
    if with_trip:
        claims["authorization"] = {"tripid": trip_id}
        if trip_id == "*":
            claims["authorization"]["vehicleid"] = "*"
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


def auth(token):
    return [("authorization", f"Bearer {token}")] if token else []


def check(condition, what):
    CHECKS.append(what)
    if not condition:
        raise SystemExit(f"FAILED: {what}")


def expect_error(call, code, what, reason=None, field=None, retry_info=False):
    try:
        call()
    except exceptions.GoogleAPICallError as error:
        check(error.grpc_status_code == code, f"{what}: code {error.grpc_status_code} == {code}")
        details = list(error.details or [])
        if reason is not None:
            check(error.reason == reason, f"{what}: ErrorInfo reason {error.reason!r} == {reason!r}")
            check(error.domain == "fleetengine.googleapis.com", f"{what}: ErrorInfo domain {error.domain!r}")
        if field is not None:
            violations = [v.field for d in details if isinstance(d, error_details_pb2.BadRequest)
                          for v in d.field_violations]
            check(field in violations, f"{what}: BadRequest violation of {field!r} in {violations}")
        if retry_info:
            delays = [d.retry_delay for d in details if isinstance(d, error_details_pb2.RetryInfo)]
            check(len(delays) == 1 and delays[0].ToNanoseconds() > 0, f"{what}: one positive RetryInfo delay")
        return error
    raise SystemExit(f"FAILED: {what}: expected {code}, the call succeeded")


class Emulator:
    def __init__(self, binary, *arguments):
        self.process = subprocess.Popen([binary, "serve", "--port", "0", *arguments],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening on "):
            self.process.kill()
            raise SystemExit(f"FAILED: the emulator printed {line!r} instead of 'listening on HOST:PORT'")
        self.address = line[len("listening on "):]
        self.simulated = []
        if "--simulate" in arguments:
            count = int(arguments[arguments.index("--trips") + 1])
            self.simulated = [self.process.stdout.readline().strip() for _ in range(count)]
        self.channel = grpc.insecure_channel(self.address)
        self.client = fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=self.channel))

    def stop(self):
        self.channel.close()
        self.process.terminate()
        code = self.process.wait(timeout=20)
        check(code == 0, f"the emulator exits cleanly on SIGTERM (exit status {code})")


def point(lat, lng):
    return fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=lat, longitude=lng))


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/fleettrips"
    server = mint("*")
    emulator = Emulator(binary, "--jwt-secret", SECRET, "--simulate", "--trips", "3", "--seed", "7",
                        "--provider", PROVIDER)
    client = emulator.client
    parent = f"providers/{PROVIDER}"
    code = grpc.StatusCode
    try:
        # CreateTrip, and the duplicate.
        created = client.create_trip(request=fe.CreateTripRequest(
            parent=parent, trip_id="check-1",
            trip=fe.Trip(trip_type=fe.TripType.EXCLUSIVE, pickup_point=point(37.422, -122.084),
                         dropoff_point=point(37.415, -122.063), number_of_passengers=2, vehicle_id="v-1")),
            metadata=auth(server), retry=None)
        name = f"{parent}/trips/check-1"
        check(created.name == name, f"CreateTrip names the trip {created.name!r}")
        check(created.trip_status == fe.TripStatus.NEW, "a created trip is NEW")
        check(created.number_of_passengers == 2 and created.vehicle_id == "v-1", "CreateTrip keeps the given fields")
        check(abs(created.pickup_point.point.latitude - 37.422) < 1e-12, "the pickup point survives the round trip")
        check([w.waypoint_type for w in created.remaining_waypoints]
              == [fe.WaypointType.PICKUP_WAYPOINT_TYPE, fe.WaypointType.DROP_OFF_WAYPOINT_TYPE],
              "a NEW trip has its pickup and dropoff ahead")
        expect_error(lambda: client.create_trip(request=fe.CreateTripRequest(
            parent=parent, trip_id="check-1", trip=fe.Trip(trip_type=fe.TripType.SHARED,
                                                           pickup_point=point(1, 2))),
            metadata=auth(server), retry=None), code.ALREADY_EXISTS, "CreateTrip of an existing id",
            reason="TRIP_ALREADY_EXISTS")
        expect_error(lambda: client.create_trip(request=fe.CreateTripRequest(
            parent=parent, trip_id="check-2", trip=fe.Trip(pickup_point=point(1, 2))),
            metadata=auth(server), retry=None), code.INVALID_ARGUMENT, "CreateTrip without a trip type",
            field="trip.trip_type")

        # GetTrip, with the documented errors.
        fetched = client.get_trip(request=fe.GetTripRequest(name=name), metadata=auth(mint("check-1")), retry=None)
        check(fetched.name == name and fetched.vehicle_id == "v-1", "a consumer token reads its own trip")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name="providers/x/trip/1"),
                                             metadata=auth(server), retry=None),
                     code.INVALID_ARGUMENT, "GetTrip of a malformed name", field="name")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=f"{parent}/trips/nope"),
                                             metadata=auth(server), retry=None),
                     code.NOT_FOUND, "GetTrip of an unknown trip", reason="TRIP_NOT_FOUND")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name), retry=None),
                     code.UNAUTHENTICATED, "GetTrip without a token", reason="MISSING_TOKEN")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name),
                                             metadata=auth(mint("check-1", lifetime=-600)), retry=None),
                     code.UNAUTHENTICATED, "GetTrip with an expired token", reason="TOKEN_EXPIRED")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name),
                                             metadata=auth(mint("check-1", secret="another-secret-0123456789abcdef")),
                                             retry=None),
                     code.UNAUTHENTICATED, "GetTrip with a token signed by another key", reason="INVALID_SIGNATURE")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name),
                                             metadata=auth(mint("", with_trip=False)), retry=None),
                     code.UNAUTHENTICATED, "GetTrip with a token without a trip id", reason="MISSING_TRIP_ID_CLAIM")
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name),
                                             metadata=auth(mint("other-trip")), retry=None),
                     code.PERMISSION_DENIED, "GetTrip with a token for another trip", reason="TRIP_ID_MISMATCH")
        ours = subprocess.run([binary, "token", "--jwt-secret", SECRET, "--trip-id", "check-1"],
                              capture_output=True, text=True, check=True).stdout.strip()
        check(client.get_trip(request=fe.GetTripRequest(name=name), metadata=auth(ours), retry=None).name == name,
              "a token from `fleettrips token` is accepted")

        # UpdateTrip with a field mask.
        updated = client.update_trip(request=fe.UpdateTripRequest(
            name=name, trip=fe.Trip(trip_status=fe.TripStatus.ENROUTE_TO_PICKUP, number_of_passengers=9),
            update_mask=field_mask_pb2.FieldMask(paths=["trip_status"])), metadata=auth(server), retry=None)
        check(updated.trip_status == fe.TripStatus.ENROUTE_TO_PICKUP, "UpdateTrip sets the masked field")
        check(updated.number_of_passengers == 2, "UpdateTrip leaves fields outside the mask alone")
        expect_error(lambda: client.update_trip(request=fe.UpdateTripRequest(
            name=name, trip=fe.Trip(), update_mask=field_mask_pb2.FieldMask(paths=["route"])),
            metadata=auth(server), retry=None), code.INVALID_ARGUMENT, "UpdateTrip of an output-only field",
            field="update_mask")
        expect_error(lambda: client.update_trip(request=fe.UpdateTripRequest(
            name=name, trip=fe.Trip(), update_mask=field_mask_pb2.FieldMask(paths=["no_such_field"])),
            metadata=auth(server), retry=None), code.INVALID_ARGUMENT, "UpdateTrip of an unknown field",
            field="update_mask")
        expect_error(lambda: client.update_trip(request=fe.UpdateTripRequest(
            name=name, trip=fe.Trip(), update_mask=field_mask_pb2.FieldMask(paths=["trip_status"])),
            metadata=auth(mint("check-1")), retry=None), code.PERMISSION_DENIED, "UpdateTrip with a consumer token",
            reason="CONSUMER_ROLE_WRITE")

        # SearchTrips: paging, filters.
        for index in range(2, 6):
            client.create_trip(request=fe.CreateTripRequest(
                parent=parent, trip_id=f"check-{index}",
                trip=fe.Trip(trip_type=fe.TripType.SHARED, pickup_point=point(37.4, -122.1),
                             vehicle_id="v-2" if index % 2 == 0 else "v-3")),
                metadata=auth(server), retry=None)
        pager = client.search_trips(request=fe.SearchTripsRequest(parent=parent, page_size=2),
                                    metadata=auth(server), retry=None)
        pages = list(pager.pages)
        names = [trip.name for page in pages for trip in page.trips]
        check(len(pages) == 4 and [len(p.trips) for p in pages] == [2, 2, 2, 2],
              f"SearchTrips pages 8 trips 2 at a time ({[len(p.trips) for p in pages]})")
        check(names == sorted(set(names)) and name in names and all(n in names for n in emulator.simulated),
              "SearchTrips returns every trip once, in name order")
        by_vehicle = list(client.search_trips(request=fe.SearchTripsRequest(parent=parent, vehicle_id="v-2"),
                                              metadata=auth(server), retry=None))
        check(sorted(t.name for t in by_vehicle) == [f"{parent}/trips/check-2", f"{parent}/trips/check-4"],
              "SearchTrips filters by vehicle")
        expect_error(lambda: client.search_trips(request=fe.SearchTripsRequest(parent=parent),
                                                 metadata=auth(mint("check-1")), retry=None),
                     code.PERMISSION_DENIED, "SearchTrips with a consumer token", reason="CONSUMER_ROLE_SEARCH")
        expect_error(lambda: list(client.search_trips(request=fe.SearchTripsRequest(parent=parent,
                                                                                    page_token="bogus"),
                                                      metadata=auth(server), retry=None)),
                     code.INVALID_ARGUMENT, "SearchTrips with a page token it never issued", field="page_token")

        # Incremental fetch on a simulated trip: what the caller holds is left out.
        moving = emulator.simulated[0]
        full = client.get_trip(request=fe.GetTripRequest(name=moving), metadata=auth(server), retry=None)
        check(len(full.route) > 1, f"a simulated trip has a route ({len(full.route)} points)")
        check(full.current_route_segment_version and full.remaining_waypoints_route_version,
              "a simulated trip carries its versions")
        encoded = client.get_trip(request=fe.GetTripRequest(
            name=moving, route_format_type=fe.PolylineFormatType.ENCODED_POLYLINE_TYPE),
            metadata=auth(server), retry=None)
        check(encoded.current_route_segment and not encoded.route,
              "ENCODED_POLYLINE_TYPE sends current_route_segment instead of route")
        held = client.get_trip(request=fe.GetTripRequest(
            name=moving, current_route_segment_version=full.current_route_segment_version,
            current_route_segment_traffic_version=full.current_route_segment_traffic_version,
            remaining_waypoints_route_version=full.remaining_waypoints_route_version),
            metadata=auth(server), retry=None)
        raw_full, raw_held = fe.Trip.pb(full), fe.Trip.pb(held)
        check(raw_full.HasField("current_route_segment_traffic"), "a simulated trip carries its route's traffic")
        same_route = held.current_route_segment_version == full.current_route_segment_version
        check((len(held.route) == 0) == same_route,
              f"the route is left out exactly when the caller holds its version (same: {same_route})")
        same_paths = held.remaining_waypoints_route_version == full.remaining_waypoints_route_version
        check(all(not w.path_to_waypoint for w in held.remaining_waypoints) == same_paths,
              f"waypoint paths are left out exactly when the caller holds their version (same: {same_paths})")
        check(len(held.remaining_waypoints) == len(full.remaining_waypoints), "the waypoints themselves are still sent")
        same_traffic = held.current_route_segment_traffic_version == full.current_route_segment_traffic_version
        check((not raw_held.HasField("current_route_segment_traffic")) == same_traffic,
              f"traffic is left out exactly when the caller holds its version (same: {same_traffic})")
        older = client.get_trip(request=fe.GetTripRequest(
            name=moving, current_route_segment_version={"seconds": 1},
            current_route_segment_traffic_version={"seconds": 1}, remaining_waypoints_route_version={"seconds": 1}),
            metadata=auth(server), retry=None)
        check(len(older.route) > 1 and fe.Trip.pb(older).HasField("current_route_segment_traffic")
              and all(w.path_to_waypoint for w in older.remaining_waypoints),
              "a caller holding older versions gets every part")
        check(held.last_location.location.latitude != 0, "the vehicle location is always sent")

        # ReportBillableTrip, named providers/{provider}/billableTrips/{billable_trip} as the reference
        # requires (the emulator reports the trip whose id is the billable trip id), and DeleteTrip.
        billable = f"{parent}/billableTrips/check-1"
        client.report_billable_trip(request=fe.ReportBillableTripRequest(name=billable, country_code="US"),
                                    metadata=auth(server), retry=None)
        expect_error(lambda: client.report_billable_trip(request=fe.ReportBillableTripRequest(name=billable),
                                                         metadata=auth(server), retry=None),
                     code.INVALID_ARGUMENT, "ReportBillableTrip without a country code", field="country_code")
        refused = expect_error(
            lambda: client.report_billable_trip(request=fe.ReportBillableTripRequest(name=name, country_code="US"),
                                                metadata=auth(server), retry=None),
            code.INVALID_ARGUMENT, "ReportBillableTrip named as a trip", field="name")
        expected = (f'"{name}" is not a billable trip name of the form '
                    "providers/{provider}/billableTrips/{billable_trip}")
        check(refused.message == expected, f"ReportBillableTrip named as a trip: message {refused.message!r}")
        expect_error(lambda: client.report_billable_trip(
            request=fe.ReportBillableTripRequest(name=f"{parent}/billableTrips/nope", country_code="US"),
            metadata=auth(server), retry=None),
                     code.NOT_FOUND, "ReportBillableTrip of no trip", reason="TRIP_NOT_FOUND")
        expect_error(lambda: client.report_billable_trip(
            request=fe.ReportBillableTripRequest(name=billable, country_code="US"),
            metadata=auth(mint("check-1")), retry=None),
                     code.PERMISSION_DENIED, "ReportBillableTrip with a consumer token", reason="CONSUMER_ROLE_WRITE")
        expect_error(lambda: client.delete_trip(request=fe.DeleteTripRequest(name=name), metadata=auth(server),
                                                retry=None),
                     code.FAILED_PRECONDITION, "DeleteTrip of an active trip with a vehicle", reason="TRIP_ACTIVE")
        client.update_trip(request=fe.UpdateTripRequest(
            name=name, trip=fe.Trip(trip_status=fe.TripStatus.CANCELED),
            update_mask=field_mask_pb2.FieldMask(paths=["trip_status"])), metadata=auth(server), retry=None)
        client.delete_trip(request=fe.DeleteTripRequest(name=name), metadata=auth(server), retry=None)
        expect_error(lambda: client.get_trip(request=fe.GetTripRequest(name=name), metadata=auth(server),
                                             retry=None),
                     code.NOT_FOUND, "GetTrip after DeleteTrip", reason="TRIP_NOT_FOUND")
    finally:
        emulator.stop()

    limited = Emulator(binary, "--no-auth", "--qps", "2")
    try:
        calls = [lambda: limited.client.get_trip(request=fe.GetTripRequest(name=f"{parent}/trips/none"),
                                                 retry=None)] * 6
        errors = []
        for call in calls:
            try:
                call()
            except exceptions.GoogleAPICallError as error:
                errors.append(error)
        exhausted = [e for e in errors if e.grpc_status_code == grpc.StatusCode.RESOURCE_EXHAUSTED]
        check(len(exhausted) >= 1, f"a caller over --qps gets RESOURCE_EXHAUSTED ({len(exhausted)} of 6)")
        expect_error(calls[0], grpc.StatusCode.RESOURCE_EXHAUSTED, "RESOURCE_EXHAUSTED carries RetryInfo",
                     retry_info=True)
    finally:
        limited.stop()
    print(f"the emulator passed {len(CHECKS)} checks with Google's TripServiceClient")


if __name__ == "__main__":
    main()
