#!/usr/bin/env python3
"""Differential check of `fleettrips capture` against tshark on captures of gRPC over TLS.

    python3 Scripts/check-tls-captures.py FLEETTRIPS [CAPTURE ...]
    python3 Scripts/check-tls-captures.py --tshark-only [CAPTURE ...]

Without CAPTURE it checks every capture of Tests/FleetEngineCaptureTests/Fixtures/TLS/ (see
README-tls-captures.md there). A capture's key log is the file beside it with the same stem and
the extension .keys (`tls13-aes128gcm.pcap` and `tls13-aes128gcm.keys`), or the one --keys names;
a pcapng that carries its secrets in a Decryption Secrets Block needs none, nor does a plaintext
capture (HTTP/2 without TLS, which is checked the same way).

For each capture, tshark (Wireshark 4.0 or later) decrypts the TLS with the key log, dissects
HTTP/2 and gRPC inside it, and gives every gRPC message: its connection, HTTP/2 stream, direction,
the call's :path and the message's bytes, and every call's grpc-status. Each message is decoded
with Google's published types (google-maps-fleetengine) by its method and direction.
`FLEETTRIPS capture CAPTURE --keylog-file KEYS` (without the option for a capture that needs no
key log) must print the same messages: for each connection, stream and direction, as many message
lines as tshark found, in the same order, each with the same method, the right type and, parsed
back into Google's message with json_format.Parse, a message equal to tshark's (so the proto3 JSON
spellings of int64, floats, enums and well-known types do not matter); and for each call tshark saw
end, a line with the same status code. A line with "problem" or "decodingError" is a disagreement,
and so is a compressed message (tshark's bytes for it are not compared; these captures have none).

Prints a summary line per capture and every disagreement; exits 1 on any disagreement, or when
tshark decoded no gRPC message in a capture (a sign that its keys were not used), and 2 when a
tool fails to run.

With --tshark-only it does not run fleettrips: it prints each message tshark decoded (as
json_format.MessageToDict gives it), and when a capture has an expected-values file beside it
(`STEM.expected.jsonl`, as Scripts/make-tls-capture-fixtures.py writes them) it checks that the
calls tshark decoded are those, in order: method, request, and response or status name.

Options: --keys KEYS (the key log of every capture given), --port PORT (the server's TCP port, when
the capture does not hold the connections' SYNs; repeatable). tshark runs with an empty
configuration folder of its own (WIRESHARK_CONFIG_DIR), so a user's preferences do not change what
it decodes.
"""

import argparse
import glob
import ipaddress
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import OrderedDict

from google.maps import fleetengine_v1 as fe
from google.protobuf import empty_pb2, json_format
from google.protobuf.message import DecodeError
from google.rpc import code_pb2

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPOSITORY, "Tests", "FleetEngineCaptureTests", "Fixtures", "TLS")

# Google's message classes (upb) for each TripService method: (request, response).
TRIP_SERVICE = {
    "CreateTrip": (fe.CreateTripRequest.pb(), fe.Trip.pb()),
    "GetTrip": (fe.GetTripRequest.pb(), fe.Trip.pb()),
    "DeleteTrip": (fe.DeleteTripRequest.pb(), empty_pb2.Empty),
    "ReportBillableTrip": (fe.ReportBillableTripRequest.pb(), empty_pb2.Empty),
    "SearchTrips": (fe.SearchTripsRequest.pb(), fe.SearchTripsResponse.pb()),
    "UpdateTrip": (fe.UpdateTripRequest.pb(), fe.Trip.pb()),
}
SERVICE_PREFIX = "/maps.fleetengine.v1.TripService/"


def message_class(method, direction):
    """Google's class for a message of `method` (a :path) going `direction`; None without one."""
    if not method or not method.startswith(SERVICE_PREFIX):
        return None
    classes = TRIP_SERVICE.get(method[len(SERVICE_PREFIX):])
    if classes is None:
        return None
    return classes[0] if direction == "request" else classes[1]


