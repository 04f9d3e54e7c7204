#!/usr/bin/env python3
"""Records gRPC over TLS to our emulator for the capture decoder's TLS tests, with the key logs.

Makes a throwaway self-signed RSA certificate (2048 bits) and an ECDSA P-256 one with openssl in a
temporary folder, and serves each with `BINARY serve --no-auth --tls-cert C --tls-key K` on
127.0.0.1 (a free port). For each variant below it captures the loopback traffic to that port
with tcpdump (`tcpdump -i lo -U --immediate-mode -w`, filtered on the port) while Debian's curl
(OpenSSL, nghttp2), with SSLKEYLOGFILE set, makes two gRPC calls in one invocation:

    curl --http2 -k -sS -H 'content-type: application/grpc' -H 'te: trailers' TLS-OPTIONS \\
        --data-binary @create.bin https://127.0.0.1:PORT/maps.fleetengine.v1.TripService/CreateTrip \\
        --next ... --data-binary @get.bin https://127.0.0.1:PORT/maps.fleetengine.v1.TripService/GetTrip

CreateTrip with a CreateTripRequest built with Google's published types (google-maps-fleetengine:
gRPC's 5-byte prefix and the serialized message), then GetTrip of that trip. curl reuses the
connection for the second call, so a capture holds one TLS connection with two calls; in the
resumption variants the second call goes out on a second connection (`--interface 127.0.0.1`
keeps curl from reusing the first) that resumes the first's session. Every call must end with
grpc-status 0, the handshake must be the one asked for, and tshark must decrypt the capture with
the key log and find exactly the bytes sent and the bytes curl received (Scripts/
check-tls-captures.py does the tshark side). Writes into Tests/FleetEngineCaptureTests/Fixtures/TLS/:

    VARIANT.pcap             the capture, as tcpdump wrote it (Ethernet on lo)
    VARIANT.keys             curl's key log (NSS key log format); throwaway secrets of this run
    VARIANT.expected.jsonl   one JSON object per call, in order: "method" (the :path), "request"
                             (json_format.MessageToDict of the message sent, camelCase, defaults
                             omitted) and "response" (the same for the message tshark decrypted)

and for tls13-dsb, VARIANT.pcapng (the capture with its key log injected by `editcap
--inject-secrets tls,KEYS`, a Decryption Secrets Block) and VARIANT.expected.jsonl, no key log.

The variant ours-tls13 is our own client instead of curl: `BINARY create` then `BINARY get` (two
connections, TLS 1.3 as our client and the emulator choose it), trusting the certificate with
--ca-cert and writing the key log through SSLKEYLOGFILE. Its expected.jsonl holds what tshark
decrypted with that key log, requests and responses alike.

Run as root (tcpdump needs it), from the repository root, with the project's virtualenv:
    .venv/bin/python3 Scripts/make-tls-capture-fixtures.py .build/debug/fleettrips [VARIANT ...]
"""

import importlib.util
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

from google.maps import fleetengine_v1 as fe
from google.protobuf import json_format, timestamp_pb2
from google.type import latlng_pb2

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPOSITORY, "Tests", "FleetEngineCaptureTests", "Fixtures", "TLS")
PROVIDER = "providers/test-project"
SERVICE = "/maps.fleetengine.v1.TripService/"

_spec = importlib.util.spec_from_file_location("check_tls_captures",
                                               os.path.join(REPOSITORY, "Scripts", "check-tls-captures.py"))
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)

TLS12 = ["--tlsv1.2", "--tls-max", "1.2", "--ciphers"]
TLS13 = ["--tlsv1.3", "--tls13-ciphers"]

