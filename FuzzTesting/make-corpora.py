#!/usr/bin/env python3
"""Writes the seed corpora of the fuzzers (all but FuzzDecode) into FuzzTesting/Corpora/<Target>/.

Seeds are small inputs (each under 16 KiB), valid ones and a few broken, taken from the capture test
fixtures (Tests/FleetEngineCaptureTests/Fixtures) or built here. Run from anywhere; it rewrites the
seeds it owns (named seed-*) and leaves files the fuzzer added alone.

    python3 FuzzTesting/make-corpora.py
"""

import base64
import gzip
import hashlib
import hmac
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "FleetEngineCaptureTests", "Fixtures")
CORPORA = os.path.join(HERE, "Corpora")
LIMIT = 16 * 1024


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as file:
        return file.read()


def write(target, name, data):
    assert len(data) <= LIMIT, (target, name, len(data))
    folder = os.path.join(CORPORA, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as file:
        file.write(data)


# --- pcap ---------------------------------------------------------------------------------------


def pcap_records(data):
    """The (header, body) of each record of a little-endian microsecond or nanosecond pcap."""
    offset = 24
    while offset + 16 <= len(data):
        captured = struct.unpack_from("<I", data, offset + 8)[0]
        yield data[offset : offset + 16], data[offset + 16 : offset + 16 + captured]
        offset += 16 + captured


def trim_pcap(data, limit=LIMIT):
    """The pcap without the records that would take it over `limit` (a TCP gap, for the decoder)."""
    out = bytearray(data[:24])
    for header, body in pcap_records(data):
        if len(out) + len(header) + len(body) > limit:
            continue
        out += header + body
    return bytes(out)


def to_big_endian_pcap(data):
    """The same pcap with every header field big-endian (as a SPARC or PowerPC host writes it)."""
    magic, major, minor, zone, sigfigs, snap, link = struct.unpack_from("<IHHiIII", data, 0)
    out = bytearray(struct.pack(">IHHiIII", magic, major, minor, zone, sigfigs, snap, link))
    for header, body in pcap_records(data):
        out += struct.pack(">IIII", *struct.unpack("<IIII", header)) + body
    return bytes(out)


def pcap(link_type, packets, nanosecond=False):
    magic = 0xA1B23C4D if nanosecond else 0xA1B2C3D4
    out = bytearray(struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 262144, link_type))
    for index, packet in enumerate(packets):
        out += struct.pack("<IIII", 1_700_000_000 + index, 999_999 if index == 1 else index, len(packet), len(packet))
        out += packet
    return bytes(out)


def tcp(source_port, destination_port, sequence, flags, payload, options=b""):
    offset = (20 + len(options)) // 4
    header = struct.pack(">HHIIBBHHH", source_port, destination_port, sequence, 0, offset << 4, flags, 65535, 0, 0)
    return header + options + payload


