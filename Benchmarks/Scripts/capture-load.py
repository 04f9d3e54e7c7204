#!/usr/bin/env python3
"""Decoding a capture of ~20,000 GetTrip calls: `fleettrips capture` against tshark.

    .venv/bin/python3 Benchmarks/Scripts/capture-load.py make  [--output FILE] [--calls N] [--route-points P] [--tls]
    .venv/bin/python3 Benchmarks/Scripts/capture-load.py run   [--capture FILE] [--fleettrips BINARY]
                                                               [--json-prefix-mb M] [--rounds R]
                                                               [--keylog-file KEYS] [--plaintext FILE]
    .venv/bin/python3 Benchmarks/Scripts/capture-load.py check [--capture FILE] [--every K] [--keylog-file KEYS]

Run as root (tcpdump), from anywhere; FILE defaults to /tmp/fleet-capture-20k.pcap (~370 MB: do not
commit it).

make    Starts the grpcio TripService of the client tests
        (Tests/FleetEngineClientTests/Fixtures/grpcio_trip_server.py) on 127.0.0.1, starts
        `tcpdump -i lo -B 65536 -U -w FILE "tcp port PORT"`, then runs the load generator
        (Benchmarks/.build/release/ClientLoad --client ours --concurrency 16 ...) against it, GetTrip
        of providers/test-project/trips/trip-large (~18 KB), as many times as it takes to reach N calls
        (20,000 by default), stops tcpdump with SIGINT and the server, and fails unless tcpdump
        reports 0 packets dropped by the kernel.
        With --route-points P the trip fetched is providers/test-project/trips/trip-long-route instead:
        trip-small's fields and a route of P points (the server fixture's zig-zag path), created with
        CreateTrip before tcpdump starts. 950 points make a ~19 KB trip that is nearly all route, whose
        JSON is mostly printed doubles: the long-route capture of BENCHMARKS.md is
          make --output /tmp/fleet-capture-long-route.pcap --calls 2000 --route-points 950
        With --tls the server speaks TLS with the client tests' certificate
        (Tests/FleetEngineClientTests/Fixtures/tls/test-server-cert.pem, issued to localhost), and
        ClientLoad trusts it (--tls-ca, --tls-server-name localhost) and writes the secrets of its
        connections to the key log FILE.keys (--keylog-file; the file is made anew), which `run` and
        `check` take as --keylog-file FILE.keys:
          make --tls --output /tmp/fleet-capture-20k-tls.pcap

run     Times, on the same file, one after the other (R rounds; the load average is printed before each):
          ours           fleettrips capture FILE > /dev/null
          tshark fields  tshark -r FILE -d tcp.port==PORT,http2 <protobuf preferences> -Y grpc
                         -T fields -e frame.number -e grpc.message_length -e <Trip.name> -e <Trip.trip_status>
          tshark json    tshark ... -T json (every field of every frame), on a prefix of the capture
                         (the first packets up to M MB, 25 by default, cut with editcap), since it reads
                         ~0.6 MB/s.
        The protobuf preferences give tshark the same .proto files as ours (Protos/, loaded in full) and
        the Google well-known types of libprotobuf-dev (/usr/include, for imports), with the fields as
        filterable `pbf.` fields:
          -o 'uat:protobuf_search_paths:"Protos","TRUE"' -o 'uat:protobuf_search_paths:"/usr/include","FALSE"'
          -o protobuf.preload_protos:TRUE -o protobuf.pbf_as_hf:TRUE
        With --keylog-file KEYS (a TLS capture): ours is `fleettrips capture FILE --keylog-file KEYS`, and
        tshark decodes the port as TLS (-d tcp.port==PORT,tls, ALPN h2 then gives HTTP/2) with
        -o tls.keylog_file:KEYS.
        With --plaintext FILE2 (the plaintext capture of the same calls, made by `make` without --tls):
        each round also times `fleettrips capture FILE2`, and the ratio of our TLS speed to our
        plaintext speed (in messages per second, and in capture bytes per second) is printed.
        Wall time and CPU time (user + system of the child, from getrusage(RUSAGE_CHILDREN)) are
        measured; messages are our lines with "message" (counted in a second, untimed pass) and the
        gRPC messages tshark decoded (its grpc.message_length values). Prints a Markdown table.

check   "With the same decoded field values": runs tshark -T fields over the whole capture with Trip
        fields of every GetTrip response (name, vehicle_id, trip_status, trip_type,
        number_of_passengers, intermediate_destination_index, pickup_time, dropoff_time,
        eta_to_first_waypoint, remaining_distance_meters, route) and our decoder over the same file,
        pairs the responses (same packet: capture time to the nanosecond and client port, then order
        within the packet), and compares every K-th (500 by default) field by field, plus the counts
        of responses. Enums are compared by name (tshark prints the number), timestamps as (seconds,
        nanoseconds); tshark prints the embedded messages route (LatLng) and remaining_distance_meters
        (Int32Value) as their bytes, which this script decodes, so the route is compared point by
        point. Prints each disagreement and exits non-zero if there is one.

The server port is read from the capture (the destination port of the first SYN).
"""

