#!/usr/bin/env python3
"""Records real gRPC traffic for the capture decoder's tests, made entirely by code we did not write.

Starts the grpcio TripService of the client tests (Tests/FleetEngineClientTests/Fixtures/
grpcio_trip_server.py: grpcio's C core with Google's published google-maps-fleetengine types),
captures the loopback traffic to it with tcpdump, and calls every TripService method with Google's
own TripServiceClient (google-maps-fleetengine over grpcio), including failures whose statuses carry
details. Writes into Tests/FleetEngineCaptureTests/Fixtures/:

    grpcio-tripservice.pcap       the capture, as tcpdump wrote it (Linux cooked or Ethernet on lo)
    grpcio-tripservice.pcapng     the same packets converted by editcap (-F pcapng)
    grpcio-tripservice.expected.jsonl
                                  one JSON object per call, in order: "method" (the :path),
                                  "request" (json_format.MessageToDict of the raw protobuf sent,
                                  camelCase, defaults omitted), and either "response" (the same for
                                  what came back) or "code" (the canonical status name of the failure)

With --emulator BINARY it records the same way a session of Google's client with our emulator
(`BINARY serve --no-auth`: grpc-swift-2's server and our codec on the other end), into
emulator-tripservice.pcapng (converted by editcap) and emulator-tripservice.expected.jsonl.

Run as root (tcpdump needs it), from the repository root, with the project's virtualenv:
    .venv/bin/python3 Scripts/make-capture-fixtures.py
    .venv/bin/python3 Scripts/make-capture-fixtures.py --emulator .build/release/fleettrips
"""

import json
import os
import signal
import subprocess
import sys
import time

import grpc
from google.api_core import exceptions
from google.maps import fleetengine_v1 as fe
from google.maps.fleetengine_v1.services.trip_service.transports import TripServiceGrpcTransport
from google.protobuf import field_mask_pb2, json_format
from google.type import latlng_pb2

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(REPOSITORY, "Tests", "FleetEngineClientTests", "Fixtures", "grpcio_trip_server.py")
FIXTURES = os.path.join(REPOSITORY, "Tests", "FleetEngineCaptureTests", "Fixtures")
PROVIDER = "providers/test-project"
SERVICE = "/maps.fleetengine.v1.TripService/"


def as_dict(message):
    return json_format.MessageToDict(type(message).pb(message))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--emulator":
        record_emulator(sys.argv[2])
        return
    server = subprocess.Popen([sys.executable, SERVER, "--port", "0"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    address = server.stdout.readline().strip()[len("listening on "):]
    port = address.rsplit(":", 1)[1]
    pcap = os.path.join(FIXTURES, "grpcio-tripservice.pcap")
    tcpdump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, f"tcp port {port}"],
                               stderr=subprocess.PIPE)
    # tcpdump says "listening on lo" once it captures.
    tcpdump.stderr.readline()
    time.sleep(0.5)
    expected = []

    channel = grpc.insecure_channel(address)
    client = fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=channel))

    def call(method, request):
        entry = {"method": SERVICE + method, "request": as_dict(request)}
        function = {"GetTrip": client.get_trip, "CreateTrip": client.create_trip,
                    "UpdateTrip": client.update_trip, "DeleteTrip": client.delete_trip,
                    "ReportBillableTrip": client.report_billable_trip}[method]
        try:
            response = function(request=request)
            entry["response"] = as_dict(response) if response is not None else {}
        except exceptions.GoogleAPICallError as error:
            entry["code"] = error.grpc_status_code.name
        expected.append(entry)

    call("GetTrip", fe.GetTripRequest(name=f"{PROVIDER}/trips/trip-small"))
    call("GetTrip", fe.GetTripRequest(name=f"{PROVIDER}/trips/trip-large"))
    call("GetTrip", fe.GetTripRequest(name=f"{PROVIDER}/trips/error-not-found"))
    call("GetTrip", fe.GetTripRequest(name=f"{PROVIDER}/trips/error-invalid-argument"))
    trip = fe.Trip(trip_type=fe.TripType.EXCLUSIVE, number_of_passengers=2,
                   pickup_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=37.42, longitude=-122.08)),
                   dropoff_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=37.43, longitude=-122.09)))
    call("CreateTrip", fe.CreateTripRequest(parent=PROVIDER, trip_id="captured", trip=trip))
    call("UpdateTrip", fe.UpdateTripRequest(name=f"{PROVIDER}/trips/captured",
                                            trip=fe.Trip(number_of_passengers=3),
                                            update_mask=field_mask_pb2.FieldMask(paths=["number_of_passengers"])))
    search = fe.SearchTripsRequest(parent=PROVIDER, vehicle_id="vehicle-1", page_size=5)
    response = client.search_trips(request=search)
    expected.append({"method": SERVICE + "SearchTrips", "request": as_dict(search),
                     "response": json_format.MessageToDict(fe.SearchTripsResponse.pb(response._response))})
    call("ReportBillableTrip", fe.ReportBillableTripRequest(name=f"{PROVIDER}/trips/captured", country_code="US"))
    call("DeleteTrip", fe.DeleteTripRequest(name=f"{PROVIDER}/trips/captured"))
    call("GetTrip", fe.GetTripRequest(name=f"{PROVIDER}/trips/captured"))
    channel.close()

    time.sleep(0.5)
    tcpdump.send_signal(signal.SIGINT)
    tcpdump.wait(timeout=10)
    server.stdin.close()
    server.wait(timeout=10)
    subprocess.run(["editcap", "-F", "pcapng", pcap, os.path.join(FIXTURES, "grpcio-tripservice.pcapng")],
                   check=True)
    with open(os.path.join(FIXTURES, "grpcio-tripservice.expected.jsonl"), "w") as output:
        for entry in expected:
            output.write(json.dumps(entry, sort_keys=True) + "\n")
    print(f"wrote {len(expected)} calls to {FIXTURES}")


