#!/usr/bin/env python3
"""Journey sharing pages under load: one `fleettrips follow --web` process with many followed trips
and many open trip pages (SSE viewers), its CPU and memory, and how late each update reaches every
viewer of its trip.

    python3 Benchmarks/Scripts/web-load.py [--trips 1000] [--viewers 1000 | --viewers-per-trip K]
        [--interval 5] [--warmup 20] [--seconds 60] [--max-calls-per-minute unlimited]
        [--connect-concurrency 64] [--reconnect-delay 1] [--decode-every 10] [--fleettrips PATH]

The goal it checks: one service process with 1,000 followed trips and 1,000 open viewers stays
under one core and delivers each update to every viewer of its trip within 100 ms at the 99th
percentile.

Starts the emulator (`fleettrips serve --no-auth --simulate --trips N --speed 1 --port 0`) as a
process of its own and reads the simulated trip names it prints, then the service:
`fleettrips follow --web 127.0.0.1:0 --provider P --endpoint 127.0.0.1:PORT --plaintext
--interval S --max-calls-per-minute M ID...`, whose `pages: http://HOST:PORT/` line on standard
error says where the pages are. Then it opens V viewers from this process: viewer i reads
`GET /trips/ID/events` of trip i mod N over a connection of its own (HTTP/1.1 on asyncio's raw
transports; chunked transfer encoding when the server uses it; SSE framing), at most
--connect-concurrency connection attempts at a time and never more than one connection per viewer,
so at most V connections are open. A viewer whose stream closes before its trip has ended
reconnects after --reconnect-delay seconds (or the server's `retry:`), sending `Last-Event-ID` as
EventSource does; one whose trip ended (a state with "ended": true) stops, as the page does. A trip
is followed only while a page of it is open, so only the trips some viewer watches are followed
("followedTrips").

Once every viewer has connected (or --connect-timeout has passed), it waits --warmup seconds, then
measures for --seconds. The delivery latency of a `state` message is the wall clock when this
process read it from its socket (time.time(), the same machine's clock) minus the state's "sentAt"
(the server's wall clock when it made the state). The first state of each connection is left out of
it and reported as "initialStateAgeMs": it is the state the server already had when the viewer
connected (made up to one interval earlier), not the delivery of an update. The service's and the
emulator's CPU (user + system from /proc/PID/stat) and resident memory (/proc/PID/statm) are
sampled every second of the window, each on its own; this process's CPU and its event loop's lag (a
10 ms ticker's delay) are reported too, so that a reader can tell whether the load script itself
held the messages up. All of them share the machine ("machineCores"). "serverView" is what the
server's GET /api/trips says just before and after the window: the viewers it counts, and the
refreshes (GetTrip calls) its trips made in between.

The receiving side is kept cheap so that it is not what makes messages late: a connection's bytes
are split into SSE messages with bytes operations, and a state's data line is searched for the four
fields measured ("sentAt", "seq", "tripId", "ended", which the state has at its top level only)
rather than decoded. One state in --decode-every is decoded with json.loads as well, and checked
against those fields ("scanMismatches") and for every key a state always has ("statesMissingKeys", JourneySharing's "Journey sharing sessions" article).
Decoding every state of a 5 KB trip (about 0.1 ms each, when the updates of 1,000 trips come within
a few hundred milliseconds of each other) made this process the bottleneck at 5,000 viewers.

The trip service follows without a request budget by default (--max-calls-per-minute unlimited), so
that every followed trip is refreshed each interval: with the service's default budget (9000 calls a
minute) 1,000 trips at 5 s would stretch to 6.7 s. --max-calls-per-minute default leaves the
option out.

Prints one JSON object: "inputs", "results" and "goalMet" (the service used less than one core and
p99 <= 100 ms). Exits 0 whether or not the goal is met; non-zero when something broke: a process
that died or printed something unexpected, no state message in the window, an exception. Both
processes are stopped on every way out.

Build fleettrips first, in release:

    swift build -c release --product fleettrips

Python 3 standard library only; Linux (/proc).
"""