import argparse
import json
import os
import re
import resource
import signal
import struct
import subprocess
import sys
import tempfile
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(REPOSITORY, "Tests", "FleetEngineClientTests", "Fixtures", "grpcio_trip_server.py")
CLIENT_LOAD = os.path.join(REPOSITORY, "Benchmarks", ".build", "release", "ClientLoad")
FLEETTRIPS = os.path.join(REPOSITORY, ".build", "release", "fleettrips")
CAPTURE_SOURCES = os.path.join(REPOSITORY, "Sources", "FleetEngineCapture")
PROTOS = os.path.join(REPOSITORY, "Protos")
WELL_KNOWN_TYPES = "/usr/include"  # libprotobuf-dev: /usr/include/google/protobuf/*.proto
DEFAULT_CAPTURE = "/tmp/fleet-capture-20k.pcap"
TLS_FIXTURES = os.path.join(REPOSITORY, "Tests", "FleetEngineClientTests", "Fixtures", "tls")
TLS_CERT = os.path.join(TLS_FIXTURES, "test-server-cert.pem")  # issued to localhost and 127.0.0.1
TLS_KEY = os.path.join(TLS_FIXTURES, "test-server-key.pem")
TLS_SERVER_NAME = "localhost"
TRIP = "providers/test-project/trips/trip-large"
LONG_ROUTE_TRIP_ID = "trip-long-route"
GET_TRIP = "/maps.fleetengine.v1.TripService/GetTrip"
TIME = re.compile(rb'"time":"?([0-9]+(?:\.[0-9]+)?)')

# tshark's names of the protobuf fields (with protobuf.pbf_as_hf), see `tshark -G fields | grep fleetengine`.
PBF_TRIP = "pbf.maps.fleetengine.v1.Trip."
FIELD_NAME = PBF_TRIP + "name"
FIELD_STATUS = PBF_TRIP + "trip_status"


# ---------------------------------------------------------------------------------------- helpers

def utc_now():
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())


def load_average():
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def log(text):
    print(text, file=sys.stderr, flush=True)


def tshark_preferences():
    return [
        "-o", f'uat:protobuf_search_paths:"{PROTOS}","TRUE"',
        "-o", f'uat:protobuf_search_paths:"{WELL_KNOWN_TYPES}","FALSE"',
        "-o", "protobuf.preload_protos:TRUE",
        "-o", "protobuf.pbf_as_hf:TRUE",
    ]


def tshark_base(capture, port, keylog=None):
    if keylog:
        return (["tshark", "-n", "-r", capture, "-d", f"tcp.port=={port},tls", "-o", f"tls.keylog_file:{keylog}"]
                + tshark_preferences())
    return ["tshark", "-n", "-r", capture, "-d", f"tcp.port=={port},http2"] + tshark_preferences()


def ours_command(binary, capture, keylog=None):
    return [binary, "capture", capture] + (["--keylog-file", keylog] if keylog else [])


def shell_line(command):
    def quote(word):
        if word and all(c.isalnum() or c in "-_./=:,+@%" for c in word):
            return word
        return "'" + word.replace("'", "'\"'\"'") + "'"
    return " ".join(quote(word) for word in command)


def read_pcap_packets(path):
    """Yields (packet bytes, captured length) of a classic pcap file, in order."""
    with open(path, "rb") as file:
        header = file.read(24)
        magic = header[:4]
        if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
            endian = "<"
        elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
            endian = ">"
        else:
            raise SystemExit(f"{path} is not a classic pcap file (tcpdump -w writes one)")
        link_type = struct.unpack(endian + "I", header[20:24])[0]
        while True:
            record = file.read(16)
            if len(record) < 16:
                return
            _, _, captured, _ = struct.unpack(endian + "IIII", record)
            yield link_type, file.read(captured)