# name: (certificate, curl's TLS options, the version and cipher suite tshark must see (IANA
# name), kind: one connection, a resumption on a second connection, or a pcapng with a DSB).
VARIANTS = {
    "tls13-aes128gcm": ("rsa", TLS13 + ["TLS_AES_128_GCM_SHA256"], "TLS 1.3 TLS_AES_128_GCM_SHA256", "one"),
    "tls13-aes256gcm": ("rsa", TLS13 + ["TLS_AES_256_GCM_SHA384"], "TLS 1.3 TLS_AES_256_GCM_SHA384", "one"),
    "tls13-chacha20": ("rsa", TLS13 + ["TLS_CHACHA20_POLY1305_SHA256"],
                       "TLS 1.3 TLS_CHACHA20_POLY1305_SHA256", "one"),
    "tls12-ecdhe-rsa-aes128gcm": ("rsa", TLS12 + ["ECDHE-RSA-AES128-GCM-SHA256"],
                                  "TLS 1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "one"),
    "tls12-ecdhe-rsa-aes256gcm": ("rsa", TLS12 + ["ECDHE-RSA-AES256-GCM-SHA384"],
                                  "TLS 1.2 TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "one"),
    "tls12-ecdhe-rsa-chacha20": ("rsa", TLS12 + ["ECDHE-RSA-CHACHA20-POLY1305"],
                                 "TLS 1.2 TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "one"),
    "tls12-ecdhe-ecdsa-aes128gcm": ("ecdsa", TLS12 + ["ECDHE-ECDSA-AES128-GCM-SHA256"],
                                    "TLS 1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "one"),
    "tls13-resumption": ("rsa", TLS13 + ["TLS_AES_128_GCM_SHA256"], "TLS 1.3 TLS_AES_128_GCM_SHA256", "resume"),
    "tls12-resumption": ("rsa", TLS12 + ["ECDHE-RSA-AES128-GCM-SHA256"],
                         "TLS 1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "resume"),
    "tls13-dsb": ("rsa", TLS13 + ["TLS_AES_128_GCM_SHA256"], "TLS 1.3 TLS_AES_128_GCM_SHA256", "dsb"),
}


def framed(message):
    """gRPC's length-prefixed message: not compressed, 4-byte big-endian length, the bytes."""
    data = type(message).serialize(message)
    return b"\x00" + struct.pack(">I", len(data)) + data


def as_dict(message):
    return json_format.MessageToDict(type(message).pb(message))


def make_certificates(folder):
    """A throwaway self-signed RSA and ECDSA P-256 certificate for 127.0.0.1: {kind: (cert, key)}."""
    made = {}
    for kind, key_options in (("rsa", ["-newkey", "rsa:2048"]),
                              ("ecdsa", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])):
        certificate = os.path.join(folder, f"{kind}.crt")
        key = os.path.join(folder, f"{kind}.key")
        subprocess.run(["openssl", "req", "-x509", *key_options, "-nodes", "-keyout", key, "-out", certificate,
                        "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        made[kind] = (certificate, key)
    return made


def start_emulator(binary, certificate, key):
    emulator = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--no-auth",
                                 "--tls-cert", certificate, "--tls-key", key],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = emulator.stdout.readline().strip()
    if not line.startswith("listening on "):
        emulator.kill()
        raise SystemExit(f"the emulator did not start: {line!r}")
    return emulator, int(line.rsplit(":", 1)[1])


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def requests_for(variant):
    trip_id = f"tls-{variant}"
    trip = fe.Trip(
        trip_type=fe.TripType.EXCLUSIVE, number_of_passengers=2,
        pickup_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=48.8584, longitude=2.2945)),
        pickup_time=timestamp_pb2.Timestamp(seconds=1_790_000_000, nanos=250_000_000),
        intermediate_destinations=[fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=48.8606,
                                                                               longitude=2.3376))],
        dropoff_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=48.853, longitude=2.3499)))
    create = fe.CreateTripRequest(parent=PROVIDER, trip_id=trip_id, trip=trip)
    get = fe.GetTripRequest(name=f"{PROVIDER}/trips/{trip_id}")
    return [("CreateTrip", create), ("GetTrip", get)]