import argparse
import asyncio
import collections
import gc
import json
import math
import os
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU time of a process so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        # The command name may hold spaces and parentheses; the fields after its last ")" do not.
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(pid):
    """Resident set size of a process, from /proc/PID/statm."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE_SIZE


def own_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(ordered, p):
    """Nearest-rank percentile of an ascending list."""
    if not ordered:
        return None
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def distribution(values, digits=1):
    ordered = sorted(values)
    if not ordered:
        return {"count": 0}

    def rounded(value):
        return round(value, digits)

    return {"count": len(ordered), "p50": rounded(percentile(ordered, 50)), "p90": rounded(percentile(ordered, 90)),
            "p99": rounded(percentile(ordered, 99)), "max": rounded(ordered[-1]), "min": rounded(ordered[0]),
            "mean": rounded(sum(ordered) / len(ordered))}


def stop(process, name):
    """SIGTERM, then SIGKILL if it has not ended within 15 s. Returns its exit status."""
    if process is None:
        return None
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            sys.stderr.write(f"web-load: {name} did not stop within 15 s of SIGTERM; killing it\n")
            process.kill()
            process.wait()
    return process.returncode


class LineReader(threading.Thread):
    """Reads a process's text stream in a thread of its own, so that it never fills its pipe: lines
    go to a queue until `detach()`, then only the first `echo` of them on to stderr (the rest are
    counted, and the last ones kept for a failure's message)."""

    def __init__(self, stream, name, echo=50, quiet=()):
        super().__init__(daemon=True)
        self.stream, self.name, self.echo, self.quiet = stream, name, echo, quiet
        self.lines = queue.Queue()
        self.detached = False
        self.later = 0
        self.tail = collections.deque(maxlen=20)

    def run(self):
        for line in self.stream:
            self.tail.append(line)
            if not self.detached:
                self.lines.put(line)
                continue
            self.pass_on(line)
        self.lines.put(None)

    def pass_on(self, line):
        if line.startswith(self.quiet):
            return
        self.later += 1
        if self.later <= self.echo:
            sys.stderr.write(f"{self.name}: {line}")

    def next_line(self, timeout):
        """The next line, "" at the end of the stream, None when none came within `timeout`."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return "" if line is None else line

    def detach(self):
        self.detached = True
        # Lines queued before this are passed on.
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)
                return
            self.pass_on(line)


class Measure:
    """What the viewers saw. `window` is True while the measured window is open."""

    def __init__(self):
        self.window = False
        self.latencies = []          # ms, states after the first of their connection, in the window
        self.initial_ages = []       # ms, first state of each connection, in the window
        self.states = 0              # every state message, whole run
        self.window_states = 0
        self.states_by_second = collections.Counter()  # window states by the wall-clock second they came in
        self.ended_states = 0        # states with "ended": true, whole run
        self.window_ended_states = 0
        self.connections = 0         # successful connects (HTTP 200 with headers read)
        self.disconnects = 0         # streams closed before their trip ended (not by us)
        self.window_disconnects = 0
        self.reconnects = 0          # connections opened after a disconnect
        self.window_reconnects = 0
        self.connect_errors = collections.Counter()   # refused, reset, timed out...
        self.http_statuses = collections.Counter()    # statuses other than 200
        self.comments = 0            # ": keepalive" and other comment lines
        self.other_events = collections.Counter()
        self.seq_not_increasing = 0  # within one connection
        self.wrong_trip = 0          # a state whose tripId is not the viewer's trip
        self.bad_messages = 0        # data that is not a JSON object with a number sentAt
        self.decode_every = 1        # json.loads every this many states (the others are scanned)
        self.decode_countdown = 1
        self.decoded = 0             # states json.loads decoded
        self.scan_mismatches = 0     # decoded states whose scanned fields differ
        self.states_missing_keys = 0  # decoded states without every key a state always has
        self.missing_keys = collections.Counter()
        self.protocol_errors = collections.Counter()
        self.not_event_stream = 0    # a 200 whose content type is not text/event-stream
        self.bytes = 0


class Viewer:
    """One trip page's EventSource: the trip it watches and what it received."""

    __slots__ = ("index", "trip_id", "request_path", "connected_once", "ended", "window_states", "last_id",
                 "retry_ms", "protocol")

    def __init__(self, index, trip_id, request_path):
        self.index, self.trip_id, self.request_path = index, trip_id, request_path
        self.connected_once = asyncio.get_running_loop().create_future()
        self.ended = False
        self.window_states = 0
        self.last_id = None
        self.retry_ms = None
        self.protocol = None


HEADERS, SIZE, DATA, DATA_END, DONE = range(5)


class Stream(asyncio.Protocol):
    """One HTTP/1.1 connection of a viewer: the response head, then the body (chunked or not)
    split into SSE messages, with bytes operations; a state's data line is scanned for the four
    fields measured (scan_state), and one in --decode-every decoded with json.loads to check it."""

    def __init__(self, viewer, measure, host_header):
        self.viewer, self.measure, self.host_header = viewer, measure, host_header
        self.closed = asyncio.get_running_loop().create_future()
        self.transport = None
        self.head = bytearray()
        self.state = HEADERS
        self.chunked = False
        self.left = 0                # bytes left of the current chunk
        self.raw = bytearray()       # undecoded chunked framing
        self.body = bytearray()      # decoded body not yet split into messages
        self.scanned = 0             # how much of body has been searched for a message end
        self.pending_cr = False
        self.first = True            # the next state is this connection's first
        self.last_seq = None
        self.ok = False              # 200 and headers read
        self.ended = False           # a state with "ended": true came

    def connection_made(self, transport):
        self.transport = transport
        request = (f"GET {self.viewer.request_path} HTTP/1.1\r\nHost: {self.host_header}\r\n"
                   "Accept: text/event-stream\r\nCache-Control: no-cache\r\n")
        if self.viewer.last_id is not None:
            request += f"Last-Event-ID: {self.viewer.last_id}\r\n"
        transport.write((request + "\r\n").encode())

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(exc)

    def eof_received(self):
        return False  # close

    def fail(self, reason):
        self.measure.protocol_errors[reason] += 1
        self.transport.close()

    def data_received(self, data):
        now = time.time() * 1000.0
        self.measure.bytes += len(data)
        if self.state == HEADERS:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                if len(self.head) > 65536:
                    self.fail("response head over 64 KiB")
                return
            data = bytes(self.head[end + 4:])
            if not self.read_head(bytes(self.head[:end])):
                return
            self.head = None
            if not data:
                return
        if self.chunked:
            self.dechunk(data, now)
        elif self.state != DONE:
            self.feed(data, now)

    def read_head(self, head):
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
            self.fail("bad status line")
            return False
        status = int(parts[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip().lower()
        if status != 200:
            self.measure.http_statuses[status] += 1
            self.transport.close()
            return False
        if not headers.get(b"content-type", b"").startswith(b"text/event-stream"):
            self.measure.not_event_stream += 1
        self.chunked = b"chunked" in headers.get(b"transfer-encoding", b"")
        self.state = SIZE if self.chunked else DATA
        self.ok = True
        self.measure.connections += 1
        viewer = self.viewer
        if not viewer.connected_once.done():
            viewer.connected_once.set_result(None)
        return True

    def dechunk(self, data, now):
        raw = self.raw
        raw += data
        position, length = 0, len(raw)
        pieces = []
        while position < length:
            if self.state == DATA:
                take = min(self.left, length - position)
                pieces.append(raw[position:position + take])
                position += take
                self.left -= take
                if self.left == 0:
                    self.state = DATA_END
            elif self.state == DATA_END:
                if length - position < 2:
                    break
                if raw[position:position + 2] != b"\r\n":
                    self.fail("chunk not followed by CRLF")
                    return
                position += 2
                self.state = SIZE
            elif self.state == SIZE:
                end = raw.find(b"\r\n", position)
                if end < 0:
                    if length - position > 1024:
                        self.fail("chunk size line over 1 KiB")
                        return
                    break
                try:
                    size = int(bytes(raw[position:end]).split(b";", 1)[0].strip(), 16)
                except ValueError:
                    self.fail("bad chunk size")
                    return
                position = end + 2
                if size == 0:
                    # The last chunk: the response is over (trailers are not read).
                    self.state = DONE
                    break
                self.left = size
                self.state = DATA
            else:
                break
        del raw[:position]
        if pieces:
            self.feed(b"".join(pieces), now)
        if self.state == DONE:
            self.transport.close()

    def feed(self, data, now):
        if self.pending_cr or b"\r" in data:
            # SSE lines may end in CRLF, LF or CR: made LF here; a CR at the end waits for the next
            # bytes, which may be its LF.
            if self.pending_cr:
                data = b"\r" + data
            self.pending_cr = data.endswith(b"\r")
            if self.pending_cr:
                data = data[:-1]
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        body = self.body
        body += data
        start = 0
        search = max(0, self.scanned - 1)
        while True:
            end = body.find(b"\n\n", search)
            if end < 0:
                break
            if end > start:
                self.message(bytes(body[start:end]), now)
            start = search = end + 2
        if start:
            del body[:start]
        self.scanned = len(body)

    def message(self, block, now):
        measure = self.measure
        event = b"message"
        data = None
        for line in block.split(b"\n"):
            if not line:
                continue
            if line[0] == 58:  # ":"
                measure.comments += 1
                continue
            name, _, value = line.partition(b":")
            if value[:1] == b" ":
                value = value[1:]
            if name == b"data":
                data = value if data is None else data + b"\n" + value
            elif name == b"event":
                event = value
            elif name == b"id":
                self.viewer.last_id = value.decode("utf-8", "replace")
            elif name == b"retry":
                if value.isdigit():
                    self.viewer.retry_ms = int(value)
        if data is None:
            return
        if event != b"state":
            measure.other_events[event.decode("utf-8", "replace")] += 1
            return
        measure.decode_countdown -= 1
        if measure.decode_countdown <= 0:
            measure.decode_countdown = measure.decode_every
            fields = self.decoded(data)
        else:
            fields = scan_state(data)
            if fields is None:
                # Not in the expected shape: the decoder says what it is.
                fields = self.decoded(data)
        if fields is None:
            return
        sent_at, seq, trip_id, ended = fields
        first, self.first = self.first, False
        measure.states += 1
        if self.last_seq is not None and seq is not None and seq <= self.last_seq:
            measure.seq_not_increasing += 1
        if seq is not None:
            self.last_seq = seq
        if trip_id != self.viewer.trip_id:
            measure.wrong_trip += 1
        if ended:
            measure.ended_states += 1
            self.ended = True
            self.viewer.ended = True
        if measure.window:
            measure.window_states += 1
            measure.states_by_second[int(now // 1000)] += 1
            self.viewer.window_states += 1
            if ended:
                measure.window_ended_states += 1
            (measure.initial_ages if first else measure.latencies).append(now - sent_at)

    def decoded(self, data):
        """The fields of a state from json.loads, checked for every key a state has and against what
        scan_state finds in the same bytes; None (counted) when it is not a state."""
        measure = self.measure
        measure.decoded += 1
        try:
            state = json.loads(data)
        except ValueError:
            measure.bad_messages += 1
            return None
        if not isinstance(state, dict) or not isinstance(state.get("sentAt"), (int, float)) \
                or isinstance(state.get("sentAt"), bool):
            measure.bad_messages += 1
            return None
        missing = STATE_KEYS.difference(state)
        if missing:
            measure.states_missing_keys += 1
            measure.missing_keys.update(missing)
        seq = state.get("seq")
        fields = (state["sentAt"], seq if isinstance(seq, int) else None, state.get("tripId"),
                  state.get("ended") is True)
        if scan_state(data) != fields:
            measure.scan_mismatches += 1
        return fields


# Every key of a state message (the Journey sharing sessions article lists them).
STATE_KEYS = frozenset((
    "trip", "tripId", "seq", "sentAt", "updatedAt", "status", "ended", "vehicle", "route", "traffic", "trafficPath",
    "waypoints", "pickup", "dropoff", "pickupEta", "dropoffEta", "remainingSeconds", "remainingMeters", "delay",
    "error"))

SENT_AT = re.compile(rb'"sentAt":\s*(\d+(?:\.\d+)?)')
SEQ = re.compile(rb'"seq":\s*(\d+)')
TRIP_ID = re.compile(rb'"tripId":\s*"([^"\\]*)"')
ENDED = re.compile(rb'"ended":\s*true')


def scan_state(data):
    """(sentAt, seq, tripId, ended) of a state's data line without decoding the whole of it, or
    None when sentAt is not found: a search for each key, which the state has only at the top
    level (but tripId, also in waypoints, comes before them as the server writes it). A quote in
    the JSON's strings is always escaped, so no string's text can match. json.loads checks this
    on a sample of the messages ("scanMismatches")."""
    sent_at = SENT_AT.search(data)
    if sent_at is None:
        return None
    text = sent_at.group(1)
    seq = SEQ.search(data)
    trip_id = TRIP_ID.search(data)
    return (float(text) if b"." in text else int(text), int(seq.group(1)) if seq else None,
            trip_id.group(1).decode("utf-8", "replace") if trip_id else None, ENDED.search(data) is not None)


async def run_viewer(viewer, measure, host, port, host_header, gate, stopping, reconnect_delay):
    """Keeps one viewer's stream open until its trip ends or the run stops: one connection at a time."""
    loop = asyncio.get_running_loop()
    after_disconnect = False
    while not stopping.is_set():
        async with gate:
            if stopping.is_set():
                return
            try:
                _, stream = await asyncio.wait_for(
                    loop.create_connection(lambda: Stream(viewer, measure, host_header), host, port), 10)
            except (OSError, asyncio.TimeoutError) as error:
                measure.connect_errors[type(error).__name__] += 1
                stream = None
        if stream is not None:
            viewer.protocol = stream
            await stream.closed
            viewer.protocol = None
            if stopping.is_set() or viewer.ended:
                return
            if stream.ok:
                measure.disconnects += 1
                if measure.window:
                    measure.window_disconnects += 1
                after_disconnect = True
        delay = viewer.retry_ms / 1000 if viewer.retry_ms is not None else reconnect_delay
        try:
            await asyncio.wait_for(stopping.wait(), delay)
            return
        except asyncio.TimeoutError:
            pass
        if after_disconnect:
            measure.reconnects += 1
            if measure.window:
                measure.window_reconnects += 1
            after_disconnect = False


async def ticker(lags, measure, stopping, period=0.01):
    """A 10 ms timer: how late the event loop wakes it is how late it reads sockets too."""
    loop = asyncio.get_running_loop()
    expected = loop.time() + period
    while not stopping.is_set():
        await asyncio.sleep(max(0.0, expected - loop.time()))
        now = loop.time()
        if measure.window:
            lags.append((now - expected) * 1000)
        expected = now + period


class Sampler:
    """CPU and RSS of a process, sampled once a second over the window."""

    def __init__(self, process):
        self.process = process
        self.cpu = []   # (monotonic, cpu seconds)
        self.rss = []

    def sample(self, now):
        self.cpu.append((now, cpu_seconds(self.process.pid)))
        self.rss.append(rss_bytes(self.process.pid))

    def report(self):
        (start, cpu_start), (end, cpu_end) = self.cpu[0], self.cpu[-1]
        per_second = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(self.cpu, self.cpu[1:]) if b[0] > a[0]]
        return {"cores": round((cpu_end - cpu_start) / (end - start), 3),
                "cpuSeconds": round(cpu_end - cpu_start, 2),
                "maxCoresInOneSample": round(max(per_second), 3) if per_second else None,
                "rssBytesStart": self.rss[0], "rssBytesEnd": self.rss[-1], "rssBytesMax": max(self.rss)}


async def trip_summaries(host, port, host_header, base):
    """GET BASE/api/trips: the server's own count of viewers and refreshes per trip; an error's text
    instead when it cannot be had."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        try:
            writer.write(f"GET {base}api/trips HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
            response = await asyncio.wait_for(reader.read(), 30)
        finally:
            writer.close()
        head, _, body = response.partition(b"\r\n\r\n")
        status = head.split(b" ", 2)[1]
        if status != b"200":
            return f"HTTP {status.decode()}"
        if b"transfer-encoding: chunked" in head.lower():
            decoded, rest = bytearray(), body
            while True:
                size_line, _, rest = rest.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    break
                decoded += rest[:size]
                rest = rest[size + 2:]
            body = bytes(decoded)
        return json.loads(body)["trips"]
    except (OSError, asyncio.TimeoutError, ValueError, KeyError, IndexError) as error:
        return f"{type(error).__name__}: {error}"


def server_view(before, after, wall):
    """What /api/trips said at the window's start and end."""
    if isinstance(before, str) or isinstance(after, str):
        return {"error": before if isinstance(before, str) else after}

    def total(trips, key):
        return sum(trip.get(key) or 0 for trip in trips)

    refreshes = total(after, "refreshes") - total(before, "refreshes")
    return {"trips": len(after), "viewersAtStart": total(before, "viewers"), "viewersAtEnd": total(after, "viewers"),
            "followingAtStart": sum(bool(trip.get("following")) for trip in before),
            "followingAtEnd": sum(bool(trip.get("following")) for trip in after),
            "endedAtEnd": sum(bool(trip.get("ended")) for trip in after),
            "refreshesInWindow": refreshes, "refreshesPerSecond": round(refreshes / wall, 1)}


def check_alive(processes):
    for name, process in processes.items():
        if process.poll() is not None:
            raise SystemExit(f"web-load: the {name} ended (status {process.returncode}) during the run")


async def load(arguments, pages, trip_ids, processes):
    """Opens the viewers, warms up, measures; returns the results."""
    url = urllib.parse.urlsplit(pages)
    host, port = url.hostname, url.port or 80
    host_header = url.netloc
    base = url.path if url.path.endswith("/") else url.path + "/"
    measure = Measure()
    measure.decode_every = arguments.decode_every
    stopping = asyncio.Event()
    gate = asyncio.Semaphore(arguments.connect_concurrency)
    viewers = []
    for index in range(arguments.viewers):
        trip_id = trip_ids[index % len(trip_ids)]
        path = f"{base}trips/{urllib.parse.quote(trip_id, safe='')}/events"
        viewers.append(Viewer(index, trip_id, path))
    lags = []
    tasks = [asyncio.ensure_future(ticker(lags, measure, stopping))]
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        tasks += [asyncio.ensure_future(run_viewer(viewer, measure, host, port, host_header, gate, stopping,
                                                   arguments.reconnect_delay)) for viewer in viewers]

        # Every viewer connected once, or the connect timeout.
        pending = {viewer.connected_once for viewer in viewers}
        deadline = started + arguments.connect_timeout
        while pending and loop.time() < deadline:
            _, pending = await asyncio.wait(pending, timeout=min(1.0, deadline - loop.time()))
            check_alive(processes)
        connect_seconds = loop.time() - started
        if pending:
            sys.stderr.write(f"web-load: {len(pending)} of {len(viewers)} viewers had not connected after "
                             f"{arguments.connect_timeout} s; going on\n")
        else:
            sys.stderr.write(f"web-load: {len(viewers)} viewers connected in {connect_seconds:.1f} s\n")

        warmup_end = loop.time() + arguments.warmup
        while loop.time() < warmup_end:
            await asyncio.sleep(min(0.5, max(0.0, warmup_end - loop.time())))
            check_alive(processes)

        summaries_before = await trip_summaries(host, port, host_header, base)
        # The viewers' objects, kept for the whole run, are left out of the collector's full passes.
        gc.collect()
        gc.freeze()
        await asyncio.sleep(0.05)  # so that the ticker's first lag in the window is not the collection's
        samplers = {name: Sampler(process) for name, process in processes.items()}
        sys.stderr.write(f"web-load: measuring for {arguments.seconds} s\n")
        open_before = sum(viewer.protocol is not None for viewer in viewers)
        measure.window = True
        window_start = loop.time()
        own_start = own_cpu_seconds()
        for sampler in samplers.values():
            sampler.sample(window_start)
        window_end = window_start + arguments.seconds
        next_sample = window_start + 1
        open_counts = [open_before]
        while True:
            now = loop.time()
            if now >= window_end:
                break
            await asyncio.sleep(max(0.0, min(next_sample, window_end) - now))
            check_alive(processes)
            now = loop.time()
            if now >= next_sample and now < window_end:
                for sampler in samplers.values():
                    sampler.sample(now)
                open_counts.append(sum(viewer.protocol is not None for viewer in viewers))
                next_sample += 1
        measure.window = False
        window_end = loop.time()
        for sampler in samplers.values():
            sampler.sample(window_end)
        own_end = own_cpu_seconds()
        open_counts.append(sum(viewer.protocol is not None for viewer in viewers))
        summaries_after = await trip_summaries(host, port, host_header, base)
    finally:
        stopping.set()
        for viewer in viewers:
            if viewer.protocol is not None and viewer.protocol.transport is not None:
                viewer.protocol.transport.abort()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    wall = window_end - window_start
    counts = sorted(viewer.window_states for viewer in viewers)
    latency = distribution(measure.latencies)
    results = {
        "connectSeconds": round(connect_seconds, 2),
        "viewersNeverConnected": len(pending),
        "windowSeconds": round(wall, 2),
        "deliveryLatencyMs": latency,
        "initialStateAgeMs": distribution(measure.initial_ages),
        "statesInWindow": measure.window_states,
        "statesPerSecond": round(measure.window_states / wall, 1),
        # How bunched the updates come: the most states any one wall-clock second of the window saw.
        "statesInBusiestSecond": max(measure.states_by_second.values(), default=0),
        "statesPerViewer": {"min": counts[0], "median": counts[len(counts) // 2], "max": counts[-1],
                            "viewersWithNone": sum(count == 0 for count in counts)},
        "openStreams": {"windowStart": open_counts[0], "windowEnd": open_counts[-1], "min": min(open_counts)},
        "endedStates": measure.ended_states,
        "endedStatesInWindow": measure.window_ended_states,
        "viewersWhoseTripEnded": sum(viewer.ended for viewer in viewers),
        "connections": measure.connections,
        "disconnects": measure.disconnects,
        "disconnectsInWindow": measure.window_disconnects,
        "reconnects": measure.reconnects,
        "reconnectsInWindow": measure.window_reconnects,
        "connectErrors": dict(measure.connect_errors),
        "httpErrorStatuses": {str(status): count for status, count in measure.http_statuses.items()},
        "protocolErrors": dict(measure.protocol_errors),
        "notEventStreamResponses": measure.not_event_stream,
        "badStateMessages": measure.bad_messages,
        "statesDecoded": measure.decoded,
        "scanMismatches": measure.scan_mismatches,
        "statesMissingKeys": measure.states_missing_keys,
        "missingKeys": dict(measure.missing_keys),
        "seqNotIncreasing": measure.seq_not_increasing,
        "wrongTripStates": measure.wrong_trip,
        "commentLines": measure.comments,
        "otherEvents": dict(measure.other_events),
        "bytesReceived": measure.bytes,
        # The server's own count (GET /api/trips), just before and just after the window.
        "serverView": server_view(summaries_before, summaries_after, wall),
        "service": samplers["service"].report(),
        "emulator": samplers["emulator"].report(),
        "loadScript": {"cores": round((own_end - own_start) / wall, 3), "loopLagMs": distribution(lags, 2)},
    }
    return results, measure


def raise_open_files_limit(needed):
    """Raises the soft limit on open files to `needed` (within the hard limit); the service inherits it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise SystemExit(f"web-load: {needed} open files are needed; the hard limit is {hard}")
    return soft


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=1000, help="simulated trips, all followed (default 1000)")
    parser.add_argument("--viewers", type=int, default=1000,
                        help="SSE viewers; viewer i watches trip i mod --trips (default 1000)")
    parser.add_argument("--viewers-per-trip", type=int,
                        help="K viewers of every trip: --viewers becomes K x --trips")
    parser.add_argument("--interval", type=float, default=5, help="the service's --interval (default 5)")
    parser.add_argument("--warmup", type=float, default=20, help="seconds after every viewer connected (default 20)")
    parser.add_argument("--seconds", type=float, default=60, help="seconds measured (default 60)")
    parser.add_argument("--speed", type=float, default=1,
                        help="the simulated trips' speed (serve --speed; default 1): above 1, trips end within the run")
    parser.add_argument("--provider", default="emulator-project")
    parser.add_argument("--max-calls-per-minute", default="unlimited",
                        help="the service's --max-calls-per-minute; \"default\" leaves it out (default unlimited)")
    parser.add_argument("--connect-concurrency", type=int, default=64,
                        help="connection attempts in progress at once (default 64)")
    parser.add_argument("--connect-timeout", type=float, default=120,
                        help="seconds to wait for every viewer's first connection (default 120)")
    parser.add_argument("--reconnect-delay", type=float, default=1.0,
                        help="seconds before a dropped viewer reconnects, unless the server sent retry: (default 1)")
    parser.add_argument("--decode-every", type=int, default=10,
                        help="json.loads every Kth state and check the fields scanned from the others against it; "
                             "1 decodes all (default 10)")
    parser.add_argument("--startup-timeout", type=float, default=120,
                        help="seconds to wait for the emulator's names and the service's pages: line (default 120)")
    parser.add_argument("--fleettrips", default=os.path.join(ROOT, ".build/release/fleettrips"))
    parser.add_argument("--max-cores", type=float, default=1.0, help="the goal's CPU bound (default 1.0, exclusive)")
    parser.add_argument("--max-p99-ms", type=float, default=100, help="the goal's p99 bound (default 100 ms)")
    arguments = parser.parse_args()
    if arguments.viewers_per_trip is not None:
        arguments.viewers = arguments.viewers_per_trip * arguments.trips
    if min(arguments.trips, arguments.viewers, arguments.connect_concurrency, arguments.decode_every) < 1:
        parser.error("--trips, --viewers, --connect-concurrency and --decode-every must be at least 1")
    if arguments.seconds <= 0 or arguments.warmup < 0:
        parser.error("--seconds must be above 0 and --warmup at least 0")

    # Each viewer is a socket here and one in the service, which inherits the limit.
    open_files = raise_open_files_limit(arguments.viewers + 1024)

    # SIGTERM ends the run through the finally clauses below, as SIGINT does.
    def terminated(number, frame):
        raise SystemExit(f"web-load: signal {number}")

    signal.signal(signal.SIGTERM, terminated)

    emulator = service = service_lines = None
    try:
        emulator = subprocess.Popen(
            [arguments.fleettrips, "serve", "--no-auth", "--simulate", "--trips", str(arguments.trips),
             "--speed", str(arguments.speed), "--provider", arguments.provider, "--port", "0"],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        emulator_lines = LineReader(emulator.stdout, "emulator")
        emulator_lines.start()
        first = emulator_lines.next_line(arguments.startup_timeout)
        if not first or not first.startswith("listening on "):
            raise SystemExit(f"web-load: the emulator printed {first!r} instead of \"listening on HOST:PORT\"")
        emulator_port = int(first.strip().rsplit(":", 1)[1])
        names = []
        while len(names) < arguments.trips:
            line = emulator_lines.next_line(arguments.startup_timeout)
            if not line:
                break
            names.append(line.strip())
        if len(names) != arguments.trips or not all(names):
            raise SystemExit(f"web-load: the emulator printed {len(names)} trip names, not {arguments.trips}")
        emulator_lines.detach()
        prefix = f"providers/{arguments.provider}/trips/"
        if not all(name.startswith(prefix) for name in names):
            raise SystemExit(f"web-load: the emulator's trip names do not all start with {prefix}")
        trip_ids = [name[len(prefix):] for name in names]
        # Only the trips some viewer watches are followed (opened).
        watched = sorted({index % len(trip_ids) for index in range(arguments.viewers)})

        command = [arguments.fleettrips, "follow", "--web", "127.0.0.1:0", "--provider", arguments.provider,
                   "--endpoint", f"127.0.0.1:{emulator_port}", "--plaintext", "--interval", str(arguments.interval)]
        if arguments.max_calls_per_minute != "default":
            command += ["--max-calls-per-minute", arguments.max_calls_per_minute]
        command += trip_ids
        # Ids, not full names: 1,000 of them are about 8 KB of arguments; refuse what exec would.
        argument_bytes = sum(len(argument.encode()) + 1 for argument in command)
        if argument_bytes > os.sysconf("SC_ARG_MAX") // 2:
            raise SystemExit(f"web-load: {argument_bytes} bytes of arguments for {len(trip_ids)} trips is too many")
        service = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
        service_lines = LineReader(service.stderr, "service", quiet=("trip page: ",))
        service_lines.start()
        pages = None
        started = time.monotonic()
        while pages is None:
            line = service_lines.next_line(max(0.0, arguments.startup_timeout - (time.monotonic() - started)))
            if line is None:
                raise SystemExit(f"web-load: the service printed no \"pages:\" line in {arguments.startup_timeout} s")
            if line == "":
                raise SystemExit(f"web-load: the service ended (status {service.wait()}) before its \"pages:\" line")
            if line.startswith("pages: "):
                pages = line[len("pages: "):].strip()
            elif not line.startswith("trip page: "):
                sys.stderr.write(f"service: {line}")
        service_lines.detach()
        if not pages.startswith("http://"):
            raise SystemExit(f"web-load: the service's pages are at {pages!r}, not an http:// URL")
        sys.stderr.write(f"web-load: {len(trip_ids)} trips, pages at {pages}; opening {arguments.viewers} viewers\n")

        processes = {"service": service, "emulator": emulator}
        results, measure = asyncio.run(load(arguments, pages, trip_ids, processes))
        check_alive(processes)
        results["serviceStderrLinesAfterPages"] = service_lines.later

        latency_p99 = results["deliveryLatencyMs"].get("p99")
        cpu_met = results["service"]["cores"] < arguments.max_cores
        latency_met = latency_p99 is not None and latency_p99 <= arguments.max_p99_ms
        report = {
            "inputs": {
                "trips": arguments.trips, "viewers": arguments.viewers, "followedTrips": len(watched),
                "speed": arguments.speed,
                "maxViewersPerTrip": math.ceil(arguments.viewers / arguments.trips),
                "interval": arguments.interval, "warmup": arguments.warmup, "seconds": arguments.seconds,
                "maxCallsPerMinute": arguments.max_calls_per_minute,
                "connectConcurrency": arguments.connect_concurrency, "reconnectDelay": arguments.reconnect_delay,
                "decodeEvery": arguments.decode_every,
                "openFilesLimit": open_files, "machineCores": os.cpu_count(), "fleettrips": arguments.fleettrips,
                "pages": pages,
            },
            "results": results,
            "goal": {"serviceCoresBelow": arguments.max_cores, "p99LatencyMsAtMost": arguments.max_p99_ms},
            "cpuGoalMet": cpu_met,
            "latencyGoalMet": latency_met,
            "goalMet": cpu_met and latency_met,
        }
        print(json.dumps(report, indent=2))
        if measure.window_states == 0:
            raise SystemExit("web-load: no state message arrived in the measured window")
        if results["deliveryLatencyMs"]["count"] == 0:
            raise SystemExit("web-load: no update (a state after a connection's first) arrived in the window")
    except BaseException:
        if service_lines is not None and service_lines.later > service_lines.echo:
            sys.stderr.write("web-load: the service's last lines on standard error:\n"
                             + "".join(f"service: {line}" for line in service_lines.tail))
        raise
    finally:
        service_status = stop(service, "service")
        emulator_status = stop(emulator, "emulator")
        if service is not None and service_status not in (0, -signal.SIGTERM):
            sys.stderr.write(f"web-load: the service exited with status {service_status}\n")
        if emulator is not None and emulator_status not in (0, -signal.SIGTERM):
            sys.stderr.write(f"web-load: the emulator exited with status {emulator_status}\n")


if __name__ == "__main__":
    main()