def server_port(capture):
    """The destination port of the first SYN (without ACK) in the capture."""
    for count, (link_type, packet) in enumerate(read_pcap_packets(capture)):
        if count > 100_000:
            break
        if link_type == 1:  # Ethernet (tcpdump -i lo)
            ether_type, offset = struct.unpack("!H", packet[12:14])[0], 14
        elif link_type == 113:  # Linux cooked
            ether_type, offset = struct.unpack("!H", packet[14:16])[0], 16
        else:
            raise SystemExit(f"link type {link_type} is not handled here; pass --port")
        if ether_type == 0x0800:
            header_length = (packet[offset] & 0x0F) * 4
            if packet[offset + 9] != 6:
                continue
            tcp = offset + header_length
        elif ether_type == 0x86DD:
            if packet[offset + 6] != 6:
                continue
            tcp = offset + 40
        else:
            continue
        flags = packet[tcp + 13]
        if flags & 0x02 and not flags & 0x10:
            return struct.unpack("!H", packet[tcp + 2:tcp + 4])[0]
    raise SystemExit(f"no SYN in the first packets of {capture}; pass --port")


def prefix_packet_count(capture, prefix_bytes):
    """How many packets from the start of the capture make up at least prefix_bytes of the file."""
    total = 24
    for count, (_, packet) in enumerate(read_pcap_packets(capture), start=1):
        total += 16 + len(packet)
        if total >= prefix_bytes:
            return count
    return count


# ------------------------------------------------------------------------------------------ make

def start_server(max_seconds, tls):
    command = [sys.executable, SERVER, "--port", "0", "--host", "127.0.0.1", "--max-seconds", str(int(max_seconds))]
    if tls:
        command += ["--tls-cert", TLS_CERT, "--tls-key", TLS_KEY]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on "):
        stop_server(process)
        raise SystemExit(f"the server did not start (first line: {line!r})")
    return process, int(line.rsplit(":", 1)[1])


def stop_server(process):
    try:
        process.stdin.close()  # the server exits when its stdin closes
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def start_tcpdump(output, port, stderr_path):
    stderr = open(stderr_path, "w+")
    command = ["tcpdump", "-i", "lo", "-B", "65536", "-U", "-w", output, f"tcp port {port}"]
    log("$ " + shell_line(command))
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(stderr_path) as file:
            if "listening on" in file.read():
                return process, stderr
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    with open(stderr_path) as file:
        raise SystemExit(f"tcpdump did not start:\n{file.read()}")


def stop_tcpdump(process, stderr_path):
    time.sleep(0.5)  # let the last segments reach the capture
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    with open(stderr_path) as file:
        report = file.read()
    counts = {}
    for line in report.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0].isdigit():
            counts[" ".join(words[1:])] = int(words[0])
    return report, counts


def create_long_route_trip(port, points, tls):
    """Creates trip-long-route on the fixture server (before tcpdump starts); returns its name and size."""
    import grpc  # the fixture's own dependencies, in .venv
    sys.path.insert(0, os.path.dirname(SERVER))
    import grpcio_trip_server as fixture

    trip = fixture.small_trip()
    trip.ClearField("name")
    trip.route.extend(fixture.path(37.4219, -122.0841, points, 0.00017))
    request = fixture.CreateTripRequest(parent=f"providers/{fixture.SEED_PROVIDER}", trip_id=LONG_ROUTE_TRIP_ID,
                                        trip=trip)
    if tls:
        with open(TLS_CERT, "rb") as file:
            credentials = grpc.ssl_channel_credentials(root_certificates=file.read())
        channel = grpc.secure_channel(f"127.0.0.1:{port}", credentials,
                                      options=[("grpc.ssl_target_name_override", TLS_SERVER_NAME)])
    else:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    with channel:
        create = channel.unary_unary(f"/{fixture.SERVICE}/CreateTrip",
                                     request_serializer=fixture.CreateTripRequest.SerializeToString,
                                     response_deserializer=fixture.Trip.FromString)
        created = create(request, timeout=30)
    return created.name, created.ByteSize()


def run_client_load(binary, port, seconds, trip, keylog):
    command = [binary, "--client", "ours", "--concurrency", "16", "--seconds", f"{seconds:.2f}", "--port", str(port),
               "--trip", trip, "--warm-up-seconds", "0", "--allocation-seconds", "0"]
    if keylog:
        command += ["--tls-ca", TLS_CERT, "--tls-server-name", TLS_SERVER_NAME, "--keylog-file", keylog]
    log("$ " + shell_line(command))
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
    if result.returncode != 0:
        raise SystemExit(f"ClientLoad failed ({result.returncode}):\n{result.stderr}")
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if len(lines) != 1:
        raise SystemExit(f"ClientLoad printed no JSON line:\n{result.stdout}")
    report = json.loads(lines[0])
    log(lines[0])
    return report


