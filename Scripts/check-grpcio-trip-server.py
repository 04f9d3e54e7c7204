#!/usr/bin/env python3
"""Checks the grpcio TripService fixture server against its own contract, with a plain grpcio client.

    Scripts/check-grpcio-trip-server.py

Tests/FleetEngineClientTests/Fixtures/grpcio_trip_server.py is the second gRPC stack the Swift client's
tests read; this makes sure it does what its docstring promises before a Swift test relies on it. The
client side is grpcio's channel.unary_unary with the raw protobuf classes of google-maps-fleetengine (no
TripServiceClient, whose retries and wrapping would hide what the server sent). Checked: the committed
fixture JSON is what the server generates now; the `listening on` line; all six methods (paging, field
masks, errors); every error-<code> against grpcio-errors.json, byte for byte; trailers-only-<n>; slow-,
flaky- and pushback- behaviour, including that cancelled slow calls free their worker threads; the --log
lines; TLS; and shutdown on stdin EOF and on --max-seconds. Exits non-zero on the first failure.
"""

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import grpc
from google.maps.fleetengine_v1 import types as fe
from google.protobuf import empty_pb2, field_mask_pb2, json_format
from google.rpc import error_details_pb2
from google.type import latlng_pb2
from grpc_status import rpc_status

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "FleetEngineClientTests", "Fixtures")
SERVER = os.path.join(FIXTURES, "grpcio_trip_server.py")
SEED_JSON = os.path.join(FIXTURES, "grpcio-seed-trips.json")
ERRORS_JSON = os.path.join(FIXTURES, "grpcio-errors.json")
SERVICE = "/maps.fleetengine.v1.TripService/"

Trip = fe.Trip.pb()
GetTripRequest = fe.GetTripRequest.pb()
CreateTripRequest = fe.CreateTripRequest.pb()
UpdateTripRequest = fe.UpdateTripRequest.pb()
SearchTripsRequest = fe.SearchTripsRequest.pb()
SearchTripsResponse = fe.SearchTripsResponse.pb()
DeleteTripRequest = fe.DeleteTripRequest.pb()
ReportBillableTripRequest = fe.ReportBillableTripRequest.pb()
STATUS = Trip.DESCRIPTOR.fields_by_name["trip_status"].enum_type.values_by_name
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT
NOT_FOUND = grpc.StatusCode.NOT_FOUND
UNAVAILABLE = grpc.StatusCode.UNAVAILABLE

checks = 0


def check(condition, what, got=None):
    global checks
    if not condition:
        sys.exit(f"FAIL: {what}" + ("" if got is None else f"\n  got: {got!r}"))
    checks += 1