def as_dict(message):
    return json_format.MessageToDict(message)


def status_name(code):
    try:
        return code_pb2.Code.Name(code)
    except ValueError:
        return str(code)


class ToolError(Exception):
    """A tool did not run as it should (not a disagreement between decoders)."""


# --- tshark ---------------------------------------------------------------------------------------

_CONFIG_DIR = None


def _tshark_environment():
    global _CONFIG_DIR
    if _CONFIG_DIR is None:
        _CONFIG_DIR = tempfile.mkdtemp(prefix="tshark-config-")
    return dict(os.environ, WIRESHARK_CONFIG_DIR=_CONFIG_DIR)


def run_tshark(arguments):
    try:
        result = subprocess.run(["tshark", *arguments], capture_output=True, env=_tshark_environment())
    except FileNotFoundError:
        raise ToolError("tshark is not installed (apt-get install tshark)")
    if result.returncode != 0:
        raise ToolError(f"tshark {' '.join(arguments)} failed: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def tshark_packets(arguments):
    """The <packet> elements of `tshark ARGUMENTS -T pdml`, one at a time (each cleared after use)."""
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(["tshark", *arguments, "-T", "pdml"], stdout=subprocess.PIPE,
                                       stderr=errors, env=_tshark_environment())
        except FileNotFoundError:
            raise ToolError("tshark is not installed (apt-get install tshark)")
        with process:
            for _, element in ElementTree.iterparse(process.stdout, events=("end",)):
                if element.tag == "packet":
                    yield element
                    element.clear()
        if process.returncode != 0:
            errors.seek(0)
            raise ToolError(f"tshark {' '.join(arguments)} failed: {errors.read().decode(errors='replace').strip()}")


def server_ports(capture):
    """The destination ports of the SYNs (without ACK) of a capture: its servers' ports."""
    output = run_tshark(["-r", capture, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0",
                         "-T", "fields", "-e", "tcp.dstport"]).decode()
    return sorted({int(line) for line in output.split()})


def client_speaks_tls(capture, ports):
    """Whether the first bytes a client sent to one of `ports` are a TLS handshake record."""
    port_filter = " || ".join(f"tcp.dstport == {port}" for port in ports)
    output = run_tshark(["-r", capture, "-Y", f"tcp.len > 0 && ({port_filter})",
                         "-T", "fields", "-e", "tcp.payload"]).decode().split()
    return bool(output) and output[0].replace(":", "").startswith("16030")


def _endpoint(address, port):
    return (ipaddress.ip_address(address), int(port))


def endpoint_text(endpoint):
    address, port = endpoint
    return f"[{address}]:{port}" if address.version == 6 else f"{address}:{port}"


def connection_text(connection):
    return f"{endpoint_text(connection[0])} -> {endpoint_text(connection[1])}"


class TSharkCapture:
    """What tshark decoded of one capture.

    messages: dicts with connection ((client, server) endpoints), stream, direction, method,
    data (the message's bytes), compressed and frame; in capture order.
    statuses: {(connection, stream): grpc-status} for each call whose trailers tshark decoded.
    handshakes: {connection: {"version", "cipher", "resumed"}} from the ServerHellos.
    """

    def __init__(self):
        self.messages = []
        self.statuses = OrderedDict()
        self.paths = {}
        self.handshakes = OrderedDict()
        self.tls = False
        self.tls_records = 0
        self.http2_frames = 0


def tshark_decode(capture, keys=None, ports=None):
    """Runs tshark on `capture` (decrypting with `keys` when given) and returns a TSharkCapture."""
    ports = ports or server_ports(capture)
    if not ports:
        raise ToolError(f"{capture}: no SYN in the capture, so no server port: give --port")
    result = TSharkCapture()
    result.tls = client_speaks_tls(capture, ports)
    arguments = ["-r", capture]
    for port in ports:
        arguments += ["-d", f"tcp.port=={port},{'tls' if result.tls else 'http2'}"]
    if keys:
        arguments += ["-o", f"tls.keylog_file:{keys}"]
    for packet in tshark_packets(arguments):
        _read_packet(packet, set(ports), result)
    # A message that came before its call's HEADERS were decoded (never in traffic in order)
    # takes the method tshark found later.
    for message in result.messages:
        if message["method"] is None:
            message["method"] = result.paths.get((message["connection"], message["stream"]))
    return result


def _fields(packet, name):
    return [element for element in packet.iter("field") if element.get("name") == name]


def _first(packet, name):
    found = _fields(packet, name)
    return found[0].get("show") if found else None


def _read_packet(packet, ports, result):
    source = _first(packet, "ip.src") or _first(packet, "ipv6.src")
    destination = _first(packet, "ip.dst") or _first(packet, "ipv6.dst")
    source_port = _first(packet, "tcp.srcport")
    destination_port = _first(packet, "tcp.dstport")
    frame = int(_first(packet, "frame.number"))
    if source is None or source_port is None:
        return
    source_end = _endpoint(source, source_port)
    destination_end = _endpoint(destination, destination_port)
    if destination_end[1] in ports:
        direction, connection = "request", (source_end, destination_end)
    elif source_end[1] in ports:
        direction, connection = "response", (destination_end, source_end)
    else:
        return

    # Walk the packet's elements in document order: tshark puts each HTTP/2 frame in a proto
    # "http2" (its stream id, type and decoded header fields inside), and the gRPC message a DATA
    # frame completed in a proto "grpc" right after it.
    stream = None
    frame_type = None
    header_name = None
    headers = []

    def flush_headers():
        nonlocal headers
        if stream is None or not headers:
            headers = []
            return
        key = (connection, stream)
        for name, value in headers:
            if name == ":path" and direction == "request":
                result.paths[key] = value
            if name == "grpc-status" and direction == "response":
                result.statuses[key] = int(value)
        headers = []

    for element in packet.iter():
        name = element.get("name")
        if element.tag == "proto" and name == "tls":
            result.tls_records += 1
        if element.tag == "field" and name == "http2.stream":
            flush_headers()
            result.http2_frames += 1
        elif element.tag == "field" and name == "http2.streamid":
            stream = int(element.get("show"))
        elif element.tag == "field" and name == "http2.type":
            frame_type = int(element.get("show"))
        elif element.tag == "field" and name == "http2.header.name":
            header_name = element.get("show")
        elif element.tag == "field" and name == "http2.header.value" and header_name is not None:
            headers.append((header_name, element.get("show")))
            header_name = None
        elif element.tag == "proto" and name == "grpc":
            flush_headers()
            length = None
            data = b""
            compressed = False
            for field in element.iter("field"):
                if field.get("name") == "grpc.message_length":
                    length = int(field.get("show"))
                elif field.get("name") == "grpc.message_data":
                    data = bytes.fromhex(field.get("value", ""))
                elif field.get("name") == "grpc.compressed_flag":
                    compressed = field.get("show") not in ("0", "0x00")
            if length is None:
                continue
            result.messages.append({
                "connection": connection, "stream": stream, "direction": direction,
                "method": result.paths.get((connection, stream)), "data": data, "length": length,
                "compressed": compressed, "frame": frame})
        elif element.tag == "field" and name.startswith("tls.") and direction == "response":
            _read_server_handshake(element, name, result.handshakes.setdefault(connection, {
                "version": "TLS 1.2", "cipher": None, "resumed": False, "certificate": False}))
    flush_headers()


def _read_server_handshake(element, name, info):
    """Notes what a field of the server's handshake says: version, cipher suite, resumption."""
    shown = element.get("show")
    if name == "tls.handshake.type" and shown == "11":
        info["certificate"] = True
    elif name == "tls.handshake.ciphersuite":
        info["cipher"] = element.get("showname", "").split(": ", 1)[-1].rsplit(" (", 1)[0]
    elif name == "tls.handshake.extensions.supported_version" and shown == "0x0304":
        info["version"] = "TLS 1.3"
    elif name == "tls.handshake.extension.type" and shown == "41":
        # pre_shared_key in a ServerHello: the server accepted a TLS 1.3 resumption.
        info["resumed"] = True


def handshake_summary(decoded):
    """One phrase per connection: version, cipher suite, and whether it resumed a session."""
    phrases = []
    for info in decoded.handshakes.values():
        # A TLS 1.2 handshake without a Certificate is an abbreviated (resumed) one; TLS 1.3 says so
        # with pre_shared_key in its ServerHello.
        resumed = info["resumed"] or (info["version"] == "TLS 1.2" and not info["certificate"])
        phrases.append(f"{info['version']} {info['cipher']}{' resumed' if resumed else ''}")
    return ", ".join(phrases) if phrases else ("TLS, no handshake seen" if decoded.tls else "plaintext")


def google_message(message):
    """tshark's message parsed with Google's class: (class, parsed or None, error or None)."""
    cls = message_class(message["method"], message["direction"])
    if cls is None:
        return None, None, None
    if message["compressed"]:
        return cls, None, "compressed (tshark's message data may be the compressed bytes)"
    parsed = cls()
    try:
        parsed.ParseFromString(message["data"])
    except DecodeError as error:
        return cls, None, f"Google's parser refused tshark's bytes: {error}"
    return cls, parsed, None


def tshark_calls(decoded):
    """The calls tshark decoded, in order of their first message, in the expected-values form."""
    calls = OrderedDict()
    for message in decoded.messages:
        key = (message["connection"], message["stream"])
        call = calls.setdefault(key, {"method": message["method"]})
        _, parsed, error = google_message(message)
        value = as_dict(parsed) if parsed is not None else {"undecoded": error or "no schema"}
        call.setdefault(message["direction"], []).append(value)
    result = []
    for key, call in calls.items():
        entry = {"method": call["method"]}
        requests = call.get("request", [])
        responses = call.get("response", [])
        entry["request"] = requests[0] if len(requests) == 1 else requests
        status = decoded.statuses.get(key)
        if status not in (None, 0):
            entry["code"] = status_name(status)
        else:
            entry["response"] = responses[0] if len(responses) == 1 else responses
        result.append(entry)
    return result


# --- fleettrips capture ---------------------------------------------------------------------------

def parse_connection(text):
    client, server = text.split(" -> ")

    def endpoint(part):
        address, port = part.rsplit(":", 1)
        return _endpoint(address.strip("[]"), port)

    return (endpoint(client), endpoint(server))


def ours_decode(binary, capture, keys=None):
    """Runs `BINARY capture CAPTURE [--keylog-file KEYS]` and returns its JSON lines."""
    command = [binary, "capture", capture]
    if keys:
        if not takes_keylog_option(binary):
            raise ToolError(f"{binary} capture has no --keylog-file option: this build cannot decrypt TLS")
        command += ["--keylog-file", keys]
    try:
        result = subprocess.run(command, capture_output=True)
    except OSError as error:
        raise ToolError(f"cannot run {binary}: {error}")
    if result.returncode != 0:
        raise ToolError(f"{' '.join(command)} exited with {result.returncode}: "
                        f"{result.stderr.decode(errors='replace').strip()}")
    lines = []
    for number, text in enumerate(result.stdout.decode().splitlines(), 1):
        if not text.strip():
            continue
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError as error:
            raise ToolError(f"{' '.join(command)}: line {number} is not JSON ({error}): {text[:200]}")
    return lines, result.stderr.decode(errors="replace")


def differences(theirs, ours, path="message"):
    """Where two MessageToDict values differ: "path: tshark X, ours Y" for each place (the first 20)."""
    found = []
    if isinstance(theirs, dict) and isinstance(ours, dict):
        for key in sorted(set(theirs) | set(ours)):
            found += differences(theirs.get(key), ours.get(key), f"{path}.{key}")
    elif isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours):
        for index, (their, our) in enumerate(zip(theirs, ours)):
            found += differences(their, our, f"{path}[{index}]")
    elif theirs != ours:
        found.append(f"{path}: tshark {json.dumps(theirs)}, ours {json.dumps(ours)}")
    return found[:20]