def make(arguments):
    if not os.access(arguments.client_load, os.X_OK):
        raise SystemExit(f"{arguments.client_load} is missing; build it with "
                         "`swift build -c release --package-path Benchmarks --product ClientLoad`")
    keylog = arguments.output + ".keys" if arguments.tls else None
    if keylog and os.path.exists(keylog):
        os.remove(keylog)  # ClientLoad appends
    server, port = start_server(max_seconds=900, tls=arguments.tls)
    stderr_path = arguments.output + ".tcpdump.txt"
    tcpdump = None
    calls = 0
    runs = []
    trip = TRIP
    try:
        if arguments.route_points:
            trip, size = create_long_route_trip(port, arguments.route_points, arguments.tls)
            log(f"created {trip}: {size:,} bytes, a route of {arguments.route_points} points")
        tcpdump, stderr = start_tcpdump(arguments.output, port, stderr_path)
        rate = None
        while calls < arguments.calls * 0.98:
            remaining = arguments.calls - calls
            # The first run measures the rate; a short one for a small capture, so it does not overshoot.
            first = min(4.0, max(0.5, arguments.calls / 4000))
            seconds = first if rate is None else max(0.5, min(60.0, remaining / rate))
            report = run_client_load(arguments.client_load, port, seconds, trip, keylog)
            runs.append(report)
            calls += int(report["calls"])
            rate = max(1.0, report["calls"] / report["seconds"]) if "seconds" in report else report["callsPerSecond"]
    finally:
        if tcpdump is not None:
            report, counts = stop_tcpdump(tcpdump, stderr_path)
        stop_server(server)
    log(report.strip())
    os.remove(stderr_path)
    dropped = counts.get("packets dropped by kernel")
    size = os.path.getsize(arguments.output)
    # ClientLoad makes one check call before each measured window.
    total_calls = calls + len(runs)
    print(f"{arguments.output}: {size:,} bytes, {counts.get('packets captured', 0):,} packets, "
          f"{total_calls:,} GetTrip calls of {trip} ({calls:,} measured in {len(runs)} ClientLoad runs, plus one check call each) "
          f"on 127.0.0.1:{port}" + (f" over TLS, key log {keylog}" if keylog else "")
          + f"; tcpdump: {dropped} packets dropped by kernel")
    if dropped != 0:
        raise SystemExit("tcpdump dropped packets (or did not say): the capture is incomplete")


# ------------------------------------------------------------------------------------------- run