def record_emulator(binary):
    emulator = subprocess.Popen([binary, "serve", "--port", "0", "--no-auth"], stdout=subprocess.PIPE, text=True)
    address = emulator.stdout.readline().strip()[len("listening on "):]
    port = address.rsplit(":", 1)[1]
    pcap = "/tmp/emulator-tripservice.pcap"
    tcpdump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, f"tcp port {port}"],
                               stderr=subprocess.PIPE)
    tcpdump.stderr.readline()
    time.sleep(0.5)
    provider = "providers/emulator-project"
    expected = []
    channel = grpc.insecure_channel(address)
    client = fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=channel))

    def call(method, function, request):
        entry = {"method": SERVICE + method, "request": as_dict(request)}
        try:
            response = function(request=request)
            if method == "SearchTrips":
                entry["response"] = json_format.MessageToDict(fe.SearchTripsResponse.pb(response._response))
            else:
                entry["response"] = as_dict(response) if response is not None else {}
        except exceptions.GoogleAPICallError as error:
            entry["code"] = error.grpc_status_code.name
        expected.append(entry)

    trip = fe.Trip(trip_type=fe.TripType.SHARED, number_of_passengers=3, vehicle_id="vehicle-9",
                   pickup_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=52.52, longitude=13.405)),
                   dropoff_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=52.5163, longitude=13.3777)))
    call("CreateTrip", client.create_trip, fe.CreateTripRequest(parent=provider, trip_id="captured-1", trip=trip))
    call("GetTrip", client.get_trip, fe.GetTripRequest(name=f"{provider}/trips/captured-1"))
    call("UpdateTrip", client.update_trip,
         fe.UpdateTripRequest(name=f"{provider}/trips/captured-1", trip=fe.Trip(number_of_passengers=4),
                              update_mask=field_mask_pb2.FieldMask(paths=["number_of_passengers"])))
    call("SearchTrips", client.search_trips, fe.SearchTripsRequest(parent=provider, vehicle_id="vehicle-9"))
    call("GetTrip", client.get_trip, fe.GetTripRequest(name=f"{provider}/trips/missing"))
    call("CreateTrip", client.create_trip, fe.CreateTripRequest(parent=provider, trip_id="captured-1", trip=trip))
    call("DeleteTrip", client.delete_trip, fe.DeleteTripRequest(name=f"{provider}/trips/captured-1"))
    channel.close()
    time.sleep(0.5)
    tcpdump.send_signal(signal.SIGINT)
    tcpdump.wait(timeout=10)
    emulator.terminate()
    emulator.wait(timeout=20)
    subprocess.run(["editcap", "-F", "pcapng", pcap, os.path.join(FIXTURES, "emulator-tripservice.pcapng")],
                   check=True)
    with open(os.path.join(FIXTURES, "emulator-tripservice.expected.jsonl"), "w") as output:
        for entry in expected:
            output.write(json.dumps(entry, sort_keys=True) + "\n")
    print(f"wrote {len(expected)} emulator calls to {FIXTURES}")


if __name__ == "__main__":
    main()
