#!/usr/bin/env python3
"""Writes the seed corpora of the capture fuzzers into FuzzTesting/Corpora/<Target>/.

Seeds are small valid inputs (each under 16 KiB) taken from the capture test fixtures
(Tests/FleetEngineCaptureTests/Fixtures) or built here. Run from anywhere; it rewrites the
seeds it owns (named seed-*) and leaves files the fuzzer added alone.

    python3 FuzzTesting/make-corpora.py
"""

import os
import struct

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

    made_http2_inputs()


if __name__ == "__main__":
    main()