class Server:
    """One server subprocess; stdin stays a pipe so closing it is how we stop it."""

    def __init__(self, *args, env=None, stderr=subprocess.DEVNULL):
        self.process = subprocess.Popen([sys.executable, SERVER, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=stderr, env=env)
        self.first_line = self.process.stdout.readline().decode()
        match = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", self.first_line)
        check(match, "first stdout line is `listening on 127.0.0.1:PORT`", self.first_line)
        self.address = f"127.0.0.1:{match.group(1)}"

    def stop(self, timeout=5):
        """Closes stdin and returns (exit code, seconds to exit, anything else written to stdout)."""
        started = time.monotonic()
        self.process.stdin.close()
        code = self.process.wait(timeout)
        return code, time.monotonic() - started, self.process.stdout.read()


class Stub:
    def __init__(self, channel):
        def method(name, request_type, response_type):
            return channel.unary_unary(SERVICE + name, request_serializer=request_type.SerializeToString,
                                       response_deserializer=response_type.FromString)
        self.create = method("CreateTrip", CreateTripRequest, Trip)
        self.get = method("GetTrip", GetTripRequest, Trip)
        self.update = method("UpdateTrip", UpdateTripRequest, Trip)
        self.search = method("SearchTrips", SearchTripsRequest, SearchTripsResponse)
        self.delete = method("DeleteTrip", DeleteTripRequest, empty_pb2.Empty)
        self.report = method("ReportBillableTrip", ReportBillableTripRequest, empty_pb2.Empty)


def fails(call, *args, **kwargs):
    """Calls, expecting a failure; returns the grpc.RpcError (which is also the grpc.Call)."""
    try:
        call(*args, **kwargs)
    except grpc.RpcError as error:
        return error
    sys.exit(f"FAIL: expected {args} to fail")


def failure_code(call, *args, **kwargs):
    return fails(call, *args, **kwargs).code()


def trip_name(provider, trip_id):
    return f"providers/{provider}/trips/{trip_id}"


def short(trips):
    return [trip.name.rsplit("/", 1)[1] for trip in trips]


def get(stub, provider, trip_id, **kwargs):
    return stub.get(GetTripRequest(name=trip_name(provider, trip_id)), **kwargs)


def check_fixtures_are_current():
    with tempfile.TemporaryDirectory() as scratch:
        seed, errors = os.path.join(scratch, "seed.json"), os.path.join(scratch, "errors.json")
        subprocess.run([sys.executable, SERVER, "--write-seed-json", seed, "--write-errors-json", errors],
                       check=True)
        for made, committed in ((seed, SEED_JSON), (errors, ERRORS_JSON)):
            with open(made, "rb") as a, open(committed, "rb") as b:
                check(a.read() == b.read(), f"{os.path.basename(committed)} is what the server generates now")


def check_seed(stub, seed):
    for trip_id in ("trip-small", "trip-large"):
        trip = get(stub, "test-project", trip_id)
        expected = json_format.Parse(json.dumps(seed[trip_id]), Trip())
        check(trip.SerializeToString() == expected.SerializeToString(), f"{trip_id} bytes equal the seed JSON's")
        check(json.loads(json_format.MessageToJson(trip)) == seed[trip_id], f"{trip_id} JSON equals the seed JSON")
    large = get(stub, "test-project", "trip-large").ByteSize()
    check(16_000 <= large <= 20_480, "trip-large serializes to 16-20 KB", large)
    print(f"trip-large: {large} bytes serialized")


def check_methods(stub):
    dropoff = fe.TerminalLocation.pb()(point=latlng_pb2.LatLng(latitude=48.8566, longitude=2.3522))
    created = stub.create(CreateTripRequest(parent="providers/check", trip_id="t1", trip=Trip(
        vehicle_id="v1", trip_status=STATUS["NEW"].number, number_of_passengers=2, dropoff_point=dropoff)))
    check(created.name == trip_name("check", "t1") and created.number_of_passengers == 2,
          "CreateTrip answers the trip", created)
    check(failure_code(stub.create, CreateTripRequest(parent="providers/check", trip_id="t1"))
          == grpc.StatusCode.ALREADY_EXISTS, "CreateTrip of an existing name is ALREADY_EXISTS")
    check(failure_code(stub.create, CreateTripRequest(parent="check", trip_id="t2")) == INVALID_ARGUMENT,
          "CreateTrip with a bad parent is INVALID_ARGUMENT")
    check(get(stub, "check", "t1") == created, "GetTrip answers the created trip")
    check(failure_code(stub.get, GetTripRequest(name="trips/t1")) == INVALID_ARGUMENT,
          "GetTrip with a bad name is INVALID_ARGUMENT")
    check(failure_code(get, stub, "check", "missing") == NOT_FOUND, "GetTrip of a missing trip is NOT_FOUND")

    # Masked fields take the request's values; a masked field unset in the request is cleared.
    updated = stub.update(UpdateTripRequest(
        name=trip_name("check", "t1"),
        trip=Trip(trip_status=STATUS["ENROUTE_TO_PICKUP"].number, vehicle_id="ignored"),
        update_mask=field_mask_pb2.FieldMask(paths=["trip_status", "dropoff_point"])))
    check(updated.trip_status == STATUS["ENROUTE_TO_PICKUP"].number and not updated.HasField("dropoff_point")
          and updated.vehicle_id == "v1" and updated.number_of_passengers == 2 and updated.name == created.name,
          "UpdateTrip replaces exactly the masked fields", updated)
    check(get(stub, "check", "t1") == updated, "UpdateTrip is stored")
    for mask, what in ((None, "no mask"), (["no_such_field"], "an unknown path")):
        request = UpdateTripRequest(name=trip_name("check", "t1"), trip=Trip())
        if mask:
            request.update_mask.paths.extend(mask)
        check(failure_code(stub.update, request) == INVALID_ARGUMENT, f"UpdateTrip with {what} is INVALID_ARGUMENT")
    missing = UpdateTripRequest(name=trip_name("check", "nope"), update_mask=field_mask_pb2.FieldMask(paths=["view"]))
    check(failure_code(stub.update, missing) == NOT_FOUND, "UpdateTrip of a missing trip is NOT_FOUND")

    # Paging: five trips of one vehicle (one COMPLETE), pages of two, in name order.
    for i in range(5):
        trip = Trip(vehicle_id="pager", trip_status=STATUS["COMPLETE" if i == 2 else "NEW"].number)
        stub.create(CreateTripRequest(parent="providers/check", trip_id=f"page-{i}", trip=trip))
    stub.create(CreateTripRequest(parent="providers/other", trip_id="page-x", trip=Trip(vehicle_id="pager")))
    pages, token = [], ""
    while True:
        response = stub.search(SearchTripsRequest(parent="providers/check", vehicle_id="pager", page_size=2,
                                                  page_token=token))
        pages.append(short(response.trips))
        token = response.next_page_token
        if not token:
            break
    check(pages == [["page-0", "page-1"], ["page-2", "page-3"], ["page-4"]],
          "SearchTrips pages by page_size in name order", pages)
    active = stub.search(SearchTripsRequest(parent="providers/check", vehicle_id="pager", active_trips_only=True))
    check(short(active.trips) == ["page-0", "page-1", "page-3", "page-4"] and active.next_page_token == "",
          "SearchTrips active_trips_only drops COMPLETE trips", active)
    seeded = stub.search(SearchTripsRequest(parent="providers/test-project", vehicle_id="vehicle-1"))
    check(short(seeded.trips) == ["trip-large", "trip-small"] and seeded.trips[0].name.startswith("providers/test-"),
          "SearchTrips finds the seeded trips of vehicle-1", short(seeded.trips))
    check(seeded.trips[1] == get(stub, "test-project", "trip-small"), "SearchTrips answers whole trips")
    for request, what in (
            (SearchTripsRequest(parent="providers/check"), "no vehicle_id"),
            (SearchTripsRequest(parent="providers/check", vehicle_id="pager", page_token="bogus"), "a bad page_token"),
            (SearchTripsRequest(parent="providers/check", vehicle_id="pager", page_size=-1), "a negative page_size")):
        check(failure_code(stub.search, request) == INVALID_ARGUMENT, f"SearchTrips with {what} is INVALID_ARGUMENT")

    delete = DeleteTripRequest(name=trip_name("check", "t1"))
    check(stub.delete(delete) == empty_pb2.Empty(), "DeleteTrip answers Empty")
    check(failure_code(get, stub, "check", "t1") == NOT_FOUND, "a deleted trip is gone")
    check(failure_code(stub.delete, delete) == NOT_FOUND, "DeleteTrip of a missing trip is NOT_FOUND")
    report = ReportBillableTripRequest(name=trip_name("check", "t1"), country_code="FR")
    check(stub.report(report) == empty_pb2.Empty(), "ReportBillableTrip answers Empty")
    report.country_code = ""
    check(failure_code(stub.report, report) == INVALID_ARGUMENT,
          "ReportBillableTrip without country_code is INVALID_ARGUMENT")


def check_errors(stub, errors):
    check(len(errors) == 16, "grpcio-errors.json has the 16 non-OK codes", list(errors))
    for trip_id, expected in errors.items():
        name = trip_name("test-project", trip_id)
        error = fails(get, stub, "test-project", trip_id)
        check(error.code().value[0] == expected["code"] and error.code().name == expected["codeName"],
              f"{trip_id} code", error.code())
        check(error.details() == expected["message"] == f"{expected['codeName']} for {name}",
              f"{trip_id} message", error.details())
        trailers = [(k, v) for k, v in error.trailing_metadata() if k == "grpc-status-details-bin"]
        check(len(trailers) == 1 and base64.b64encode(trailers[0][1]).decode() == expected["statusDetailsBinBase64"],
              f"{trip_id} grpc-status-details-bin equals the fixture's bytes")
        status = rpc_status.from_call(error)  # also checks code and message agree with the trailers
        check([json.loads(json_format.MessageToJson(d)) for d in status.details] == expected["details"],
              f"{trip_id} details")
        info = error_details_pb2.ErrorInfo()
        check(status.details[0].Unpack(info) and info.reason == expected["codeName"]
              and info.domain == "fleetengine.googleapis.com" and dict(info.metadata) == {"trip": name},
              f"{trip_id} starts with its ErrorInfo", info)
    # The extras, spelled out independently of the fixture.
    types = {trip_id: [d["@type"].rsplit(".", 1)[1] for d in e["details"]] for trip_id, e in errors.items()}
    check(types["error-invalid-argument"] == ["ErrorInfo", "BadRequest"], "invalid-argument details")
    check(types["error-resource-exhausted"] == ["ErrorInfo", "RetryInfo", "QuotaFailure"], "resource-exhausted details")
    check(types["error-unavailable"] == ["ErrorInfo", "RetryInfo"], "unavailable details")
    check(types["error-permission-denied"] == ["ErrorInfo", "ResourceInfo"], "permission-denied details")
    check(types["error-not-found"] == ["ErrorInfo", "LocalizedMessage", "Help"], "not-found details")
    check(types["error-internal"] == ["ErrorInfo", "DebugInfo", "RequestInfo"], "internal details")
    check(all(len(t) == 1 for trip_id, t in types.items() if trip_id not in (
        "error-invalid-argument", "error-resource-exhausted", "error-unavailable", "error-permission-denied",
        "error-not-found", "error-internal")), "other codes carry only ErrorInfo", types)
    details = {trip_id: e["details"] for trip_id, e in errors.items()}
    check(details["error-resource-exhausted"][1]["retryDelay"] == "1.500s", "resource-exhausted RetryInfo is 1.5 s")
    check(details["error-unavailable"][1]["retryDelay"] == "0.250s", "unavailable RetryInfo is 0.25 s")
    check(details["error-not-found"][1]["locale"] == "en-US", "not-found LocalizedMessage is en-US")
    check(len(details["error-invalid-argument"][1]["fieldViolations"]) == 1, "one field violation")
    # Another provider's error names the trip it was asked for.
    error = fails(get, stub, "elsewhere", "error-unavailable")
    check(error.details() == "UNAVAILABLE for providers/elsewhere/trips/error-unavailable",
          "error message names the trip", error.details())
    bogus = fails(get, stub, "test-project", "error-bogus")
    check(bogus.code() == INVALID_ARGUMENT and not bogus.trailing_metadata(),
          "an unknown error code name is a plain INVALID_ARGUMENT")

    for number in range(1, 17):
        trip_id = f"trailers-only-{number}"
        error = fails(get, stub, "test-project", trip_id)
        check(error.code().value[0] == number
              and error.details() == f"{error.code().name} for {trip_name('test-project', trip_id)}"
              and not error.trailing_metadata() and not error.initial_metadata(), f"{trip_id} is bare", error)
    for bad in ("trailers-only-0", "trailers-only-17", "trailers-only-x"):
        check(failure_code(get, stub, "test-project", bad) == INVALID_ARGUMENT, f"{bad} is INVALID_ARGUMENT")


def check_resilience(stub, small):
    started = time.monotonic()
    check(get(stub, "test-project", "slow-300") == small, "slow-300 answers trip-small's content")
    check(time.monotonic() - started >= 0.3, "slow-300 waits 300 ms")
    started = time.monotonic()
    check(failure_code(get, stub, "test-project", "slow-5000", timeout=0.2) == grpc.StatusCode.DEADLINE_EXCEEDED,
          "slow-5000 with a 0.2 s deadline is DEADLINE_EXCEEDED")
    check(time.monotonic() - started < 1, "the deadline ends the call, not the sleep")

    # More abandoned slow calls than the server has workers: if they kept sleeping, the next call would
    # queue behind them for 30 s. Half end by deadline, half by cancellation.
    slow = GetTripRequest(name=trip_name("test-project", "slow-30000"))
    calls = [stub.get.future(slow, timeout=0.5 if i % 2 else None) for i in range(80)]
    time.sleep(0.5)
    for call in calls[::2]:
        call.cancel()
    for call in calls[::2]:
        check(call.cancelled(), "cancelled slow calls are cancelled")
    for call in calls[1::2]:
        check(call.exception(timeout=5).code() == grpc.StatusCode.DEADLINE_EXCEEDED, "slow calls end by their deadline")
    started = time.monotonic()
    try:
        answer = get(stub, "test-project", "trip-small", timeout=3)
    except grpc.RpcError as error:
        answer = error
    check(answer == small, "the server still answers after 80 abandoned slow calls", answer)
    check(time.monotonic() - started < 1, "abandoned slow calls gave their worker threads back",
          time.monotonic() - started)

    for provider in ("test-project", "other"):  # counters are per name
        for attempt in (1, 2, 3):
            error = fails(get, stub, provider, "flaky-3")
            check(error.code() == UNAVAILABLE
                  and error.details() == f"UNAVAILABLE (flaky {attempt} of 3) for {trip_name(provider, 'flaky-3')}",
                  f"flaky-3 call {attempt} under {provider} fails", error.details())
        check(get(stub, provider, "flaky-3") == small and get(stub, provider, "flaky-3") == small,
              "flaky-3 then succeeds")
    check(get(stub, "test-project", "flaky-0") == small, "flaky-0 never fails")

    error = fails(get, stub, "test-project", "pushback-150")
    check(error.code() == UNAVAILABLE and tuple(error.trailing_metadata()) == (("grpc-retry-pushback-ms", "150"),),
          "pushback-150 fails once with the pushback trailer", error.trailing_metadata())
    check(get(stub, "test-project", "pushback-150") == small, "pushback-150 then succeeds")


def check_log():
    header = fe.RequestHeader.pb()(language_code="fr-CA", region_code="CA", sdk_version="1.2.3")
    request = GetTripRequest(name=trip_name("test-project", "trip-small"), header=header)
    metadata = (("authorization", "Bearer test-token"),
                ("x-goog-request-params", "name=providers%2Ftest-project%2Ftrips%2Ftrip-small"),
                ("trace-bin", b"\x00\xff\x10"))
    with tempfile.TemporaryDirectory() as scratch:
        log_path = os.path.join(scratch, "calls.jsonl")
        server = Server("--log", log_path)
        with grpc.insecure_channel(server.address) as channel:
            stub = Stub(channel)
            stub.get(request, metadata=metadata, timeout=7)
            stub.search(SearchTripsRequest(parent="providers/test-project", vehicle_id="vehicle-1", page_size=1))
            fails(get, stub, "test-project", "error-not-found")
        code, _, rest = server.stop()
        check(code == 0 and rest == b"", "the logging server exits cleanly and prints nothing more", rest)
        with open(log_path) as f:
            lines = [json.loads(line) for line in f]
    check(len(lines) == 3, "one log line per call", lines)
    first = lines[0]
    check(first["method"] == SERVICE + "GetTrip", "log method path", first["method"])
    pairs = [(m["key"], m["value"]) for m in first["metadata"]]
    for key, value in metadata:
        expected = base64.b64encode(value).decode() if key.endswith("-bin") else value
        check((key, expected) in pairs, f"log has metadata {key}", pairs)
    check(any(key == "user-agent" for key, _ in pairs), "log keeps user-agent")
    # grpcio's C core is free to round the timeout it sends upwards (7.0085 s was seen under load),
    # so a little over 7 s is still the deadline arriving as sent.
    check(6 < first["timeRemainingSeconds"] <= 7.1, "log has the remaining deadline", first["timeRemainingSeconds"])
    check(first["request"] == json.loads(json_format.MessageToJson(request)), "log has the request as proto3 JSON",
          first["request"])
    check(first["request"]["header"] == {"languageCode": "fr-CA", "regionCode": "CA", "sdkVersion": "1.2.3"},
          "log has the request's header")
    check(lines[1]["method"] == SERVICE + "SearchTrips" and lines[1]["timeRemainingSeconds"] is None
          and lines[1]["request"] == {"parent": "providers/test-project", "vehicleId": "vehicle-1", "pageSize": 1},
          "a call without deadline logs null", lines[1])
    check(lines[2]["request"] == {"name": trip_name("test-project", "error-not-found")}, "failing calls are logged too")


def check_trailers_only_on_the_wire():
    # grpcio hides the framing from its client, so ask the server's C core what it wrote.
    env = dict(os.environ, GRPC_TRACE="http", GRPC_VERBOSITY="debug")
    with tempfile.TemporaryFile() as trace:
        server = Server(env=env, stderr=trace)
        with grpc.insecure_channel(server.address) as channel:
            fails(get, Stub(channel), "test-project", "trailers-only-14")
        server.stop()
        trace.seek(0)
        text = trace.read().decode(errors="replace")
    if "(Trailers-Only)" in text:
        check(True, "trailers-only-14 went out as Trailers-Only")
        print("grpc core trace confirms trailers-only-14 went out as Trailers-Only")
    else:
        print("note: this grpcio's trace does not say whether it sent Trailers-Only; not checked")


def check_tls(small):
    if not shutil.which("openssl"):
        print("note: no openssl; TLS not checked")
        return
    with tempfile.TemporaryDirectory() as scratch:
        cert, key = os.path.join(scratch, "cert.pem"), os.path.join(scratch, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        server = Server("--tls-cert", cert, "--tls-key", key)
        with open(cert, "rb") as f:
            credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
        with grpc.secure_channel(server.address, credentials) as channel:
            check(get(Stub(channel), "test-project", "trip-small", timeout=5) == small, "GetTrip over TLS")
        check(server.stop()[0] == 0, "TLS server exits on stdin EOF")
        half = subprocess.run([sys.executable, SERVER, "--tls-cert", cert], stdin=subprocess.DEVNULL,
                              capture_output=True)
        check(half.returncode != 0 and half.stdout == b"", "--tls-cert without --tls-key is refused")


def main():
    check_fixtures_are_current()
    with open(SEED_JSON) as f:
        seed = json.load(f)
    with open(ERRORS_JSON) as f:
        errors = json.load(f)
    small = json_format.Parse(json.dumps(seed["trip-small"]), Trip())

    server = Server()
    with grpc.insecure_channel(server.address) as channel:
        stub = Stub(channel)
        check_seed(stub, seed)
        check_methods(stub)
        check_errors(stub, errors)
        check_resilience(stub, small)
        # Calls still in flight must not hold the process up once stdin closes.
        slow = GetTripRequest(name=trip_name("test-project", "slow-60000"))
        pending = [stub.get.future(slow) for _ in range(3)]
        time.sleep(0.2)
        code, seconds, rest = server.stop()
        check(all(call.exception(timeout=5) is not None for call in pending), "in-flight calls end with the server")
    check(code == 0 and seconds < 3, "the server exits promptly with 0 on stdin EOF, even with calls in flight",
          (code, seconds))
    check(rest == b"", "the server prints nothing after its first line", rest)

    check_log()
    check_trailers_only_on_the_wire()
    check_tls(small)

    started = time.monotonic()
    timed = Server("--max-seconds", "1")
    check(timed.process.wait(5) == 0 and time.monotonic() - started < 4, "--max-seconds 1 ends the server by itself")
    timed.process.stdin.close()
    print(f"ok: {checks} checks")


if __name__ == "__main__":
    main()