def takes_keylog_option(binary):
    """Whether `BINARY capture` takes --keylog-file (the TLS decryption is in this build)."""
    try:
        result = subprocess.run([binary, "capture", "--help"], capture_output=True)
    except OSError as error:
        raise ToolError(f"cannot run {binary}: {error}")
    return b"--keylog-file" in result.stdout + result.stderr


def compare(decoded, lines):
    """Every disagreement between tshark's messages and statuses and our JSON lines, as text."""
    problems = []
    ours = OrderedDict()
    our_statuses = {}
    for line in lines:
        if "problem" in line:
            problems.append(f"ours reported a problem: {json.dumps(line)}")
            continue
        try:
            connection = parse_connection(line["connection"])
            key = (connection, line["stream"])
        except (KeyError, ValueError):
            problems.append(f"ours printed a line without a connection of two endpoints: {json.dumps(line)}")
            continue
        if "status" in line:
            our_statuses[key] = line["status"]["code"]
        elif "direction" in line:
            ours.setdefault(key + (line["direction"],), []).append(line)
    theirs = OrderedDict()
    for message in decoded.messages:
        key = (message["connection"], message["stream"], message["direction"])
        theirs.setdefault(key, []).append(message)

    for key in list(theirs) + [key for key in ours if key not in theirs]:
        connection, stream, direction = key
        where = f"{connection_text(connection)} stream {stream} {direction}"
        their_messages = theirs.get(key, [])
        our_messages = ours.get(key, [])
        if len(their_messages) != len(our_messages):
            problems.append(f"{where}: tshark saw {len(their_messages)} messages, ours printed {len(our_messages)}")
        for index, (their, our) in enumerate(zip(their_messages, our_messages)):
            place = f"{where} message {index + 1} (tshark frame {their['frame']})"
            if our.get("method") != their["method"]:
                problems.append(f"{place}: method {our.get('method')!r}, tshark's :path {their['method']!r}")
            if "decodingError" in our:
                problems.append(f"{place}: ours could not decode it: {our['decodingError']}")
                continue
            cls, parsed, error = google_message(their)
            if error:
                problems.append(f"{place}: {error}")
                continue
            if cls is None:
                continue  # no schema for this method: only the count and method are compared
            if our.get("type") != cls.DESCRIPTOR.full_name:
                problems.append(f"{place}: type {our.get('type')!r}, expected {cls.DESCRIPTOR.full_name!r}")
            parsed.DiscardUnknownFields()  # proto3 JSON cannot show them
            mine = cls()
            try:
                json_format.Parse(json.dumps(our["message"]), mine)
            except json_format.ParseError as error:
                problems.append(f"{place}: our message does not parse as {cls.DESCRIPTOR.full_name}: {error}")
                continue
            if mine != parsed:
                where_they_differ = differences(as_dict(parsed), as_dict(mine)) or [
                    f"tshark {parsed.SerializeToString(deterministic=True).hex()}, "
                    f"ours {mine.SerializeToString(deterministic=True).hex()}"]
                problems.append(f"{place}: messages differ\n      " + "\n      ".join(where_they_differ))
    for key in list(decoded.statuses) + [key for key in our_statuses if key not in decoded.statuses]:
        connection, stream = key
        their = decoded.statuses.get(key)
        our = our_statuses.get(key)
        if their != our:
            problems.append(f"{connection_text(connection)} stream {stream}: status {our} in ours, "
                            f"grpc-status {their} in tshark's trailers")
    return problems


