#!/usr/bin/env python3
"""GetTrip in a closed loop from a Python client, printing one JSON line as ClientLoad does.

    .venv/bin/python3 Benchmarks/Scripts/python-client-load.py --client grpcio|google-python
        --concurrency N --seconds S --port P [--trip NAME] [--warm-up-seconds W]

Two Python clients, as yardsticks for ClientLoad's figures on the same machine (the client issue
quotes both, measured on its own machine):

- `grpcio`: a bare grpcio (C core) asyncio channel calling TripService/GetTrip, with the protobuf
  classes of Google's `google-maps-fleetengine` package (`Trip.pb()`) for the messages;
- `google-python`: Google's generated `TripServiceAsyncClient` from that package, on a grpcio asyncio
  channel (proto-plus messages, its own retry and routing-header handling).

Both send what ClientLoad's callers send: the same RequestHeader fields, the 761-character bearer
token shaped like an RS256 JWT (built here the same way as Benchmarks/Sources/ClientComparison/
RequestMetadata.swift builds it), the routing header, a 15 s deadline. N coroutines each call, wait
and call again; after a warm-up, the measured window runs S seconds: latencies per call, and the
process's CPU time (all its threads: the asyncio loop and grpcio's C-core threads). Allocations are
not counted (the field is null). Run by Benchmarks/Scripts/client-load.py; the server is its.
"""

import argparse
import asyncio
import base64
import json
import sys
import time

import grpc
from google.maps.fleetengine_v1 import GetTripRequest, Trip, TripServiceAsyncClient
from google.maps.fleetengine_v1.services.trip_service.transports import TripServiceGrpcAsyncIOTransport

GET_TRIP_PATH = "/maps.fleetengine.v1.TripService/GetTrip"
DEADLINE_SECONDS = 15.0


def base64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def bearer_token():
    """The filler JWT ClientLoad's callers send: a key id header, service-account claims, 256 bytes."""
    header = '{"alg":"RS256","typ":"JWT","kid":"0123456789abcdef0123456789abcdef01234567"}'
    account = "fleet-engine-server@my-project.iam.gserviceaccount.com"
    claims = (f'{{"iss":"{account}","sub":"{account}","aud":"https://fleetengine.googleapis.com/",'
              '"iat":1700000000,"exp":4102444800,"authorization":{"tripid":"*"}}')
    signature = bytes((index * 151 + 7) & 0xFF for index in range(256))
    return ".".join(base64url(part) for part in (header.encode(), claims.encode(), signature))


def routing_header(trip_name):
    provider = trip_name.split("/")[1] if trip_name.count("/") >= 1 else ""
    return "provider_id=providers%2F" + provider


def request_for(trip_name):
    request = GetTripRequest(name=trip_name)
    request.header.language_code = "en-US"
    request.header.sdk_version = "swift-fleet-engine/0.1.0"
    request.header.os_version = "Linux"
    return request


def bare_grpcio_caller(channel, trip_name):
    get_trip = channel.unary_unary(
        GET_TRIP_PATH,
        request_serializer=lambda message: message.SerializeToString(),
        response_deserializer=Trip.pb().FromString,
    )
    request = GetTripRequest.pb(request_for(trip_name))
    metadata = (("x-goog-request-params", routing_header(trip_name)),
                ("authorization", "Bearer " + bearer_token()))

    async def call():
        response = await get_trip(request, metadata=metadata, timeout=DEADLINE_SECONDS)
        return response.name

    return call


def google_client_caller(channel, trip_name):
    client = TripServiceAsyncClient(transport=TripServiceGrpcAsyncIOTransport(channel=channel))
    request = request_for(trip_name)
    # The client adds the routing header (x-goog-request-params) itself.
    metadata = (("authorization", "Bearer " + bearer_token()),)

    async def call():
        response = await client.get_trip(request=request, metadata=metadata, timeout=DEADLINE_SECONDS)
        return response.name

    return call


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


async def closed_loop(call, concurrency, warm_up_seconds, seconds):
    state = {"recording": False, "stop": False}
    latencies = []

    async def worker():
        while not state["stop"]:
            started = time.perf_counter()
            await call()
            if state["recording"]:
                latencies.append(time.perf_counter() - started)

    workers = [asyncio.create_task(worker()) for _ in range(concurrency)]
    try:
        await asyncio.sleep(warm_up_seconds)
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        state["recording"] = True
        await asyncio.sleep(seconds)
        state["recording"] = False
        cpu, wall = time.process_time() - cpu_before, time.perf_counter() - wall_before
        calls = len(latencies)
    finally:
        state["stop"] = True
        await asyncio.gather(*workers, return_exceptions=True)
    return calls, wall, cpu, sorted(latencies)


async def main_async(arguments):
    async with grpc.aio.insecure_channel(f"127.0.0.1:{arguments.port}") as channel:
        make_caller = bare_grpcio_caller if arguments.client == "grpcio" else google_client_caller
        call = make_caller(channel, arguments.trip)
        answered = await call()
        if answered != arguments.trip:
            raise SystemExit(f"GetTrip of {arguments.trip} answered the trip {answered}")
        calls, wall, cpu, latencies = await closed_loop(
            call, arguments.concurrency, arguments.warm_up_seconds, arguments.seconds)
    return {
        "client": arguments.client,
        "concurrency": arguments.concurrency,
        "seconds": arguments.seconds,
        "calls": calls,
        "callsPerSecond": round(calls / wall, 1),
        "p50Micros": round(percentile(latencies, 0.5) * 1e6, 1) if latencies else None,
        "p99Micros": round(percentile(latencies, 0.99) * 1e6, 1) if latencies else None,
        "cpuMicrosPerCall": round(cpu * 1e6 / max(1, calls), 1),
        "mallocsPerCall": None,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", choices=["grpcio", "google-python"], required=True)
    parser.add_argument("--concurrency", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--trip", default="providers/test-project/trips/trip-large")
    parser.add_argument("--warm-up-seconds", type=float, default=1.0)
    arguments = parser.parse_args()
    if arguments.concurrency < 1 or arguments.seconds <= 0 or arguments.warm_up_seconds < 0:
        raise SystemExit("--concurrency must be at least 1, --seconds above 0, --warm-up-seconds not negative")
    if not 1 <= arguments.port <= 65535:
        raise SystemExit("--port must be a TCP port")
    print(json.dumps(asyncio.run(main_async(arguments))), flush=True)


if __name__ == "__main__":
    sys.exit(main())
