#!/usr/bin/env python3
"""Opens the journey sharing pages of `fleettrips demo --web` in headless Chromium, and fails on any fault.

    .venv/bin/python3 Scripts/check-trip-page-in-browser.py [PATH-TO-fleettrips] [--speed F] [--keep-screenshots DIR]

Starts Debian's Chromium (/usr/bin/chromium, headless) and `fleettrips demo --web 127.0.0.1:0`, whose
simulated trip lasts about half a minute, and speaks the DevTools protocol to the browser over a
WebSocket (PyPI's websocket-client). On the trip page it checks that the active route is drawn with
as many points as the state the page shows (read independently from the trip's SSE stream, by seq);
that the vehicle marker moves, in pixels of its colour #1a73e8 found in two PNG screenshots (decoded
here with zlib) as well as in its data attributes; that #status follows the trip to COMPLETE and the
page then ends; that a second tab on the same trip is counted as a second viewer but adds no
refreshes of its own, and is no longer counted once closed; that the list page links to the trip;
that no tab logs a console error or warning, throws, or has a request fail; and that, without
--tiles, every request goes to the demo's own address. Every wait has a deadline; Chromium and
fleettrips are killed on every way out; screenshots go to a temporary directory unless
--keep-screenshots names one. Exits non-zero on the first difference, saying what it expected and
what it saw.
"""

import argparse
import base64
import http.client
import json
import os
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zlib

import websocket

CHROMIUM = "/usr/bin/chromium"
DEADLINE = 60.0
VEHICLE_COLOUR = (0x1A, 0x73, 0xE8)
COLOUR_TOLERANCE = 10
VIEWPORT = (1280, 800)
STATUS_ORDER = {
    "NEW": 0, "ENROUTE_TO_PICKUP": 1, "ARRIVED_AT_PICKUP": 2,
    "ENROUTE_TO_INTERMEDIATE_DESTINATION": 3, "ARRIVED_AT_INTERMEDIATE_DESTINATION": 3,
    "ENROUTE_TO_DROPOFF": 4, "COMPLETE": 5,
}
CHECKS = []
# Installed in every document: reports each text #status takes, so no short-lived status is missed
# between two polls.
STATUS_WATCH = """
document.addEventListener('DOMContentLoaded', () => {
  const element = document.getElementById('status');
  if (!element || typeof window.statusSeen !== 'function') return;
  const report = () => window.statusSeen(element.textContent);
  new MutationObserver(report).observe(element, {childList: true, characterData: true, subtree: true});
  report();
});
"""


def check(condition, what):
    CHECKS.append(what)
    if not condition:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}", flush=True)


def until(probe, what, timeout=DEADLINE, wake=None):
    """Calls probe until it returns something true, waking on `wake` (a Condition) or every 0.2 s."""
    deadline = time.monotonic() + timeout
    while True:
        result = probe()
        if result:
            return result
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit(f"FAILED: {what}: not within {timeout:.0f} s")
        if wake is not None:
            with wake:
                wake.wait(min(0.2, left))
        else:
            threading.Event().wait(min(0.2, left))


def stop_group(process, name, grace=10.0):
    """SIGTERM to the process group, then SIGKILL after `grace` seconds; returns the exit status."""
    if process is None:
        return None
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            status = process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            print(f"{name} did not stop within {grace:.0f} s of SIGTERM; killing it", file=sys.stderr)
            status = None
    else:
        status = process.returncode
    # Also whatever the leader left behind in its group (Chromium's renderers, say).
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return process.wait(timeout=grace) if status is None else status


class LineReader:
    """Drains a pipe on a thread, keeping its lines, so the child never blocks on a full pipe."""

    def __init__(self, stream):
        self.lines = []
        self.done = False
        self.changed = threading.Condition()
        threading.Thread(target=self.run, args=(stream,), daemon=True).start()

    def run(self, stream):
        for line in stream:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.done = True
            self.changed.notify_all()

    def first(self, prefix):
        with self.changed:
            return next((line for line in self.lines if line.startswith(prefix)), None)