# --- main -----------------------------------------------------------------------------------------

def fixture_captures():
    return sorted(glob.glob(os.path.join(FIXTURES, "*.pcap")) + glob.glob(os.path.join(FIXTURES, "*.pcapng")))


def keys_beside(capture):
    keys = os.path.splitext(capture)[0] + ".keys"
    return keys if os.path.exists(keys) else None


def check_expected(capture, decoded):
    """--tshark-only: tshark's calls against STEM.expected.jsonl, when there is one."""
    path = os.path.splitext(capture)[0] + ".expected.jsonl"
    if not os.path.exists(path):
        return [], False
    with open(path) as file:
        expected = [json.loads(line) for line in file if line.strip()]
    found = tshark_calls(decoded)
    problems = []
    if len(found) != len(expected):
        problems.append(f"tshark decoded {len(found)} calls, {os.path.basename(path)} has {len(expected)}")
    for index, (their, wanted) in enumerate(zip(found, expected)):
        if their != wanted:
            problems.append(f"call {index + 1}: tshark decoded {json.dumps(their, sort_keys=True)}\n"
                            f"    expected {json.dumps(wanted, sort_keys=True)}")
    return problems, True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fleettrips", nargs="?", help="our binary (omit with --tshark-only)")
    parser.add_argument("captures", nargs="*", help="captures (default: the TLS fixtures)")
    parser.add_argument("--tshark-only", action="store_true", help="decode with tshark only and print it")
    parser.add_argument("--keys", help="the key log of every capture given (default: STEM.keys beside each)")
    parser.add_argument("--port", type=int, action="append", help="the server's port (default: from the SYNs)")
    arguments = parser.parse_args()
    captures = list(arguments.captures)
    if arguments.tshark_only and arguments.fleettrips:
        captures.insert(0, arguments.fleettrips)  # with --tshark-only every positional is a capture
        arguments.fleettrips = None
    if not arguments.tshark_only and not arguments.fleettrips:
        parser.error("give the fleettrips binary, or --tshark-only")
    captures = captures or fixture_captures()
    if not captures:
        parser.error("no captures")

    failed = False
    for capture in captures:
        name = os.path.relpath(capture) if not os.path.isabs(capture) else os.path.basename(capture)
        keys = arguments.keys or keys_beside(capture)
        try:
            decoded = tshark_decode(capture, keys, arguments.port)
            problems = []
            if not decoded.messages:
                problems.append("tshark decoded no gRPC message"
                                + (" (were the keys used? tshark saw TLS records but no HTTP/2 frame)"
                                   if decoded.tls and decoded.http2_frames == 0 else ""))
            calls = len({(m["connection"], m["stream"]) for m in decoded.messages})
            tshark_side = (f"{handshake_summary(decoded)}; {len(decoded.handshakes) or len({m['connection'] for m in decoded.messages})}"
                           f" connection(s), {calls} call(s), {len(decoded.messages)} message(s)")
            if arguments.tshark_only:
                for message in decoded.messages:
                    _, parsed, error = google_message(message)
                    shown = json.dumps(as_dict(parsed), sort_keys=True) if parsed is not None else (error or "no schema")
                    print(f"  {connection_text(message['connection'])} stream {message['stream']} "
                          f"{message['direction']} {message['method']}: {shown}")
                for (connection, stream), status in decoded.statuses.items():
                    print(f"  {connection_text(connection)} stream {stream} grpc-status {status}")
                expected_problems, had_expected = check_expected(capture, decoded)
                problems += expected_problems
                verdict = ("matches its expected.jsonl" if had_expected and not expected_problems
                           else "no expected.jsonl" if not had_expected else "DIFFERS from its expected.jsonl")
                print(f"{name}: tshark: {tshark_side}; {verdict}")
            else:
                lines, stderr = ours_decode(arguments.fleettrips, capture, keys)
                problems += compare(decoded, lines)
                our_messages = sum(1 for line in lines if "direction" in line)
                print(f"{name}: tshark: {tshark_side}; ours: {our_messages} message(s); "
                      + ("agree" if not problems else f"{len(problems)} disagreement(s)"))
                if stderr.strip():
                    for line in stderr.strip().splitlines():
                        print(f"  ours, on standard error: {line}")
        except ToolError as error:
            print(f"{name}: {error}")
            sys.exit(2)
        for problem in problems:
            print(f"  {problem}")
        failed = failed or bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