def ipv4(segment, source=0x7F000001, destination=0x7F000001, options=b"", total_length=None):
    header_length = 20 + len(options)
    length = header_length + len(segment) if total_length is None else total_length
    header = struct.pack(">BBHHHBBHII", 0x40 | header_length // 4, 0, length, 1, 0x4000, 64, 6, 0, source, destination)
    return header + options + segment


def ipv6(segment, extension=None):
    next_header = 6
    body = segment
    if extension is not None:
        # A hop-by-hop options header of 8 bytes (PadN), then TCP.
        body = bytes([6, 0, 1, 4, 0, 0, 0, 0]) + segment
        next_header = 0
    source = bytes(15) + b"\x01"
    return struct.pack(">IHBB", 0x60000000, len(body), next_header, 64) + source + source + body


def ethernet(packet, ether_type=0x0800, vlan=False):
    out = bytes(12)
    if vlan:
        out += struct.pack(">HH", 0x8100, 7)
    return out + struct.pack(">H", ether_type) + packet


SYN, ACK, PSH, FIN, RST = 0x02, 0x10, 0x08, 0x01, 0x04


def made_pcaps():
    """Small captures of every link type and IP variant the packet decoder reads."""
    hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    segments = [
        tcp(50000, 443, 1000, SYN, b""),
        tcp(443, 50000, 5000, SYN | ACK, b""),
        tcp(50000, 443, 1001, ACK | PSH, hello),
        tcp(443, 50000, 5001, ACK | FIN, b""),
    ]
    yield "ethernet-vlan.pcap", pcap(1, [ethernet(ipv4(s), vlan=True) for s in segments])
    yield "ethernet-ipv6.pcap", pcap(1, [ethernet(ipv6(s, extension=True), ether_type=0x86DD) for s in segments])
    yield "null-loopback.pcap", pcap(0, [struct.pack("<I", 2) + ipv4(s) for s in segments[:2]]
                                      + [struct.pack("<I", 30) + ipv6(s) for s in segments[2:]])
    yield "raw-ip.pcap", pcap(101, [ipv4(s, options=b"\x01\x01\x01\x00") for s in segments[:2]]
                               + [ipv6(s) for s in segments[2:]], nanosecond=True)
    yield "sll-tso.pcap", pcap(113, [bytes(14) + b"\x08\x00" + ipv4(s, total_length=0) for s in segments])


# --- pcapng -------------------------------------------------------------------------------------


def pcapng_blocks(data):
    offset = 0
    while offset + 8 <= len(data):
        length = struct.unpack_from("<I", data, offset + 4)[0]
        yield data[offset : offset + length]
        offset += length


def trim_blocks(blocks, limit=LIMIT):
    out = bytearray()
    for block in blocks:
        if len(out) + len(block) > limit:
            continue
        out += block
    return bytes(out)


def block(block_type, body):
    body += bytes(-len(body) % 4)
    return struct.pack("<II", block_type, 12 + len(body)) + body + struct.pack("<I", 12 + len(body))


def enhanced_packet(interface, packet, timestamp=1_700_000_000_000_000, options=b""):
    body = struct.pack("<IIIII", interface, timestamp >> 32, timestamp & 0xFFFFFFFF, len(packet), len(packet))
    body += packet + bytes(-len(packet) % 4) + options
    return block(6, body)


def made_pcapng_blocks():
    """Blocks after FuzzPcapNG's prefix: packets on its three interfaces, a Simple Packet Block, a
    statistics block, an option list, and a second section in the other byte order."""
    segment = tcp(50000, 443, 1001, ACK | PSH, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
    comment = struct.pack("<HH", 1, 5) + b"hello" + bytes(3) + struct.pack("<HH", 0, 0)
    out = enhanced_packet(0, ethernet(ipv4(segment)), options=comment)
    out += enhanced_packet(1, struct.pack("<I", 2) + ipv4(segment), timestamp=1_700_000_000_123_456_789)
    out += enhanced_packet(2, ipv6(segment), timestamp=(1 << 40) + 12345)
    out += block(3, struct.pack("<I", 60) + ethernet(ipv4(segment)))
    out += block(5, struct.pack("<III", 0, 0, 0))  # Interface Statistics Block
    yield "interfaces.blocks", out
    # A second section, big-endian, with its own interface.
    big = struct.pack(">IIIHHq", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1) + struct.pack(">I", 28)
    idb = struct.pack(">IIHHI", 1, 20, 1, 0, 0) + struct.pack(">I", 20)
    packet = ethernet(ipv4(segment))
    padded = packet + bytes(-len(packet) % 4)
    epb = struct.pack(">IIIIIII", 6, 32 + len(padded), 0, 0, 1, len(packet), len(packet)) + padded
    epb += struct.pack(">I", 32 + len(padded))
    yield "second-section-big-endian.blocks", big + idb + epb


# --- TCP segment descriptions -------------------------------------------------------------------


def segment(direction, flags, distance=0, length=0, far=False):
    """One FuzzTCPReassembly segment description (see its main.swift)."""
    return bytes([direction | flags << 3]) + struct.pack(">h", distance) + bytes([length | (0x80 if far else 0)])


def made_tcp_inputs():
    handshake = segment(0, SYN) + segment(1, SYN | ACK) + segment(0, ACK)
    yield "in-order.bin", bytes([0x0F]) + handshake + segment(0, ACK | PSH, 0, 100) + segment(1, ACK | PSH, 0, 50) \
        + segment(0, FIN | ACK) + segment(1, FIN | ACK)
    yield "reordered.bin", bytes([0x0B]) + handshake + segment(0, ACK, 40, 20) + segment(0, ACK, -60, 40) \
        + segment(0, ACK, -30, 30) + segment(0, ACK, 0, 10) + segment(1, RST)
    yield "gaps-small-buffer.bin", bytes([0x04]) + segment(0, ACK, 0, 10) + segment(0, ACK, 50, 10) \
        + segment(0, ACK, 50, 20) + segment(2, SYN) + segment(3, SYN | ACK) + segment(2, ACK, 0, 5)
    yield "wrap-and-reuse.bin", bytes([0x0D]) + segment(4, SYN) + segment(5, SYN | ACK) + segment(4, ACK, 0, 127) \
        + segment(4, ACK, 0, 127) + segment(4, ACK, 1, 0, far=True) + segment(4, SYN, 100) + segment(4, ACK, 0, 30) \
        + segment(6, ACK, 0, 10) + segment(7, ACK, 0, 10) + segment(0, ACK, 0, 10)


# --- HTTP/2 -------------------------------------------------------------------------------------


def tcp_streams(data):
    """Each TCP connection's two byte streams in a little-endian Ethernet pcap without loss, and
    the order in which the capture carried its segments: [(client, server, [(from_client, bytes)])]."""
    connections = {}
    for _, packet in pcap_records(data):
        if struct.unpack_from(">H", packet, 12)[0] != 0x0800:
            continue
        ip = packet[14:]
        header_length = (ip[0] & 0x0F) * 4
        total = struct.unpack_from(">H", ip, 2)[0]
        segment = ip[header_length:total]
        source_port, destination_port = struct.unpack_from(">HH", segment, 0)
        flags = segment[13]
        payload = segment[(segment[12] >> 4) * 4 :]
        key = tuple(sorted([source_port, destination_port]))
        if flags & SYN and not flags & ACK:
            connections[key] = {"client": source_port, "pieces": []}
        if key not in connections or not payload:
            continue
        connections[key]["pieces"].append((source_port == connections[key]["client"], payload))
    return list(connections.values())


def frames(stream, preface):
    out = []
    offset = 0
    if preface:
        out.append(stream[:24])
        offset = 24
    while offset + 9 <= len(stream):
        length = int.from_bytes(stream[offset : offset + 3], "big")
        out.append(stream[offset : offset + 9 + length])
        offset += 9 + length
    return out


def frame(frame_type, flags, stream_id, payload):
    return len(payload).to_bytes(3, "big") + bytes([frame_type, flags]) + struct.pack(">I", stream_id) + payload


def literal(name, value):
    """An HPACK literal header field without indexing, with a new name (RFC 7541 section 6.2.2)."""
    return bytes([0x00, len(name)]) + name + bytes([len(value)]) + value


def grpc_message(payload):
    return b"\x00" + struct.pack(">I", len(payload)) + payload


def hand_built_call():
    """A GetTrip call written by hand: the client preface, SETTINGS, the request's HEADERS (static
    table and literal fields) and DATA; the server's SETTINGS, response HEADERS, DATA and trailers."""
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    request_headers = bytes([0x83, 0x86]) + literal(b":path", b"/maps.fleetengine.v1.TripService/GetTrip") \
        + literal(b":authority", b"localhost") + literal(b"content-type", b"application/grpc") \
        + literal(b"te", b"trailers")
    request = grpc_message(b"\x1a\x13providers/p/trips/t")
    client = preface + frame(4, 0, 0, struct.pack(">HI", 4, 65535)) + frame(1, 4, 1, request_headers) \
        + frame(0, 1, 1, request)
    response_headers = bytes([0x88]) + literal(b"content-type", b"application/grpc")
    response = grpc_message(b"\x0a\x13providers/p/trips/t")
    trailers = literal(b"grpc-status", b"0") + literal(b"grpc-message", b"")
    server = frame(4, 0, 0, b"") + frame(4, 1, 0, b"") + frame(1, 4, 1, response_headers) + frame(0, 0, 1, response) \
        + frame(1, 5, 1, trailers)
    return client, server


def pieces(chunks):
    """FuzzHTTP2Frames' piece encoding (mode 1): (from_client, bytes) cut into pieces of <= 128."""
    out = bytearray()
    for from_client, data in chunks:
        for start in range(0, len(data), 128):
            piece = data[start : start + 128]
            out += bytes([(0 if from_client else 0x80) | (len(piece) - 1)]) + piece
    return bytes(out)


def made_http2_inputs():
    calls = []
    for connection in tcp_streams(fixture("grpcio-tripservice.pcap")):
        client = b"".join(data for from_client, data in connection["pieces"] if from_client)
        server = b"".join(data for from_client, data in connection["pieces"] if not from_client)
        calls.append((client, server, connection["pieces"]))
    hand_client, hand_server = hand_built_call()
    calls.insert(0, (hand_client, hand_server, [(True, hand_client), (False, hand_server)]))
    for index, (client, server, capture_order) in enumerate(calls[:3]):
        name = "hand-built" if index == 0 else f"grpcio-{index}"
        # Mode 0: the client's stream alone.
        write("FuzzHTTP2Frames", f"{name}-client.bin", bytes([0x01]) + client[: LIMIT - 1])
        # Mode 1: both directions in capture order, as pieces.
        write("FuzzHTTP2Frames", f"{name}-split.bin", bytes([0x03]) + pieces(capture_order)[: LIMIT - 1])
        # Modes 2 and 3: whole frames of both directions interleaved (client frames first per
        # segment, which keeps each request ahead of its response).
        client_frames, server_frames = frames(client, True), frames(server, False)
        merged = bytearray()
        while client_frames or server_frames:
            for queue in (client_frames, server_frames):
                for _ in range(3):
                    if queue:
                        merged += queue.pop(0)
        write("FuzzHTTP2Frames", f"{name}-interleaved.bin", bytes([0x05]) + bytes(merged[: LIMIT - 1]))
        write("FuzzHTTP2Frames", f"{name}-interleaved-whole.bin", bytes([0x27]) + bytes(merged[: LIMIT - 1]))
        # Mode 4: the server's stream through the frame reader, with a gap in the middle; and the
        # client's from mid-stream (no preface, so the reader looks for a boundary).
        first, rest = server[:300], server[300 : LIMIT // 2]
        reader_input = bytearray([0x08])
        for part in (first, b"gap", rest):
            if part == b"gap":
                reader_input += bytes([0x80 | 20])
                continue
            for start in range(0, len(part), 128):
                piece = part[start : start + 128]
                reader_input += bytes([len(piece) - 1]) + piece
        write("FuzzHTTP2Frames", f"{name}-reader-gap.bin", bytes(reader_input))
        # Small message limit and method override (bits 4 and 5), mid-stream start (bit 0 clear).
        write("FuzzHTTP2Frames", f"{name}-midstream-limits.bin", bytes([0x32]) + client[40 : LIMIT - 1])


# --- gRPC wire scripts (FuzzGRPCResponse, FuzzGRPCRequest) ---------------------------------------
# The format is WireFuzzScript's (Sources/WireFuzzing/WireFuzzScript.swift); field names and values
# are picked by their index in WireFuzzVocabulary's lists.

RESPONSE_NAMES = {":status": 0, "content-type": 1, "grpc-status": 2, "grpc-message": 3,
                  "grpc-status-details-bin": 4, "grpc-encoding": 5, "grpc-accept-encoding": 6,
                  "grpc-retry-pushback-ms": 7, "date": 8, "x-trip-bin": 9}
REQUEST_NAMES = {":method": 0, ":scheme": 1, ":path": 2, ":authority": 3, "content-type": 4, "te": 5,
                 "grpc-timeout": 6, "grpc-encoding": 7, "grpc-accept-encoding": 8, "user-agent": 9,
                 "authorization": 10, "x-goog-request-params": 11, "x-trip-bin": 12}
SHARED_VALUES = {"application/grpc": 0, "gzip": 3, "deflate": 4, "identity": 5, "gzip,deflate": 7,
                 "trailers": 10, "0": 11, "14": 12}
RESPONSE_VALUES = dict(SHARED_VALUES, **{"200": 13, "503": 15, "3": 19, "%E2%9C%93 trip %25 done": 23,
                                         "1500": 25})
REQUEST_VALUES = dict(SHARED_VALUES, **{"POST": 13, "https": 15, "/maps.fleetengine.v1.TripService/GetTrip": 17,
                                        "fleetengine.googleapis.com": 21, "1S": 22, "250m": 23,
                                        "Bearer abc": 28, "grpc-swift/2": 29})


def script_length(data, bits=6):
    """A literal's length in a value byte's low bits (all set: the next byte adds to them)."""
    mask = (1 << bits) - 1
    assert len(data) < mask + 256
    return (bytes([len(data)]), b"") if len(data) < mask else (bytes([mask]), bytes([len(data) - mask]))


def script_field(name, value, names, values, kind=None):
    """One field: a name of the vocabulary, and a value of it or a literal (kind 1), unpadded (2) or
    padded (3) base64 of bytes."""
    out = bytes([names[name]])
    if kind is None:
        return out + bytes([values[value]])
    low, extra = script_length(value)
    return out + bytes([kind << 6 | low[0]]) + extra + value


def script_headers(fields, end_stream=False, without_head=False):
    return bytes([0x00 | (0x08 if end_stream else 0) | (0x10 if without_head else 0), len(fields)]) + b"".join(fields)


def script_message(payload, form=0, end_stream=False, whole=False, corrupt=None, cut=None):
    """A message the fuzzer frames: form 0 plain, 1 gzip, 2 deflate, 3 flag 1 uncompressed."""
    flags = form | (0x04 if end_stream else 0) | (0x08 if corrupt else 0) | (0x10 if cut else 0) \
        | (0x40 if len(payload) > 255 else 0) | (0x80 if whole else 0)
    length = struct.pack(">H", len(payload)) if len(payload) > 255 else bytes([len(payload)])
    out = bytes([0x02, flags]) + length + payload
    if corrupt:
        out += bytes(corrupt)
    if cut:
        out += bytes([cut])
    return out


def script_bomb(fill, exponent, form=1):
    """A message of `fill` repeated 2 ** exponent times."""
    return bytes([0x02, form | 0x20, fill, exponent, 0])


def script_data(data, end_stream=False):
    assert len(data) < 15 + 256
    low = min(len(data), 15)
    extra = bytes([len(data) - 15]) if low == 15 else b""
    return bytes([0x01 | (0x08 if end_stream else 0) | low << 4]) + extra + data


def proto_field(number, data):
    return bytes([number << 3 | 2, len(data)]) + data


def any_detail(type_name, value):
    return proto_field(1, b"type.googleapis.com/" + type_name) + proto_field(2, value)


def rpc_status():
    """A google.rpc.Status with an ErrorInfo, a RetryInfo (1.5 s) and a BadRequest."""
    error_info = proto_field(1, b"TRIP_NOT_FOUND") + proto_field(2, b"fleetengine.googleapis.com") \
        + proto_field(3, proto_field(1, b"trip") + proto_field(2, b"t-1"))
    retry_info = proto_field(1, bytes([0x08, 0x01, 0x10]) + bytes([0x80, 0xCA, 0xB5, 0xEE, 0x01]))
    bad_request = proto_field(1, proto_field(1, b"trip.name") + proto_field(2, b"required"))
    details = [any_detail(b"google.rpc.ErrorInfo", error_info), any_detail(b"google.rpc.RetryInfo", retry_info),
               any_detail(b"google.rpc.BadRequest", bad_request)]
    return bytes([0x08, 0x03]) + proto_field(2, b"no trip") + b"".join(proto_field(3, d) for d in details)


def made_response_scripts():
    def field(name, value, kind=None):
        return script_field(name, value, RESPONSE_NAMES, RESPONSE_VALUES, kind)

    head = [field(":status", "200"), field("content-type", "application/grpc"),
            field("grpc-accept-encoding", "gzip,deflate")]
    ok = script_headers([field("grpc-status", "0")], end_stream=True)
    trip = b"\x0a\x13providers/p/trips/t" * 3
    yield "unary-ok.bin", bytes([0x03]) + script_headers(head) + script_message(trip) + ok
    yield "gzip.bin", bytes([0x03]) + script_headers(head + [field("grpc-encoding", "gzip")]) \
        + script_message(trip, form=1) + script_message(b"\x08\x01") + ok
    yield "deflate.bin", bytes([0x01]) + script_headers(head + [field("grpc-encoding", "deflate")]) \
        + script_message(trip, form=2, whole=True) + script_message(b"", form=2) + ok
    details = script_headers([
        field("grpc-status", "3"), field("grpc-message", "%E2%9C%93 trip %25 done"),
        field("grpc-status-details-bin", rpc_status(), kind=2), field("grpc-retry-pushback-ms", "1500"),
        field("x-trip-bin", b"\x00\x01\x02", kind=3)], end_stream=True)
    yield "details.bin", bytes([0x03]) + script_headers(head) + script_message(trip) + details
    yield "trailers-only.bin", bytes([0x03]) + script_headers(
        head + [field("grpc-status", "14"), field("grpc-status-details-bin", rpc_status(), kind=3)], end_stream=True)
    yield "http-503.bin", bytes([0x03]) + script_headers(
        [field(":status", "503"), field("content-type", b"text/html", kind=1)], end_stream=True)
    yield "gzip-bomb.bin", bytes([0x02]) + script_headers(head + [field("grpc-encoding", "gzip")]) \
        + script_bomb(0, 20) + ok
    yield "deflate-corrupt.bin", bytes([0x03]) + script_headers(head + [field("grpc-encoding", "deflate")]) \
        + script_message(trip, form=2, corrupt=(12, 0xFF)) + ok
    yield "truncated.bin", bytes([0x03]) + script_headers(head) + script_message(trip, cut=3) + ok
    yield "reset.bin", bytes([0x03]) + script_headers(head) + script_data(b"\x00\x00\x00\x00\x09abc") \
        + bytes([0x03, 0x08])
    yield "data-end-stream.bin", bytes([0x00]) + script_headers(head) + script_message(trip[:40]) \
        + script_data(b"", end_stream=True)
    yield "trailers-without-head.bin", bytes([0x03]) + script_headers(
        [field("grpc-status", "0"), field("grpc-message", b"done %zz", kind=1)], end_stream=True, without_head=True)
    yield "connection-lost.bin", bytes([0x03]) + script_headers(head) + script_message(trip) + bytes([0x0C])


def made_request_scripts():
    def field(name, value, kind=None):
        return script_field(name, value, REQUEST_NAMES, REQUEST_VALUES, kind)

    head = [field(":method", "POST"), field(":scheme", "https"),
            field(":path", "/maps.fleetengine.v1.TripService/GetTrip"),
            field(":authority", "fleetengine.googleapis.com"), field("grpc-timeout", "1S"),
            field("content-type", "application/grpc"), field("te", "trailers"),
            field("grpc-accept-encoding", "gzip,deflate"), field("user-agent", "grpc-swift/2"),
            field("authorization", "Bearer abc"),
            field("x-goog-request-params", b"name=providers/p/trips/t", kind=1)]
    request = b"\x1a\x13providers/p/trips/t"
    yield "unary.bin", bytes([0x03]) + script_headers(head) + script_message(request) \
        + script_data(b"", end_stream=True)
    yield "gzip.bin", bytes([0x03]) + script_headers(head + [field("grpc-encoding", "gzip")]) \
        + script_message(request * 4, form=1, end_stream=True)
    yield "deflate-bomb.bin", bytes([0x01]) + script_headers(head[:6] + [field("grpc-encoding", "deflate")]) \
        + script_bomb(0x61, 16, form=2) + script_data(b"", end_stream=True)
    yield "headers-only.bin", bytes([0x03]) + script_headers(head[:6] + [field("grpc-timeout", "250m")],
                                                             end_stream=True)
    yield "binary-metadata.bin", bytes([0x03]) + script_headers(
        head[:6] + [field("x-trip-bin", b"\xff\x00trip", kind=3)]) + script_message(request, cut=4) + bytes([0x04])
    yield "reset.bin", bytes([0x03]) + script_headers(head) + script_data(b"\x00\x00\x00") + bytes([0x03, 0x08])


# --- TLS (FuzzTLSKeyLog, FuzzTLSRecords) --------------------------------------------------------


def key_log_bytes(count, tag):
    """Bytes that look random and differ with `tag` (not the harness's secrets)."""
    return bytes((i * 151 + tag * 43 + (i >> 2) * 7 + 9) & 0xFF for i in range(count))


def key_log_line(label, random_tag, secret_length, secret_tag, upper=False):
    text = f"{label} {key_log_bytes(32, random_tag).hex()} {key_log_bytes(secret_length, secret_tag).hex()}"
    return text.upper().replace(label.upper(), label) if upper else text


def made_key_logs():
    """NSS key logs (RFC 9850) as browsers, curl and Go's crypto/tls write them."""
    tls13 = ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
             "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"]
    yield "tls13-five-lines.keylog", "".join(key_log_line(label, 1, 32, 10 + n) + "\n" for n, label in enumerate(tls13))
    yield "tls13-sha384.keylog", "".join(key_log_line(label, 2, 48, 20 + n) + "\n" for n, label in enumerate(tls13))
    yield "client-random.keylog", "".join(key_log_line("CLIENT_RANDOM", 3 + n, 48, 30 + n) + "\n" for n in range(3))
    yield "comments-crlf.keylog", ("# SSL/TLS secrets log file, generated by NSS\r\n\r\n"
                                   + key_log_line("CLIENT_RANDOM", 4, 48, 40, upper=True) + "\r\n"
                                   + "\t" + key_log_line("CLIENT_TRAFFIC_SECRET_0", 4, 32, 41) + "  \r\n"
                                   + "   # indented comment\r\n"
                                   + key_log_line("SERVER_TRAFFIC_SECRET_0", 4, 32, 42).replace(" ", "\t"))
    yield "mixed-connections.keylog", "".join(
        key_log_line(label, 5 + n % 2, 32, 50 + n) + "\n"
        for n, label in enumerate(["CLIENT_EARLY_TRAFFIC_SECRET", "EARLY_EXPORTER_SECRET"] + tls13)) \
        + key_log_line("CLIENT_RANDOM", 7, 48, 60) + "\n"
    yield "malformed-secret-length.keylog", key_log_line("CLIENT_RANDOM", 8, 48, 61) + "\n" \
        + key_log_line("CLIENT_TRAFFIC_SECRET_0", 8, 31, 62) + "\n"
    yield "malformed-fields.keylog", key_log_line("SERVER_TRAFFIC_SECRET_0", 9, 32, 63) + "\n" \
        + "CLIENT_RANDOM " + key_log_bytes(32, 9).hex() + "\n"


# FuzzTLSRecords' script (see Sources/FuzzTLSRecords/RecordScript.swift): content types by index,
# templates by number (PlaintextTemplate), cut modes (RecordScript.segmentSize).
APPLICATION_DATA, HANDSHAKE, ALERT, CHANGE_CIPHER_SPEC = 0, 1, 2, 3
H2_CLIENT_START, H2_REQUEST, H2_SERVER_START, H2_RESPONSE = 0, 1, 2, 3
EE_H2, EE_HTTP1, EE_NONE, FINISHED, KEY_UPDATE, KEY_UPDATE_REQUESTED = 4, 5, 6, 7, 8, 9
NEW_SESSION_TICKET, SERVER_FLIGHT, CLOSE_NOTIFY, BIG_DATA, PING_GOAWAY = 11, 12, 13, 17, 18
FINISHED_HEAD, FINISHED_TAIL, TLS12_SERVER_FLIGHT, TLS12_CLIENT_KEY_EXCHANGE, TLS12_FINISHED = 19, 20, 21, 22, 23
KEEP, WHOLE, BYTE_BY_BYTE, HALVES, FIVE_BYTES, CHUNKS, FIRST_LOST, FIRST_REPEATED, REVERSED = 0, 1, 2, 3, 6, 11, 12, 13, 14


def record_op(server, protected, content_type, template=None, raw=b"", damage=0, amount=0, cut=WHOLE):
    """One operation of a FuzzTLSRecords script."""
    control = (1 if server else 0) | (2 if protected else 0) | content_type << 2 | damage << 5
    shape = amount | cut << 4
    if template is not None:
        return bytes([control | 0x10, shape, template])
    length = bytes([len(raw)]) if len(raw) < 255 else bytes([255]) + struct.pack(">H", len(raw))
    return bytes([control, shape]) + length + raw


def tls13_handshake(padding=0):
    """The server's protected flight (EncryptedExtensions with ALPN h2 to Finished), the client's
    compatibility ChangeCipherSpec and Finished."""
    client, server = False, True
    return b"".join([
        record_op(server, True, HANDSHAKE, SERVER_FLIGHT, amount=padding),
        record_op(client, False, CHANGE_CIPHER_SPEC, raw=b"\x01", cut=KEEP),
        record_op(client, True, HANDSHAKE, FINISHED),
    ])


def tls13_script(padding=0):
    client, server = False, True
    return tls13_handshake(padding) + b"".join([
        record_op(client, True, APPLICATION_DATA, H2_CLIENT_START, cut=KEEP),
        record_op(client, True, APPLICATION_DATA, H2_REQUEST, amount=padding),
        record_op(server, True, HANDSHAKE, NEW_SESSION_TICKET),
        record_op(server, True, APPLICATION_DATA, H2_SERVER_START, cut=KEEP),
        record_op(server, True, APPLICATION_DATA, H2_RESPONSE, cut=FIVE_BYTES),
        record_op(client, True, HANDSHAKE, KEY_UPDATE_REQUESTED),
        record_op(server, True, HANDSHAKE, KEY_UPDATE),
        record_op(client, True, APPLICATION_DATA, raw=bytes.fromhex("000008060000000000") + b"pingping"),
        record_op(server, True, ALERT, CLOSE_NOTIFY),
    ])


def tls12_handshake():
    """The handshake after the hellos: the server's flight in the clear, the client's key exchange,
    each side's ChangeCipherSpec and protected Finished."""
    client, server = False, True
    return b"".join([
        record_op(server, False, HANDSHAKE, TLS12_SERVER_FLIGHT),
        record_op(client, False, HANDSHAKE, TLS12_CLIENT_KEY_EXCHANGE, cut=KEEP),
        record_op(client, False, CHANGE_CIPHER_SPEC, raw=b"\x01", cut=KEEP),
        record_op(client, True, HANDSHAKE, TLS12_FINISHED),
        record_op(server, False, CHANGE_CIPHER_SPEC, raw=b"\x01", cut=KEEP),
        record_op(server, True, HANDSHAKE, TLS12_FINISHED),
    ])


def tls12_script():
    client, server = False, True
    return tls12_handshake() + b"".join([
        record_op(client, True, APPLICATION_DATA, H2_CLIENT_START, cut=KEEP),
        record_op(client, True, APPLICATION_DATA, H2_REQUEST, cut=HALVES),
        record_op(server, True, APPLICATION_DATA, H2_SERVER_START),
        record_op(server, True, APPLICATION_DATA, H2_RESPONSE, cut=BYTE_BY_BYTE),
        record_op(client, True, ALERT, CLOSE_NOTIFY),
    ])


def made_record_scripts():
    """Connections for each suite (settings byte: suite, key log, where it is, bounds, HelloRetryRequest)."""
    for suite, name in enumerate(["tls13-aes128", "tls13-aes256", "tls13-chacha20"]):
        yield f"{name}.bin", bytes([suite]) + tls13_script()
    yield "tls12-aes128.bin", bytes([3]) + tls12_script()
    yield "tls12-chacha20.bin", bytes([4]) + tls12_script()
    yield "tls13-padding-secrets-block.bin", bytes([0x20 | 2]) + tls13_script(padding=9)
    yield "tls13-traffic-secrets-only.bin", bytes([1 << 3 | 0]) + tls13_script()
    yield "tls13-client-traffic-secret-missing.bin", bytes([2 << 3 | 1]) + tls13_script()
    yield "tls12-wrong-master-secret.bin", bytes([2 << 3 | 3]) + tls12_script()
    yield "tls13-other-connection.bin", bytes([3 << 3 | 2]) + tls13_script()
    yield "tls13-hello-retry-small-bounds.bin", bytes([0x80 | 0x40 | 0]) + tls13_script()
    client, server = False, True
    # The server's flight one message per record, its Finished cut across two; ALPN http/1.1.
    yield "tls13-split-finished-http1.bin", bytes([0]) + b"".join([
        record_op(server, True, HANDSHAKE, EE_HTTP1, cut=KEEP),
        record_op(server, True, HANDSHAKE, 10, cut=KEEP),
        record_op(server, True, HANDSHAKE, FINISHED_HEAD, cut=KEEP),
        record_op(server, True, HANDSHAKE, FINISHED_TAIL, cut=CHUNKS),
        record_op(client, True, HANDSHAKE, FINISHED),
        record_op(client, True, APPLICATION_DATA, H2_CLIENT_START),
    ])
    # Damage: a flipped tag bit, a record cut short, a lost segment, big DATA in chunks.
    yield "tls13-damaged.bin", bytes([2]) + b"".join([
        record_op(server, True, HANDSHAKE, SERVER_FLIGHT),
        record_op(client, True, HANDSHAKE, FINISHED),
        record_op(client, True, APPLICATION_DATA, H2_CLIENT_START, cut=REVERSED),
        record_op(client, True, APPLICATION_DATA, BIG_DATA, cut=CHUNKS),
        record_op(client, True, APPLICATION_DATA, PING_GOAWAY, damage=1, amount=3),
        record_op(server, True, APPLICATION_DATA, H2_SERVER_START, cut=FIRST_REPEATED),
        record_op(server, True, APPLICATION_DATA, H2_RESPONSE, damage=2, amount=4),
    ])
    # The GetTrip call's HTTP/2 spelled out rather than named, so that the fuzzer works on its frames.
    h2_client, h2_server = hand_built_call()
    yield "tls13-raw-http2.bin", bytes([0]) + tls13_handshake() + b"".join([
        record_op(client, True, APPLICATION_DATA, raw=h2_client[:90], cut=KEEP),
        record_op(client, True, APPLICATION_DATA, raw=h2_client[90:], cut=CHUNKS),
        record_op(server, True, APPLICATION_DATA, raw=h2_server, amount=4, cut=HALVES),
    ])
    yield "tls12-raw-http2.bin", bytes([3]) + tls12_handshake() + b"".join([
        record_op(client, True, APPLICATION_DATA, raw=h2_client),
        record_op(server, True, APPLICATION_DATA, raw=h2_server[:40], cut=KEEP),
        record_op(server, True, APPLICATION_DATA, raw=h2_server[40:], cut=FIVE_BYTES),
    ])
    yield "tls12-lost-segment.bin", bytes([4]) + tls12_script()[:-3] + record_op(client, True, APPLICATION_DATA,
                                                                               H2_REQUEST, cut=FIRST_LOST)


# --- tokens, names and header values -----------------------------------------------------------

# FuzzJWT's trusted key, the one its verifier holds (a fixed test key, not a credential), and its clock.
JWT_SECRET = b"fuzzing-key-trusted-by-the-verifier-0001"
JWT_NOW = 1_800_000_000
AUDIENCE = "https://fleetengine.googleapis.com/"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims_json(**claims):
    return json.dumps(claims, separators=(",", ":"), sort_keys=True).encode()


def hs256_token(claims, header=b'{"alg":"HS256","typ":"JWT"}', secret=JWT_SECRET):
    signing_input = b64url(header) + "." + b64url(claims)
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return (signing_input + "." + b64url(signature)).encode()


def made_jwt_inputs():
    valid = claims_json(aud=AUDIENCE, exp=JWT_NOW + 600, iat=JWT_NOW - 60, iss="fuzz", sub="fuzz",
                        authorization={"tripid": "trip-1"})
    server = claims_json(aud=[AUDIENCE, "other"], exp=JWT_NOW + 3600, iat=JWT_NOW, nbf=JWT_NOW - 10,
                         authorization={"tripid": "*", "vehicleid": "*"})
    expired = claims_json(aud=AUDIENCE, exp=JWT_NOW - 31, authorization={"tripid": "trip-1"})
    future = claims_json(aud=AUDIENCE, exp=JWT_NOW + 600, nbf=JWT_NOW + 31.5, authorization={"tripid": "t"})
    duplicate = b'{"aud":"' + AUDIENCE.encode() + b'","exp":1800000600,"exp":1,"authorization":{"tripid":"t"}}'
    # Mode 0: token texts.
    yield "token-valid.bin", b"\x00" + hs256_token(valid)
    yield "token-server.bin", b"\x00" + hs256_token(server)
    yield "token-expired.bin", b"\x00" + hs256_token(expired)
    yield "token-kid.bin", b"\x00" + hs256_token(valid, header=b'{"alg":"HS256","kid":"k1","typ":"JWT"}')
    yield "token-none.bin", b"\x00" + hs256_token(valid, header=b'{"alg":"none"}')[:-43]
    yield "token-rs256.bin", b"\x00" + hs256_token(valid, header=b'{"alg":"RS256","typ":"JWT"}')
    yield "token-crit.bin", b"\x00" + hs256_token(valid, header=b'{"alg":"HS256","crit":["exp"]}')
    yield "token-foreign-key.bin", b"\x00" + hs256_token(valid, secret=b"another-key-of-forty-bytes-for-fuzzing-00")
    yield "token-padded.bin", b"\x00" + hs256_token(valid) + b"="
    yield "token-five-parts.bin", b"\x00" + hs256_token(valid) + b".e30.e30"
    # Mode 1: claims sets, signed by the trusted key (byte 1 even) or a foreign one (odd).
    for name, claims in [("valid", valid), ("server", server), ("expired", expired), ("future", future),
                         ("duplicate", duplicate)]:
        yield "claims-" + name + ".bin", b"\x01\x00" + claims
    yield "claims-foreign.bin", b"\x01\x01" + valid
    yield "claims-fraction.bin", b"\x01\x00" + claims_json(aud=AUDIENCE, exp=JWT_NOW + 0.25, iat=1e-3,
                                                           authorization={"tripid": "t\u00e9\u0301"})
    yield "claims-out-of-range.bin", b"\x01\x00" + claims_json(aud=AUDIENCE, exp=1e300, authorization={"tripid": "t"})
    yield "claims-wrong-types.bin", b"\x01\x00" + b'{"aud":7,"exp":"soon","authorization":[]}'
    # Mode 2: where and what to change in a token signed for the trip the rest names.
    for position, replacement, trip in [(0, 0, b"1"), (100, 5, b"a-longer-trip-id"), (180, 64, b"x"),
                                        (255, 1, b"last"), (128, 65, b"\xc3\xa9")]:
        yield "altered-%d.bin" % position, bytes([2, position, replacement]) + trip


def made_name_inputs():
    names = [
        "providers/my-project/trips/trip-1", "providers/a.b_c-9/trips/~!@$%^&*()[]{}<>;'\"", "providers/p/trips/",
        "providers//trips/t", "providers/p/trips/t/extra", "providers/p/vehicles/v", "providers/p/trips/a:b",
        "providers/p/trips/" + "x" * 64, "providers/p/trips/" + "x" * 65, "providers/" + "p" * 64 + "/trips/t",
        "providers/p/trips/\u00e9t\u00e9", "providers/p/trips/\u0301accent", "providers/p/trips/\u0007bell",
        "providers/p/trips/\u00a0nbsp", "providers/p\u00e9/trips/t", "providers/my-project", "providers/",
        "projects/p/trips/t", "providers/p/trips/\U0001F697" * 2,
    ]
    for index, name in enumerate(names):
        yield "trip-%02d.bin" % index, b"\x00" + name.encode()
    for index, name in enumerate(["providers/p/billableTrips/b-1", "providers/p/billableTrips/a#b",
                                  "providers/p/trips/b", "providers/p/billableTrips/\u00fc"]):
        yield "billable-%02d.bin" % index, b"\x01" + name.encode()
    yield "invalid-utf8.bin", b"\x00providers/p/trips/\xff\xfe"


def made_header_value_inputs():
    for text in ["1H", "99999999S", "100000000n", "0n", "00000001m", "250m", "5u", "7M", "12", "S", "1s",
                 "+1S", " 1S", "1S ", "\u0661S"]:
        yield "timeout-" + text.encode().hex() + ".bin", b"\x00" + text.encode()
    for seconds, nanos in [(0, 1), (1, 0), (0, 999_999_999), (99_999, 500), (360_000_000_000, 0),
                           (-5, 0), (2**62, 0), (99_999_999 * 3600 - 1, 999_999_999)]:
        yield "duration-%d-%d.bin" % (seconds, nanos), b"\x01" + struct.pack(">qI", seconds, nanos)
    for text in [b"plain text", b"100%25 sure", b"%E2%9C%93 done", b"broken %zz and %4", b"%", b"%ff%FE",
                 "caf\u00e9 \U0001F697\n\ttab".encode(), b"\xc3\x28 invalid utf-8"]:
        yield "message-" + hashlib.sha1(text).hexdigest()[:8] + ".bin", b"\x02" + text


def framed_message(payload, flag=0):
    return bytes([flag]) + struct.pack(">I", len(payload)) + payload


def made_cli_inputs():
    # Byte 0 % 3: 0 base64, 1 hex, 2 framed (/ 3 % 3: raw, base64, hex; / 9 % 2: identity, gzip).
    for index, text in enumerate([b"aGVsbG8gd29ybGQ=", b"aGk=aGk=", b"aGVs\nbG8g\r\nd29y bGQ", b"-_-_", b"+/+/",
                                  b"aGk", b"a===", b"aG=k", b"a", b"\xe2\x9c\x93"]):
        yield "base64-%02d.bin" % index, b"\x00" + text
    for index, text in enumerate([b"00ff10Ab", b"de ad\nbe\tef", b"abc", b"0g", b""]):
        yield "hex-%02d.bin" % index, b"\x01" + text
    stream = framed_message(b"\x0a\x06trip-1") + framed_message(b"") + framed_message(b"\x08\x01")
    compressed = framed_message(gzip.compress(b"\x0a\x06trip-1", mtime=0), flag=1)
    yield "framed-raw.bin", b"\x02" + stream
    yield "framed-raw-cut.bin", b"\x02" + stream[:-1]
    yield "framed-raw-too-big.bin", b"\x02" + b"\x00\x00\x00\x04\x01"
    yield "framed-base64.bin", b"\x05" + base64.b64encode(stream)
    yield "framed-hex.bin", b"\x08" + stream.hex().encode()
    yield "framed-raw-gzip.bin", b"\x0b" + compressed + stream
    yield "framed-raw-compressed-identity.bin", b"\x02" + compressed


# --- the emulator's journal --------------------------------------------------------------------


def journal_entry(kind, payload):
    body = bytes([kind]) + payload
    return struct.pack("<II", len(payload), zlib.crc32(body)) + body


def made_journal_inputs():
    trip = proto_field(1, b"providers/p/trips/trip-1")
    other = proto_field(1, b"providers/p/trips/trip-2")
    updated = struct.pack("<qi", 1_700_000_000, 500)
    report = proto_field(1, b"providers/p/billableTrips/trip-1")
    journal = (journal_entry(1, trip) + journal_entry(4, updated + other) + journal_entry(2, b"providers/p/trips/trip-1")
               + journal_entry(3, report))
    yield "journal.bin", journal
    yield "journal-torn.bin", journal[:-3]
    yield "journal-zeros.bin", journal + bytes(16)
    yield "journal-bad-crc.bin", journal[:9] + b"\x00" + journal[10:]
    yield "journal-unknown-kind.bin", journal_entry(9, b"x") + journal
    yield "journal-long-length.bin", b"\xff\x00\x00\x00" + journal[4:]
    yield "journal-short-kind-4.bin", journal_entry(4, b"\x01\x02")
    yield "journal-bad-trip.bin", journal_entry(1, b"\x0a\x7f")
    yield "empty.bin", b""


def main():
    for name in ["loopback.pcap", "loopback-nanosecond.pcap", "loopback-sll2.pcap"]:
        write("FuzzCaptureFile", name, fixture(name))
    write("FuzzCaptureFile", "loopback-big-endian.pcap", to_big_endian_pcap(fixture("loopback-sll2.pcap")))
    write("FuzzCaptureFile", "grpcio-tripservice-small.pcap", trim_pcap(fixture("grpcio-tripservice.pcap")))
    write("FuzzCaptureFile", "loopback.pcapng", fixture("loopback.pcapng"))
    write("FuzzCaptureFile", "grpcio-tripservice-small.pcapng",
          trim_blocks(pcapng_blocks(fixture("grpcio-tripservice.pcapng"))))
    for name, data in made_pcaps():
        write("FuzzCaptureFile", name, data)

    # FuzzPcapNG's prefix has the Section Header and Interface Description Blocks: the seeds are
    # what follows them in the fixtures (whose one interface is ETHERNET, like the prefix's first).
    for name in ["loopback.pcapng", "grpcio-tripservice.pcapng"]:
        blocks = [b for b in pcapng_blocks(fixture(name)) if struct.unpack_from("<I", b)[0] not in (0x0A0D0D0A, 1)]
        write("FuzzPcapNG", name.replace(".pcapng", ".blocks"), trim_blocks(blocks))
    for name, data in made_pcapng_blocks():
        write("FuzzPcapNG", name, data)

    for name, data in made_tcp_inputs():
        write("FuzzTCPReassembly", name, data)

    for name, data in made_response_scripts():
        write("FuzzGRPCResponse", name, data)
    for name, data in made_request_scripts():
        write("FuzzGRPCRequest", name, data)

    made_http2_inputs()

    for name, text in made_key_logs():
        write("FuzzTLSKeyLog", name, text.encode())
    for name, data in made_record_scripts():
        write("FuzzTLSRecords", name, data)

    for target, inputs in [("FuzzJWT", made_jwt_inputs()), ("FuzzResourceNames", made_name_inputs()),
                           ("FuzzHeaderValues", made_header_value_inputs()), ("FuzzCLIReaders", made_cli_inputs()),
                           ("FuzzTripJournal", made_journal_inputs())]:
        for name, data in inputs:
            write(target, name, data)


if __name__ == "__main__":
    main()