class DevTools:
    """One WebSocket to the browser; pages are flattened sessions on it."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=DEADLINE, suppress_origin=True)
        self.lock = threading.Lock()
        self.changed = threading.Condition()
        self.next_id = 0
        self.responses = {}
        self.closed = False
        self.listeners = []
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        try:
            while True:
                message = json.loads(self.socket.recv())
                if "id" not in message:
                    for listener in list(self.listeners):
                        listener(message)
                with self.changed:
                    if "id" in message:
                        self.responses[message["id"]] = message
                    self.changed.notify_all()
        except (websocket.WebSocketException, OSError, ValueError):
            with self.changed:
                self.closed = True
                self.changed.notify_all()

    def send(self, method, params=None, session=None, timeout=DEADLINE):
        with self.lock:
            self.next_id += 1
            number = self.next_id
            message = {"id": number, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        with self.changed:
            while number not in self.responses:
                left = deadline - time.monotonic()
                if self.closed or left <= 0:
                    raise SystemExit(f"FAILED: DevTools {method}: no answer within {timeout:.0f} s")
                self.changed.wait(left)
            response = self.responses.pop(number)
        if "error" in response:
            raise SystemExit(f"FAILED: DevTools {method}: {response['error']}")
        return response.get("result", {})

    def close(self):
        try:
            self.socket.close()
        except (websocket.WebSocketException, OSError):
            pass


class Tab:
    """A page target with the events this check reads: console, exceptions, network, #status changes."""

    def __init__(self, devtools, label):
        self.devtools = devtools
        self.label = label
        self.problems = []
        self.requests = []
        self.statuses = []
        self.loaded = 0
        self.closing = False
        self.target = devtools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = devtools.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        devtools.listeners.append(self.on_event)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
        self.send("Runtime.addBinding", {"name": "statusSeen"})
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source": STATUS_WATCH})

    def send(self, method, params=None):
        return self.devtools.send(method, params, session=self.session)

    def on_event(self, message):
        if message.get("sessionId") != self.session or self.closing:
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(f"console.{params['type']}: {text}")
        elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
            entry = params["entry"]
            self.problems.append(f"log {entry['level']}: {entry.get('text')} {entry.get('url', '')}".rstrip())
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            self.problems.append(f"exception: {text}")
        elif method == "Network.requestWillBeSent":
            self.requests.append((time.monotonic(), params["request"]["url"]))
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            self.problems.append(f"request failed: {params.get('errorText')} ({params.get('type')})")
        elif method == "Network.responseReceived" and params["response"].get("status", 200) >= 400:
            response = params["response"]
            self.problems.append(f"HTTP {response['status']} for {response['url']}")
        elif method == "Runtime.bindingCalled" and params.get("name") == "statusSeen":
            self.statuses.append(params.get("payload"))
        elif method == "Page.loadEventFired":
            self.loaded += 1

    def navigate(self, url):
        loads = self.loaded
        result = self.send("Page.navigate", {"url": url})
        if "errorText" in result:
            raise SystemExit(f"FAILED: {self.label}: navigating to {url}: {result['errorText']}")
        until(lambda: self.loaded > loads, f"{self.label}: the load event of {url}", wake=self.devtools.changed)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise SystemExit(f"FAILED: {self.label}: evaluating {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, clip):
        self.send("Page.bringToFront")
        data = self.send("Page.captureScreenshot", {"format": "png", "clip": dict(clip, scale=1)})["data"]
        return base64.b64decode(data)

    def close(self):
        self.closing = True
        self.devtools.send("Target.closeTarget", {"targetId": self.target})


class StateStream:
    """The trip's SSE stream, read here apart from the browser: every `state` event, by seq."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=DEADLINE)
        self.connection.request("GET", parts.path, headers={"Accept": "text/event-stream"})
        # Kept: the connection lets go of its socket when the response says "Connection: close".
        self.socket = self.connection.sock
        response = self.connection.getresponse()
        check(response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream"),
              f"the trip's SSE answers 200 text/event-stream (got {response.status} "
              f"{response.getheader('Content-Type')})")
        self.response = response
        self.states = {}
        self.stopped = False
        self.failure = None
        self.changed = threading.Condition()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        event, data = None, []
        try:
            for raw in self.response:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if event == "state" and data:
                        state = json.loads("\n".join(data))
                        with self.changed:
                            self.states[state["seq"]] = state
                            self.changed.notify_all()
                    event, data = None, []
                elif line.startswith(":"):
                    continue
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event = value
                    elif field == "data":
                        data.append(value)
        except (OSError, ValueError, http.client.HTTPException) as error:
            if not self.stopped:
                self.failure = error
        with self.changed:
            self.changed.notify_all()

    def state(self, seq):
        with self.changed:
            return self.states.get(seq)

    def stop(self):
        self.stopped = True
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()


def get_json(url):
    with urllib.request.urlopen(url, timeout=DEADLINE) as response:
        return json.loads(response.read())


def summary_of(api, trip_id):
    trips = get_json(api)["trips"]
    found = [t for t in trips if t.get("tripId") == trip_id]
    if len(found) != 1:
        listed = [t.get("tripId") for t in trips]
        raise SystemExit(f"FAILED: /api/trips lists the trip {trip_id} once (it lists {listed})")
    return found[0]


def decode_png(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("FAILED: the screenshot is not a PNG")
    position, idat, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise SystemExit(f"FAILED: the screenshot is a PNG of an unexpected kind {header}")
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(step, stride):
                line[i] = (line[i] + line[i - step]) & 0xFF
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 0xFF
        elif kind == 3:
            for i in range(stride):
                left = line[i - step] if i >= step else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - step] if i >= step else 0
                b = previous[i]
                c = previous[i - step] if i >= step else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, step, rows


def colour_centroid(png):
    """Centroid and count of the pixels within COLOUR_TOLERANCE of the vehicle's colour."""
    width, height, step, rows = decode_png(png)
    r0, g0, b0 = VEHICLE_COLOUR
    count = sx = sy = 0
    for y, row in enumerate(rows):
        for x in range(width):
            i = x * step
            if (abs(row[i] - r0) <= COLOUR_TOLERANCE and abs(row[i + 1] - g0) <= COLOUR_TOLERANCE
                    and abs(row[i + 2] - b0) <= COLOUR_TOLERANCE):
                count += 1
                sx += x
                sy += y
    return (sx / count, sy / count, count) if count else (None, None, 0)


def start_chromium(directory):
    profile = os.path.join(directory, "profile")
    os.mkdir(profile)
    log = open(os.path.join(directory, "chromium.log"), "w")
    process = subprocess.Popen(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         "--remote-debugging-port=0", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--disable-features=Translate,MediaRouter,OptimizationHints", "about:blank"],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    log.close()
    active = os.path.join(profile, "DevToolsActivePort")

    def ready():
        if process.poll() is not None:
            with open(os.path.join(directory, "chromium.log")) as f:
                tail = f.read()[-2000:]
            raise SystemExit(f"FAILED: chromium exited with status {process.returncode}:\n{tail}")
        try:
            with open(active) as f:
                lines = f.read().split("\n")
        except FileNotFoundError:
            return None
        return lines if len(lines) >= 2 and lines[0].strip() and lines[1].strip() else None

    port, path = until(ready, "chromium writes DevToolsActivePort")[:2]
    return process, f"ws://127.0.0.1:{port.strip()}{path.strip()}"


def wait_for_chromium():
    """Chromium may still be being installed when the suite starts; wait for its installer to finish."""
    log = "/tmp/chromium-install.log"
    if os.access(CHROMIUM, os.X_OK) or not os.path.exists(log):
        check(os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} exists (apt-get install chromium)")
        return

    def installed():
        with open(log, errors="replace") as f:
            text = f.read()
        return os.access(CHROMIUM, os.X_OK) and "apt rc=" in text
    until(installed, f"{CHROMIUM} is installed (see {log})", timeout=600)


def start_demo(command, speed, interval):
    process = subprocess.Popen(
        [*command, "demo", "--web", "127.0.0.1:0", "--speed", str(speed), "--interval", str(interval)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        start_new_session=True)
    return process, LineReader(process.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default=".build/debug/fleettrips", help="the fleettrips to check")
    parser.add_argument("--speed", type=float, default=15.0, help="the demo's --speed (about 30 s of trip at 15)")
    parser.add_argument("--interval", type=float, default=0.5, help="the demo's --interval")
    parser.add_argument("--window", type=float, default=4.0, help="seconds the second viewer stays open")
    parser.add_argument("--keep-screenshots", metavar="DIR", help="write the screenshots here and keep them")
    # A stand-in for `fleettrips` (for trying the check against another server); gets `demo --web ...`.
    parser.add_argument("--command", help=argparse.SUPPRESS)
    args = parser.parse_args()
    command = shlex.split(args.command) if args.command else [args.binary]
    if not args.command:
        check(os.access(args.binary, os.X_OK), f"{args.binary} is an executable")

    # SIGTERM unwinds like a failure, through the finally below that stops both processes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("FAILED: interrupted by SIGTERM"))
    wait_for_chromium()
    directory = tempfile.mkdtemp(prefix="check-trip-page-")
    shots = args.keep_screenshots or directory
    os.makedirs(shots, exist_ok=True)
    browser = demo = devtools = stream = None
    stderr = None
    finished = False
    try:
        # The browser first: the trip runs from the demo's start, and none of it should be spent here.
        browser, url = start_chromium(directory)
        devtools = DevTools(url)
        tab = Tab(devtools, "the trip page")

        demo, stderr = start_demo(command, args.speed, args.interval)
        until(lambda: stderr.first("trip page: ") or stderr.done, "fleettrips prints 'trip page: URL'",
              wake=stderr.changed)
        pages_line, trip_line = stderr.first("pages: "), stderr.first("trip page: ")
        check(pages_line is not None and trip_line is not None,
              f"fleettrips demo --web prints 'pages: URL' and 'trip page: URL' (it printed {stderr.lines})")
        check(stderr.lines.index(pages_line) < stderr.lines.index(trip_line), "'pages:' comes before 'trip page:'")
        pages = pages_line[len("pages: "):].strip()
        trip_page = trip_line[len("trip page: "):].strip()
        origin = "{0.scheme}://{0.netloc}/".format(urllib.parse.urlsplit(pages))
        check(origin.startswith("http://127.0.0.1:"), f"the pages are on 127.0.0.1 ({pages})")
        check(trip_page.startswith(pages + "trips/"), f"the trip page {trip_page} is under {pages}trips/")
        trip_id = urllib.parse.unquote(trip_page[len(pages + "trips/"):])
        api = pages + "api/trips"

        # 1. The route, as many points as the state the page shows.
        stream = StateStream(trip_page + "/events")
        tab.navigate(trip_page)
        print(f"trip page {trip_page} loaded")
        observed = {}

        def route_matches():
            page = tab.evaluate("""(() => {
                const route = document.getElementById('route');
                const points = route ? (route.getAttribute('points') || '').trim().split(/\\s+/) : [];
                return {seq: document.body.dataset.seq || null,
                        dataPoints: route ? route.getAttribute('data-points') : null,
                        points: route ? points.filter(Boolean).length : -1,
                        traffic: [...document.querySelectorAll('#map polyline.traffic')]
                            .map(e => e.getAttribute('class'))};
            })()""")
            observed.update(page)
            if stream.failure:
                raise SystemExit(f"FAILED: reading the trip's SSE: {stream.failure}")
            if page["seq"] is None:
                return None
            state = stream.state(int(page["seq"]))
            if state is None or len(state["route"]) < 2:
                return None
            observed["route"] = len(state["route"])
            return page["dataPoints"] == str(len(state["route"])) and page["points"] == len(state["route"]) and (
                page, state)

        page, state = until(route_matches, f"#route drawn with the route of the state of the page's seq "
                                           f"(last seen {observed})", wake=stream.changed)
        # Closed now, so the server has seen it go before the viewers are counted.
        stream.stop()
        check(True, f"#route has data-points {page['dataPoints']} and {page['points']} points, as the route of "
                    f"state {page['seq']} has")
        speeds = {i["speed"] for i in state["traffic"] if i["to"] > i["from"]}
        expected = {"NORMAL": "traffic-normal", "SLOW": "traffic-slow", "TRAFFIC_JAM": "traffic-jam"}
        drawn = {c for classes in page["traffic"] for c in classes.split() if c.startswith("traffic-")}
        check(drawn == {expected[s] for s in speeds},
              f"the traffic overlays of state {page['seq']} are drawn ({sorted(drawn)})")
        markers = tab.evaluate("""['pickup', 'dropoff', 'vehicle'].map(id => {
            const e = document.getElementById(id);
            return e && e.getAttribute('display') !== 'none' && e.getBoundingClientRect().width > 0;
        })""")
        check(all(markers), f"#pickup, #dropoff and #vehicle are shown ({markers})")

        # 2. The vehicle moves, on screen.
        clip = tab.evaluate("""(() => { const b = document.getElementById('map').getBoundingClientRect();
            return {x: b.left, y: b.top, width: b.width, height: b.height}; })()""")
        where = """(() => { const v = document.getElementById('vehicle'); const b = v.getBoundingClientRect();
            return {lat: v.dataset.lat, lng: v.dataset.lng, x: b.left + b.width / 2, y: b.top + b.height / 2}; })()"""

        def still_shot():
            # A state arriving during the capture would leave the pixels and the marker's place apart.
            where_before = tab.evaluate(where)
            png = tab.screenshot(clip)
            return tab.evaluate(where) == where_before and (where_before, png)
        before, first_shot = until(still_shot, "a screenshot between two updates of #vehicle")
        taken = time.monotonic()

        def moved():
            now = tab.evaluate(where)
            far = abs(now["x"] - before["x"]) + abs(now["y"] - before["y"]) >= 12
            return (now["lat"], now["lng"]) != (before["lat"], before["lng"]) and far and \
                time.monotonic() - taken >= 1.5 and now
        until(moved, f"#vehicle moves on the map (it stayed at {before})", wake=devtools.changed)
        after, second_shot = until(still_shot, "a screenshot between two updates of #vehicle")
        for name, png in (("vehicle-1.png", first_shot), ("vehicle-2.png", second_shot)):
            with open(os.path.join(shots, name), "wb") as f:
                f.write(png)
        check(True, f"#vehicle's data-lat/lng changed from {before['lat']},{before['lng']} to "
                    f"{after['lat']},{after['lng']}")

        # 4. A second viewer shares the first one's following.
        until(lambda: summary_of(api, trip_id)["viewers"] == 1,
              "/api/trips counts 1 viewer once only the trip page is open")
        sent = time.monotonic()
        start = summary_of(api, trip_id)
        second = Tab(devtools, "the second trip page")
        second.navigate(trip_page)
        until(lambda: second.evaluate("document.body.dataset.seq || ''"), "the second tab receives a state",
              wake=devtools.changed)
        counts = []

        def both_counted():
            summary = summary_of(api, trip_id)
            if summary["ended"]:
                raise SystemExit("FAILED: the trip ended while the second tab was open; run with a lower --speed")
            counts.append(summary["viewers"])
            return summary["viewers"] == 2 and time.monotonic() - sent >= args.window and summary
        until(both_counted, "/api/trips counts 2 viewers with two tabs open", timeout=DEADLINE + args.window)
        end = summary_of(api, trip_id)
        elapsed = time.monotonic() - sent
        check(end["viewers"] == 2, f"/api/trips counts 2 viewers with both tabs open ({end['viewers']})")
        grown = end["refreshes"] - start["refreshes"]
        bound = elapsed / args.interval + 2
        check(grown <= bound, f"the second viewer adds no refreshes: {grown} in {elapsed:.1f} s "
                              f"(at most {bound:.0f} for one following at {args.interval} s)")
        second.close()
        until(lambda: summary_of(api, trip_id)["viewers"] == 1, "/api/trips counts 1 viewer again once the "
                                                                 "second tab is closed")
        check(True, "closing the second tab brings the viewers back to 1")

        # 3. The status follows the trip to COMPLETE, and the page ends.
        until(lambda: tab.evaluate("document.body.dataset.state") == "ended",
              "the trip page reaches body.dataset.state 'ended'", timeout=DEADLINE * 3, wake=devtools.changed)
        ended_at = time.monotonic()
        final = tab.evaluate("""({status: document.getElementById('status').textContent,
            connection: document.getElementById('connection').textContent, state: document.body.dataset.state})""")
        seen = []
        for status in tab.statuses:
            if status in STATUS_ORDER and (not seen or seen[-1] != status):
                seen.append(status)
        check(seen and seen[-1] == "COMPLETE" and final["status"] == "COMPLETE",
              f"#status follows the trip to COMPLETE (seen {seen}, now {final['status']!r})")
        check(len(seen) >= 2, f"#status showed more than one status on the way ({seen})")
        check(all(STATUS_ORDER[a] <= STATUS_ORDER[b] for a, b in zip(seen, seen[1:])),
              f"#status never goes back ({seen})")
        check(final["connection"] == "ended", f"#connection says 'ended' at the end ({final['connection']!r})")
        with open(os.path.join(shots, "trip-ended.png"), "wb") as f:
            f.write(tab.screenshot({"x": 0, "y": 0, "width": VIEWPORT[0], "height": VIEWPORT[1]}))

        # 6. The list page links to the trip.
        listing = Tab(devtools, "the list page")
        listing.navigate(pages)
        target = json.dumps(trip_page)

        def listed():
            return listing.evaluate(f"""(() => {{
                const link = [...document.querySelectorAll('a[href]')].find(a => a.href === {target});
                if (!link) return null;
                const row = link.closest('tr, li, [data-trip-id]') || document.body;
                return row.textContent.includes('COMPLETE') && row.textContent.includes({json.dumps(trip_id)});
            }})()""")
        until(listed, f"the list page {pages} shows {trip_id} as COMPLETE with a link to {trip_page}",
              wake=devtools.changed)
        check(True, f"the list page shows {trip_id} as COMPLETE with a link to its page")
        with open(os.path.join(shots, "list.png"), "wb") as f:
            f.write(listing.screenshot({"x": 0, "y": 0, "width": VIEWPORT[0], "height": VIEWPORT[1]}))

        # 2, in pixels (decoded last: it takes a few seconds in pure Python).
        x1, y1, n1 = colour_centroid(first_shot)
        x2, y2, n2 = colour_centroid(second_shot)
        check(n1 >= 20 and n2 >= 20, f"both screenshots show the vehicle's colour #1a73e8 ({n1} and {n2} pixels)")
        shift = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        marker = ((after["x"] - before["x"]) ** 2 + (after["y"] - before["y"]) ** 2) ** 0.5
        check(shift >= 5, f"the pixels of #1a73e8 moved {shift:.1f} px between the screenshots")
        check(abs(shift - marker) <= max(6, marker * 0.25),
              f"they moved as far as #vehicle did ({shift:.1f} px against {marker:.1f} px)")

        # 3, continued: the ended page does not reconnect.
        events = urllib.parse.urlsplit(trip_page + "/events").path
        again = [u for t, u in tab.requests if t > ended_at and urllib.parse.urlsplit(u).path == events]
        check(not again, f"the ended page opened no new SSE stream ({len(again)})")

        # 5. No console errors or warnings, exceptions or failed requests, in any tab.
        for each in (tab, second, listing):
            check(not each.problems, f"{each.label}: no console error or warning, exception or failed request "
                                     f"({each.problems})")
        # 7. Without --tiles, nothing but the demo's own address.
        for each in (tab, second, listing):
            foreign = [u for _, u in each.requests if not u.startswith(origin) and not u.startswith("data:")]
            check(not foreign, f"{each.label}: every request goes to {origin} ({len(each.requests)} requests; "
                               f"others: {foreign})")

        status = stop_group(demo, "fleettrips")
        demo = None
        check(status == 0, f"fleettrips demo --web exits with status 0 on SIGTERM ({status})")
        finished = True
    finally:
        # Each step on its own, so that one failing does not leave a process behind.
        for step in (stream and stream.stop, devtools and devtools.close,
                     lambda: stop_group(browser, "chromium"), lambda: stop_group(demo, "fleettrips")):
            try:
                if step:
                    step()
            except Exception as error:  # noqa: BLE001 - cleanup goes on whatever failed
                print(f"cleaning up: {error!r}", file=sys.stderr)
        if not finished and stderr is not None:
            print("fleettrips's standard error:\n  " + "\n  ".join(stderr.lines[-20:]), file=sys.stderr)
        shutil.rmtree(directory, ignore_errors=True)
    kept = f"; screenshots in {args.keep_screenshots}" if args.keep_screenshots else ""
    print(f"the journey sharing pages passed {len(CHECKS)} checks in Chromium{kept}")


if __name__ == "__main__":
    main()