def record(variant, emulators, work):
    kind, tls_options, handshake, shape = VARIANTS[variant]
    port = emulators[kind]
    calls = requests_for(variant)
    folder = os.path.join(work, variant)
    os.makedirs(folder)
    os.chmod(folder, 0o755)  # tcpdump writes its file as its own user
    pcap = os.path.join(folder, f"{variant}.pcap")
    keys = os.path.join(folder, f"{variant}.keys")
    verbose = os.path.join(folder, "curl.txt")
    command = []
    for index, (method, request) in enumerate(calls):
        body = os.path.join(folder, f"{method}.bin")
        with open(body, "wb") as file:
            file.write(framed(request))
        if index:
            command.append("--next")
        command += ["--http2", "-k", "-sS", "-H", "content-type: application/grpc", "-H", "te: trailers",
                    *tls_options]
        if index and shape == "resume":
            # A transfer bound to a local address does not reuse a connection that is not, so curl
            # opens a second one, and offers it the session the first one got (from the TLS
            # session cache curl shares across --next): a TLS 1.3 ticket, a TLS 1.2 session ID.
            command += ["--interface", "127.0.0.1"]
        command += ["--data-binary", f"@{method}.bin", "-o", f"{method}.out",
                    f"https://127.0.0.1:{port}{SERVICE}{method}"]
    command = ["curl", "-v", *command]

    tcpdump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "--immediate-mode", "-w", pcap, f"tcp port {port}"],
                               stderr=subprocess.PIPE, text=True)
    # tcpdump says "listening on lo" once it captures.
    tcpdump.stderr.readline()
    try:
        time.sleep(0.5)
        with open(verbose, "w") as trace:
            curl = subprocess.run(command, cwd=folder, env=dict(os.environ, SSLKEYLOGFILE=keys), stderr=trace)
        time.sleep(0.5)
    finally:
        stop(tcpdump)
    with open(verbose) as file:
        trace = file.read()
    if curl.returncode != 0:
        raise SystemExit(f"{variant}: curl failed ({curl.returncode}):\n{trace}")
    shown = " ".join(part if re.fullmatch(r"[\w@./:=-]+", part) else f"'{part}'" for part in command)
    print(f"{variant}: SSLKEYLOGFILE={variant}.keys {shown.replace(f':{port}/', ':PORT/')}")

    # curl's view: every call answered over HTTP/2 with grpc-status 0 in its trailers, and the
    # handshake asked for.
    statuses = re.findall(r"^< grpc-status: (\S+)", trace, re.MULTILINE)
    if statuses != ["0"] * len(calls) or len(re.findall(r"^< HTTP/2 200", trace, re.MULTILINE)) != len(calls):
        raise SystemExit(f"{variant}: curl did not see every call succeed (grpc-status {statuses}):\n{trace}")
    sessions = re.findall(r"SSL connection using (\S+) / (\S+)", trace)
    if shape == "resume" and ("SSL re-using session ID" not in trace or len(sessions) != 2):
        raise SystemExit(f"{variant}: curl did not resume the session on a second connection:\n{trace}")
    if shape != "resume" and len(sessions) != 1:
        raise SystemExit(f"{variant}: curl made {len(sessions)} connections, not one:\n{trace}")

    # tshark's view, with the key log: the handshakes, and exactly the bytes sent and received.
    decoded = check.tshark_decode(pcap, keys, [port])
    summary = check.handshake_summary(decoded)
    wanted = handshake + (", " + handshake + " resumed" if shape == "resume" else "")
    if summary != wanted:
        raise SystemExit(f"{variant}: tshark saw {summary!r}, not {wanted!r}")
    responses = []
    for method, request in calls:
        with open(os.path.join(folder, f"{method}.out"), "rb") as file:
            received = file.read()
        if len(received) < 5 or received[0] != 0 or struct.unpack(">I", received[1:5])[0] != len(received) - 5:
            raise SystemExit(f"{variant}: curl did not receive one uncompressed gRPC message for {method}")
        responses.append((method, received))
    found = [(m["direction"], m["method"], m["data"]) for m in decoded.messages]
    sent = []
    for (method, request), (_, received) in zip(calls, responses):
        sent.append(("request", SERVICE + method, type(request).serialize(request)))
        sent.append(("response", SERVICE + method, received[5:]))
    if found != sent:
        raise SystemExit(f"{variant}: tshark decrypted {found}, but curl sent and received {sent}")
    if list(decoded.statuses.values()) != [0] * len(calls):
        raise SystemExit(f"{variant}: tshark's trailers have grpc-status {list(decoded.statuses.values())}")

    expected = []
    for (method, request), message in zip(calls, [m for m in decoded.messages if m["direction"] == "response"]):
        _, response, error = check.google_message(message)
        if error:
            raise SystemExit(f"{variant}: {error}")
        expected.append({"method": SERVICE + method, "request": as_dict(request),
                         "response": json_format.MessageToDict(response)})

    os.makedirs(FIXTURES, exist_ok=True)
    stem = os.path.join(FIXTURES, variant)
    if shape == "dsb":
        subprocess.run(["editcap", "--inject-secrets", f"tls,{keys}", pcap, stem + ".pcapng"],
                       check=True, capture_output=True)
        again = check.tshark_decode(stem + ".pcapng", None, [port])
        if [(m["direction"], m["method"], m["data"]) for m in again.messages] != sent:
            raise SystemExit(f"{variant}: tshark did not decrypt the pcapng with its Decryption Secrets Block")
        written = [stem + ".pcapng"]
    else:
        shutil.copyfile(pcap, stem + ".pcap")
        shutil.copyfile(keys, stem + ".keys")
        written = [stem + ".pcap", stem + ".keys"]
    with open(stem + ".expected.jsonl", "w") as output:
        for entry in expected:
            output.write(json.dumps(entry, sort_keys=True) + "\n")
    written.append(stem + ".expected.jsonl")
    sizes = ", ".join(f"{os.path.basename(path)} {os.path.getsize(path)} B" for path in written)
    print(f"    tshark: {summary}; {len(decoded.messages)} messages, as sent and received; wrote {sizes}")