def timed(command, stdout_path, label):
    """Runs command with its stdout to stdout_path; returns wall and CPU seconds."""
    log(f"[{utc_now()}, load average {load_average()}] {label}: $ {shell_line(command)}"
        + (f" > {stdout_path}" if stdout_path else ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout_path or os.devnull, "wb") as output:
        started = time.perf_counter()
        result = subprocess.run(command, stdout=output, stderr=subprocess.PIPE, timeout=3600)
        wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{label} failed ({result.returncode}):\n{result.stderr.decode(errors='replace')[-4000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log(f"    wall {wall:.2f} s, cpu {cpu:.2f} s (user {after.ru_utime - before.ru_utime:.2f}, "
        f"sys {after.ru_stime - before.ru_stime:.2f}), max RSS {after.ru_maxrss // 1024} MB (children so far)")
    return wall, cpu


def wait_for_fleettrips(binary, wait_seconds):
    if binary != FLEETTRIPS:  # a binary named on the command line is used as it is
        if not os.access(binary, os.X_OK):
            raise SystemExit(f"{binary} is not an executable")
        return
    newest_source = max(
        os.path.getmtime(os.path.join(directory, name))
        for directory, _, names in os.walk(CAPTURE_SOURCES) for name in names)
    deadline = time.monotonic() + wait_seconds
    while True:
        if os.access(binary, os.X_OK) and os.path.getmtime(binary) >= newest_source:
            return
        if time.monotonic() > deadline:
            state = "missing" if not os.path.exists(binary) else "older than Sources/FleetEngineCapture"
            raise SystemExit(f"{binary} is {state}; build it with `swift build -c release --product fleettrips`")
        log(f"{binary} is missing or older than Sources/FleetEngineCapture; waiting for a build")
        time.sleep(20)


def count_our_messages(command):
    """Our message and call-end lines, from a second (untimed) pass."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    messages = ends = problems = 0
    for line in process.stdout:
        if line.startswith(b'{') and b'"message":' in line and b'"direction":' in line:
            messages += 1
        elif b'"status":' in line:
            ends += 1
        elif b'"problem":' in line:
            problems += 1
    if process.wait() != 0:
        raise SystemExit("fleettrips capture failed in the counting pass")
    return messages, ends, problems


def count_tshark_messages(fields_path):
    """grpc.message_length values (the first column after frame.number) in tshark's fields output."""
    messages = frames = 0
    with open(fields_path, "rb") as file:
        for line in file:
            columns = line.rstrip(b"\n").split(b"\t")
            if len(columns) > 1 and columns[1]:
                frames += 1
                messages += len(columns[1].split(b","))
    return messages, frames


def count_tshark_json_messages(json_path):
    """"grpc.message_length" keys in tshark -T json output."""
    count = 0
    with open(json_path, "rb") as file:
        for line in file:
            if b'"grpc.message_length"' in line:
                count += 1
    return count


def run(arguments):
    capture = arguments.capture
    size = os.path.getsize(capture)
    port = arguments.port or server_port(capture)
    if not arguments.skip_ours:
        wait_for_fleettrips(arguments.fleettrips, arguments.wait_seconds)
    log(f"{capture}: {size:,} bytes, server port {port}")

    work = tempfile.mkdtemp(prefix="capture-load-")
    prefix = os.path.join(work, "prefix.pcap")
    packets = prefix_packet_count(capture, int(arguments.json_prefix_mb * 1e6))
    subprocess.run(["editcap", "-F", "pcap", "-r", capture, prefix, f"1-{packets}"], check=True)
    prefix_size = os.path.getsize(prefix)

    keylog = arguments.keylog_file
    ours = ours_command(arguments.fleettrips, capture, keylog)
    plaintext = ours_command(arguments.fleettrips, arguments.plaintext) if arguments.plaintext else None
    fields = tshark_base(capture, port, keylog) + [
        "-Y", "grpc", "-T", "fields", "-e", "frame.number", "-e", "grpc.message_length",
        "-e", FIELD_NAME, "-e", FIELD_STATUS]
    full_json = tshark_base(prefix, port, keylog) + ["-T", "json"]

    our_messages = our_ends = our_problems = None
    if not arguments.skip_ours:
        our_messages, our_ends, our_problems = count_our_messages(ours)
        log(f"ours: {our_messages:,} messages, {our_ends:,} call ends, {our_problems} problems")
        if plaintext:
            plaintext_size = os.path.getsize(arguments.plaintext)
            plaintext_messages, plaintext_ends, plaintext_problems = count_our_messages(plaintext)
            log(f"ours, plaintext: {plaintext_messages:,} messages, {plaintext_ends:,} call ends, "
                f"{plaintext_problems} problems")

    rows = []
    for round_number in range(1, arguments.rounds + 1):
        if not arguments.skip_ours:
            conditions = f"{utc_now()}, load average {load_average()}"
            wall, cpu = timed(ours, None, "ours")
            rows.append((round_number, "`fleettrips capture` (JSON lines, every message in full)"
                         + (", TLS with the key log" if keylog else ""), conditions, size, our_messages, wall, cpu))
            if plaintext:
                conditions = f"{utc_now()}, load average {load_average()}"
                wall, cpu = timed(plaintext, None, "ours, plaintext")
                rows.append((round_number, "`fleettrips capture` of the plaintext capture (plaintext)", conditions,
                             plaintext_size, plaintext_messages, wall, cpu))

        conditions = f"{utc_now()}, load average {load_average()}"
        fields_path = os.path.join(work, "fields.tsv")
        wall, cpu = timed(fields, fields_path, "tshark fields")
        tshark_messages, _ = count_tshark_messages(fields_path)
        rows.append((round_number, "tshark `-T fields` (frame, length, Trip name and status)", conditions,
                     size, tshark_messages, wall, cpu))

        if not arguments.skip_json:
            conditions = f"{utc_now()}, load average {load_average()}"
            json_path = os.path.join(work, "prefix.json")
            wall, cpu = timed(full_json, json_path, "tshark json")
            json_messages = count_tshark_json_messages(json_path)
            rows.append((round_number, f"tshark `-T json` (every field), first {packets:,} packets only",
                         conditions, prefix_size, json_messages, wall, cpu))
            os.remove(json_path)

    print(f"Capture {capture}: {size:,} bytes, server port {port}"
          + (f", TLS with the key log {keylog}" if keylog else "")
          + f"; prefix for tshark -T json: {packets:,} packets, {prefix_size:,} bytes.")
    if plaintext:
        print(f"Plaintext capture of the same calls {arguments.plaintext}: {plaintext_size:,} bytes.")
    if not arguments.skip_ours:
        print(f"Ours, counted in an untimed pass: {our_messages:,} messages, {our_ends:,} call ends, "
              f"{our_problems} problem lines.")
    print()
    print("Commands:")
    print()
    print("    " + shell_line(ours) + " > /dev/null")
    if plaintext:
        print("    " + shell_line(plaintext) + " > /dev/null")
    print("    " + shell_line(fields))
    print("    " + shell_line(full_json))
    print()
    print("| round | decoder | conditions | capture bytes | messages | wall | CPU (user+sys) | messages/s | MB/s (wall) | MB/s per CPU second |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by_round = {}
    for round_number, name, conditions, nbytes, messages, wall, cpu in rows:
        key = name.split(" ")[0] + (" json" if "json" in name else "") + (" plaintext" if "(plaintext)" in name else "")
        by_round.setdefault(round_number, {})[key] = (nbytes / wall, messages / wall)
        print(f"| {round_number} | {name} | {conditions} | {nbytes:,} | {messages:,} | {wall:.2f} s | {cpu:.2f} s | "
              f"{messages / wall:,.0f} | {nbytes / wall / 1e6:,.1f} | {nbytes / cpu / 1e6:,.1f} |")
    print()
    for round_number, rates in by_round.items():
        ours_rate = rates.get("`fleettrips")
        fields_rate = rates.get("tshark")
        json_rate = rates.get("tshark json")
        plaintext_rate = rates.get("`fleettrips plaintext")
        if not ours_rate:
            continue
        # Against tshark: the same file, so bytes per second; against our plaintext speed: the same
        # calls in files of different sizes, so messages per second first.
        text = f"round {round_number}: ours / tshark fields = {ours_rate[0] / fields_rate[0]:.1f}x"
        if json_rate:
            text += f", ours / tshark json = {ours_rate[0] / json_rate[0]:.1f}x"
        if plaintext_rate:
            text += (f", ours TLS / ours plaintext = {ours_rate[1] / plaintext_rate[1]:.2f}x in messages/s "
                     f"({ours_rate[0] / plaintext_rate[0]:.2f}x in bytes/s)")
        print(text)
    for name in ("fields.tsv",):
        path = os.path.join(work, name)
        if os.path.exists(path):
            os.remove(path)
    os.remove(prefix)
    os.rmdir(work)


# ----------------------------------------------------------------------------------------- check

# Trip fields tshark prints as values with -T fields (scalars and, for Timestamps, its own date text),
# and two it prints as the bytes of the embedded message (route: repeated google.type.LatLng;
# remaining_distance_meters: google.protobuf.Int32Value), which are decoded here.
CHECK_FIELDS = [
    ("name", "name"), ("vehicle_id", "vehicleId"), ("trip_status", "tripStatus"), ("trip_type", "tripType"),
    ("number_of_passengers", "numberOfPassengers"),
    ("intermediate_destination_index", "intermediateDestinationIndex"),
    ("pickup_time", "pickupTime"), ("dropoff_time", "dropoffTime"), ("eta_to_first_waypoint", "etaToFirstWaypoint"),
    ("remaining_distance_meters", "remainingDistanceMeters"), ("route", "route"),
]
ENUMS = {
    "tripStatus": {0: "UNKNOWN_TRIP_STATUS", 1: "NEW", 2: "ENROUTE_TO_PICKUP", 3: "ARRIVED_AT_PICKUP",
                   7: "ARRIVED_AT_INTERMEDIATE_DESTINATION", 8: "ENROUTE_TO_INTERMEDIATE_DESTINATION",
                   4: "ENROUTE_TO_DROPOFF", 5: "COMPLETE", 6: "CANCELED"},
    "tripType": {0: "UNKNOWN_TRIP_TYPE", 1: "SHARED", 2: "EXCLUSIVE"},
}
MONTHS = {name: number for number, name in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], start=1)}


def varint(data, offset):
    value = shift = 0
    while True:
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, offset


def decode_int32_value(hex_text):
    """google.protobuf.Int32Value from its bytes (tshark prints an embedded message as hex)."""
    data, offset, value = bytes.fromhex(hex_text.replace(":", "")), 0, 0
    while offset < len(data):
        key, offset = varint(data, offset)
        if key == 0x08:
            value, offset = varint(data, offset)
            value = value - (1 << 64) if value >= 1 << 63 else value
            value = value - (1 << 32) if value >= 1 << 31 else value
        else:
            raise ValueError(f"unexpected key {key} in Int32Value {hex_text}")
    return value


def decode_lat_lng(hex_text):
    """google.type.LatLng (two doubles, fields 1 and 2) from its bytes."""
    data, offset = bytes.fromhex(hex_text.replace(":", "")), 0
    point = {"latitude": 0.0, "longitude": 0.0}
    while offset < len(data):
        key, offset = varint(data, offset)
        if key not in (0x09, 0x11):
            raise ValueError(f"unexpected key {key} in LatLng {hex_text}")
        point["latitude" if key == 0x09 else "longitude"] = struct.unpack("<d", data[offset:offset + 8])[0]
        offset += 8
    return point


def tshark_timestamp(text):
    """tshark's `Jan  1, 2026 00:15:00.123000000 UTC` as (epoch seconds, nanoseconds)."""
    import calendar
    month, day, year, clock, zone = text.replace(",", "").split()
    if zone != "UTC":
        raise ValueError(text)
    hours, minutes, seconds = clock.split(":")
    whole, _, fraction = seconds.partition(".")
    epoch = calendar.timegm((int(year), MONTHS[month], int(day), int(hours), int(minutes), int(whole)))
    return epoch, int((fraction + "000000000")[:9])


def json_timestamp(text):
    """Proto3 JSON's `2026-01-01T00:15:00.123Z` as (epoch seconds, nanoseconds)."""
    import calendar
    date, _, clock = text.rstrip("Z").partition("T")
    year, month, day = (int(part) for part in date.split("-"))
    hours, minutes, seconds = clock.split(":")
    whole, _, fraction = seconds.partition(".")
    epoch = calendar.timegm((year, month, day, int(hours), int(minutes), int(whole)))
    return epoch, int((fraction + "000000000")[:9])


def their_values(columns, index, count):
    """One Trip's values out of a packet's aggregated columns (several Trips can end in one packet)."""
    values = {}
    for position, (tshark_name, json_name) in enumerate(CHECK_FIELDS):
        column = columns[3 + position]
        parts = column.split("|") if column else []
        if json_name == "route":
            if count > 1 and len(parts) % count != 0:
                values[json_name] = None  # cannot tell whose points are whose
                continue
            size = len(parts) // count
            values[json_name] = [decode_lat_lng(part) for part in parts[index * size:(index + 1) * size]]
            continue
        if len(parts) != count:
            values[json_name] = None if parts else "(absent)"
            continue
        text = parts[index]
        if json_name in ENUMS:
            values[json_name] = ENUMS[json_name].get(int(text), text)
        elif json_name == "remainingDistanceMeters":
            values[json_name] = decode_int32_value(text)
        elif json_name in ("pickupTime", "dropoffTime", "etaToFirstWaypoint"):
            values[json_name] = tshark_timestamp(text)
        elif json_name in ("numberOfPassengers", "intermediateDestinationIndex"):
            values[json_name] = int(text)
        else:
            values[json_name] = text
    return values


def our_values(trip):
    values = {}
    for _, json_name in CHECK_FIELDS:
        value = trip.get(json_name)
        if json_name == "route":
            value = [{"latitude": point.get("latitude", 0.0), "longitude": point.get("longitude", 0.0)}
                     for point in (value or [])]
        elif value is None:
            value = "(absent)"
        elif json_name in ("pickupTime", "dropoffTime", "etaToFirstWaypoint"):
            value = json_timestamp(value)
        values[json_name] = value
    return values


def tshark_responses(capture, port, output_path, keylog):
    command = tshark_base(capture, port, keylog) + [
        "-Y", f"tcp.srcport=={port} && {FIELD_NAME}", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
        "-e", "frame.number", "-e", "frame.time_epoch", "-e", "tcp.dstport"]
    for tshark_name, _ in CHECK_FIELDS:
        command += ["-e", PBF_TRIP + tshark_name]
    log(f"[{utc_now()}, load average {load_average()}] $ {shell_line(command)} > {output_path}")
    with open(output_path, "wb") as output:
        subprocess.run(command, stdout=output, check=True, timeout=3600)
    return command


def check(arguments):
    capture = arguments.capture
    port = arguments.port or server_port(capture)
    wait_for_fleettrips(arguments.fleettrips, arguments.wait_seconds)
    work = tempfile.mkdtemp(prefix="capture-check-")
    fields_path = os.path.join(work, "responses.tsv")
    command = tshark_responses(capture, port, fields_path, arguments.keylog_file)

    # tshark: one line per packet that ends at least one Trip, keyed by (time, client port); the
    # columns are kept as text and only the sampled Trips are decoded.
    theirs = {}
    their_count = 0
    with open(fields_path) as file:
        for line in file:
            columns = line.rstrip("\n").split("\t")
            count = len(columns[3].split("|"))
            their_count += count
            epoch_seconds, _, fraction = columns[1].partition(".")
            key = (int(epoch_seconds), int((fraction + "000000000")[:9]), int(columns[2]))
            for index in range(count):
                theirs.setdefault(key, []).append((columns, index, count))

    process = subprocess.Popen(ours_command(arguments.fleettrips, capture, arguments.keylog_file),
                               stdout=subprocess.PIPE)
    compared = values_compared = points_compared = 0
    disagreements = []
    our_count = 0
    position = {}
    get_trip = GET_TRIP.encode()
    for line in process.stdout:
        if b'"direction":"response"' not in line or get_trip not in line:
            continue
        our_count += 1
        record = json.loads(line)
        # The time as printed (nine decimals), not as a float.
        epoch_seconds, _, fraction = TIME.search(line).group(1).decode().partition(".")
        client_port = int(record["connection"].split(" -> ")[0].rsplit(":", 1)[1])
        key = (int(epoch_seconds), int((fraction + "000000000")[:9]), client_port)
        index = position.get(key, 0)
        position[key] = index + 1
        if (our_count - 1) % arguments.every != 0:
            continue
        compared += 1
        place = f"response {our_count:,} (time {record['time']}, client port {client_port}, stream {record['stream']})"
        candidates = theirs.get(key, [])
        if index >= len(candidates):
            disagreements.append(f"{place}: tshark decoded no Trip in that packet")
            continue
        columns, their_index, count = candidates[index]
        their = their_values(columns, their_index, count)
        ours = our_values(record["message"])
        for field, value in ours.items():
            other = their[field]
            if other is None:
                continue  # not separable in a packet ending several Trips
            values_compared += 1
            if field == "route":
                points_compared += len(value)
            if value != other:
                disagreements.append(f"{place}, frame {columns[0]}: {field}: ours {str(value)[:200]}, "
                                     f"tshark {str(other)[:200]}")
        if compared == 1:
            summary = {key: (value if key != "route" else f"{len(value)} points, first {value[:1]}")
                       for key, value in their.items()}
            log(f"first sample, tshark's values: {summary}")
    if process.wait() != 0:
        raise SystemExit("fleettrips capture failed")
    os.remove(fields_path)
    os.rmdir(work)
    print(f"tshark: {shell_line(command)}")
    print(f"GetTrip responses: ours {our_count:,}, tshark {their_count:,}"
          + ("" if our_count == their_count else "  <-- DIFFERENT"))
    print(f"compared every {arguments.every}th response: {compared} responses, {values_compared} field values "
          f"({', '.join(name for _, name in CHECK_FIELDS)}; route point by point: {points_compared:,} LatLngs); "
          f"{len(disagreements)} disagreements")
    for text in disagreements[:50]:
        print("    " + text)
    if disagreements or our_count != their_count:
        raise SystemExit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    steps = parser.add_subparsers(dest="step", required=True)
    make_parser = steps.add_parser("make")
    make_parser.add_argument("--output", default=DEFAULT_CAPTURE)
    make_parser.add_argument("--calls", type=int, default=20_000)
    make_parser.add_argument("--client-load", default=CLIENT_LOAD)
    make_parser.add_argument("--route-points", type=int,
                             help="fetch a trip of trip-small's fields and a route of this many points instead")
    make_parser.add_argument("--tls", action="store_true",
                             help="over TLS, the client's key log written to OUTPUT.keys")
    for name in ("run", "check"):
        step = steps.add_parser(name)
        step.add_argument("--capture", default=DEFAULT_CAPTURE)
        step.add_argument("--fleettrips", default=FLEETTRIPS)
        step.add_argument("--port", type=int, help="the server port (read from the capture by default)")
        step.add_argument("--keylog-file", help="the key log of a TLS capture (make --tls writes CAPTURE.keys)")
        step.add_argument("--wait-seconds", type=float, default=300,
                          help="how long to wait for a fleettrips newer than its sources")
        if name == "run":
            step.add_argument("--json-prefix-mb", type=float, default=25)
            step.add_argument("--rounds", type=int, default=1)
            step.add_argument("--skip-json", action="store_true", help="leave out tshark -T json")
            step.add_argument("--skip-ours", action="store_true", help="time tshark only")
            step.add_argument("--plaintext", help="the plaintext capture of the same calls, timed beside it")
        else:
            step.add_argument("--every", type=int, default=500)
    arguments = parser.parse_args()
    {"make": make, "run": run, "check": check}[arguments.step](arguments)


if __name__ == "__main__":
    main()