def record_ours(variant, binary, emulators, work):
    """Our client's CreateTrip and GetTrip over TLS, with the key log it wrote (SSLKEYLOGFILE)."""
    port = emulators["rsa"]
    certificate = os.path.join(work, "rsa.crt")
    folder = os.path.join(work, variant)
    os.makedirs(folder, exist_ok=True)
    pcap = os.path.join(folder, f"{variant}.pcap")
    keys = os.path.join(folder, f"{variant}.keys")
    trip_id = f"tls-{variant}"
    connection = ["--endpoint", f"127.0.0.1:{port}", "--ca-cert", certificate]
    commands = [
        [binary, "create", "--provider", "test-project", "--trip-id", trip_id, "--trip",
         '{"tripType": "EXCLUSIVE", "numberOfPassengers": 2, '
         '"pickupPoint": {"point": {"latitude": 48.8584, "longitude": 2.2945}}, '
         '"dropoffPoint": {"point": {"latitude": 48.853, "longitude": 2.3499}}}', *connection],
        [binary, "get", f"{PROVIDER}/trips/{trip_id}", *connection],
    ]
    tcpdump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "--immediate-mode", "-w", pcap, f"tcp port {port}"],
                               stderr=subprocess.PIPE, text=True)
    tcpdump.stderr.readline()
    try:
        time.sleep(0.5)
        for command in commands:
            result = subprocess.run(command, env=dict(os.environ, SSLKEYLOGFILE=keys), capture_output=True,
                                    text=True)
            if result.returncode != 0:
                raise SystemExit(f"{variant}: {command[1]} failed: {result.stderr}")
        time.sleep(0.5)
    finally:
        stop(tcpdump)
    print(f"{variant}: SSLKEYLOGFILE={variant}.keys fleettrips create ... && fleettrips get ... (--ca-cert)")
    decoded = check.tshark_decode(pcap, keys, [port])
    summary = check.handshake_summary(decoded)
    if len(decoded.messages) != 4 or list(decoded.statuses.values()) != [0, 0]:
        raise SystemExit(f"{variant}: tshark decrypted {len(decoded.messages)} messages, statuses "
                         f"{list(decoded.statuses.values())}; wanted 4 and two OK")
    expected = []
    for request, response in zip(decoded.messages[0::2], decoded.messages[1::2]):
        sent, request_message, error = check.google_message(request)
        _, response_message, response_error = check.google_message(response)
        if error or response_error or request["direction"] != "request":
            raise SystemExit(f"{variant}: {error or response_error or 'messages out of order'}")
        expected.append({"method": request["method"], "request": json_format.MessageToDict(request_message),
                         "response": json_format.MessageToDict(response_message)})
    stem = os.path.join(FIXTURES, variant)
    shutil.copyfile(pcap, stem + ".pcap")
    shutil.copyfile(keys, stem + ".keys")
    with open(stem + ".expected.jsonl", "w") as output:
        for entry in expected:
            output.write(json.dumps(entry, sort_keys=True) + "\n")
    print(f"    tshark: {summary}; {len(decoded.messages)} messages; wrote {variant}.pcap, .keys, .expected.jsonl")


OURS = "ours-tls13"


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    variants = sys.argv[2:] or list(VARIANTS) + [OURS]
    for variant in variants:
        if variant not in VARIANTS and variant != OURS:
            raise SystemExit(f"no variant {variant}: the variants are {', '.join(VARIANTS)}")
    with tempfile.TemporaryDirectory(prefix="tls-captures-") as work:
        os.chmod(work, 0o755)
        certificates = make_certificates(work)
        emulators = {}
        processes = []
        try:
            for kind, (certificate, key) in certificates.items():
                process, port = start_emulator(binary, certificate, key)
                processes.append(process)
                emulators[kind] = port
            for variant in variants:
                if variant == OURS:
                    record_ours(variant, binary, emulators, work)
                else:
                    record(variant, emulators, work)
        finally:
            for process in processes:
                stop(process)


if __name__ == "__main__":
    main()
