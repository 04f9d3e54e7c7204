'use strict';

// The journey sharing page of one trip: draws each `state` event of the trip's SSE stream on an
// SVG map and in the side panel. Every state is complete, so each one replaces the last.
(() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const METRES_PER_DEGREE = 111320;
  const EARTH_CIRCUMFERENCE = 40075016.686;
  const FIT_PADDING = 48;
  const MAX_TILES = 200;
  const MAX_DRIVEN_POINTS = 20000;

  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const svg = $('map');
  const ui = {
    tiles: $('tiles'),
    grid: $('grid'),
    gridLayer: $('grid-layer'),
    waypointPaths: $('waypoint-paths'),
    driven: $('driven'),
    routeCasing: $('route-casing'),
    route: $('route'),
    traffic: $('traffic'),
    waypoints: $('waypoints'),
    pickup: $('pickup'),
    dropoff: $('dropoff'),
    vehicle: $('vehicle'),
    vehicleBody: document.querySelector('#vehicle .vehicle-body'),
    vehicleArrow: document.querySelector('#vehicle .vehicle-arrow'),
    vehicleDot: document.querySelector('#vehicle .vehicle-dot'),
    mapMessage: $('map-message'),
    scaleBar: $('scale-bar'),
    scaleLine: document.querySelector('#scale-bar .scale-line'),
    scaleLabel: document.querySelector('#scale-bar .scale-label'),
    status: $('status'),
    statusText: $('status-text'),
    pickupEta: $('pickup-eta'),
    pickupEtaIn: $('pickup-eta-in'),
    dropoffEta: $('dropoff-eta'),
    dropoffEtaIn: $('dropoff-eta-in'),
    remainingTime: $('remaining-time'),
    remainingDistance: $('remaining-distance'),
    delay: $('delay'),
    updateAge: $('update-age'),
    error: $('error'),
    connection: $('connection'),
    listLink: $('list-link'),
    tripName: $('trip-name'),
  };

  const STATUS_TEXT = {
    NEW: 'The trip is booked; a driver is being dispatched.',
    ENROUTE_TO_PICKUP: 'The driver is on the way to the pickup.',
    ARRIVED_AT_PICKUP: 'The driver is waiting at the pickup.',
    ARRIVED_AT_INTERMEDIATE_DESTINATION: 'The driver has arrived at a stop on the way.',
    ENROUTE_TO_INTERMEDIATE_DESTINATION: 'On the way to the next stop.',
    ENROUTE_TO_DROPOFF: 'On the way to the drop-off.',
    COMPLETE: 'The trip is complete.',
    CANCELED: 'The trip was canceled.',
    UNKNOWN_TRIP_STATUS: 'The trip\u2019s status is unknown.',
  };
  const DELAY_TEXT = { noData: 'No data', light: 'Light', medium: 'Medium', heavy: 'Heavy' };
  const TRAFFIC_CLASS = { NORMAL: 'traffic-normal', SLOW: 'traffic-slow', TRAFFIC_JAM: 'traffic-jam' };
  const PICKUP_PASSED = new Set([
    'ENROUTE_TO_INTERMEDIATE_DESTINATION', 'ARRIVED_AT_INTERMEDIATE_DESTINATION', 'ENROUTE_TO_DROPOFF', 'COMPLETE',
  ]);

  const clockFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  const kilometreFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

  const config = readConfig();
  const tileTemplate = typeof config.tiles === 'string' && config.tiles.length > 0 ? config.tiles : null;

  let projection = null;
  const view = { cx: 0, cy: 0, scale: 1, fitted: false };
  const size = { width: 0, height: 0 };
  let state = null;
  let world = null;
  // Server clock minus ours, so ages and "in N min" do not depend on the two clocks agreeing.
  let clockSkew = 0;
  const drivenWorld = [];
  let lastDriven = null;
  let source = null;
  let ended = false;
  let renderQueued = false;
  const tileImages = new Map();

  function readConfig() {
    try {
      const parsed = JSON.parse($('config').textContent);
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch (_) {
      return {};
    }
  }

  // Projections map [lat, lng] to "world" units; the view maps world units to CSS pixels.
  function equirectangular(lat0) {
    const k = Math.cos(lat0 * Math.PI / 180);
    return {
      project: (lat, lng) => [lng * k, -lat],
      latitudeAt: (y) => -y,
      metresPerUnit: () => METRES_PER_DEGREE,
    };
  }

  function webMercator() {
    const limit = 85.05112878;
    return {
      project: (lat, lng) => {
        const phi = Math.max(-limit, Math.min(limit, lat)) * Math.PI / 180;
        return [(lng + 180) / 360, (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2];
      },
      latitudeAt: (y) => Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI,
      metresPerUnit: (lat) => EARTH_CIRCUMFERENCE * Math.cos(lat * Math.PI / 180),
    };
  }

  function isNumber(value) {
    return typeof value === 'number' && Number.isFinite(value);
  }

  function isPoint(p) {
    return Array.isArray(p) && p.length >= 2 && isNumber(p[0]) && isNumber(p[1]);
  }

  function isPlace(p) {
    return p !== null && typeof p === 'object' && isNumber(p.lat) && isNumber(p.lng);
  }

  function pathOf(value) {
    return Array.isArray(value) ? value.filter(isPoint) : [];
  }

  function latLngsOf(s) {
    const all = [];
    const add = (lat, lng) => all.push([lat, lng]);
    pathOf(s.route).forEach((p) => add(p[0], p[1]));
    pathOf(s.trafficPath).forEach((p) => add(p[0], p[1]));
    (Array.isArray(s.waypoints) ? s.waypoints : []).forEach((w) => {
      if (isPlace(w)) add(w.lat, w.lng);
      if (w) pathOf(w.path).forEach((p) => add(p[0], p[1]));
    });
    [s.pickup, s.dropoff, s.vehicle].forEach((p) => { if (isPlace(p)) add(p.lat, p.lng); });
    return all;
  }

  function ensureProjection(s) {
    if (projection) return true;
    const points = latLngsOf(s);
    if (points.length === 0) return false;
    if (tileTemplate) {
      projection = webMercator();
    } else {
      let south = Infinity;
      let north = -Infinity;
      for (const [lat] of points) {
        south = Math.min(south, lat);
        north = Math.max(north, lat);
      }
      projection = equirectangular((south + north) / 2);
    }
    return true;
  }

  function project(p) {
    return projection.project(p[0], p[1]);
  }

  // The state's geometry in world units, computed once per state rather than on every pan.
  function worldOf(s) {
    const route = pathOf(s.route).map(project);
    const trafficBase = pathOf(s.trafficPath);
    const trafficPath = trafficBase.length > 0 ? trafficBase.map(project) : route;
    const traffic = [];
    (Array.isArray(s.traffic) ? s.traffic : []).forEach((interval) => {
      if (!interval || !isNumber(interval.from) || !isNumber(interval.to)) return;
      const cls = TRAFFIC_CLASS[interval.speed];
      const from = Math.max(0, Math.floor(interval.from));
      // [from, to) counts points; drawing through point `to` joins the interval to the next one.
      const to = Math.min(trafficPath.length - 1, Math.floor(interval.to));
      if (!cls || to <= from) return;
      traffic.push({ cls: 'traffic ' + cls, points: trafficPath.slice(from, to + 1) });
    });
    const waypoints = Array.isArray(s.waypoints) ? s.waypoints.filter((w) => w && typeof w === 'object') : [];
    const laterPaths = [];
    waypoints.forEach((w, index) => {
      // The first waypoint's path is the active route, drawn already.
      if (index === 0 && route.length > 0) return;
      const path = pathOf(w.path);
      if (path.length > 1) laterPaths.push({ cls: 'waypoint-path', points: path.map(project) });
    });
    const stops = [];
    waypoints.forEach((w, index) => {
      if (isPlace(w) && w.type !== 'PICKUP' && w.type !== 'DROP_OFF') {
        stops.push({ at: projection.project(w.lat, w.lng), label: String(index + 1) });
      }
    });
    return {
      route,
      traffic,
      laterPaths,
      stops,
      pickup: isPlace(s.pickup) ? projection.project(s.pickup.lat, s.pickup.lng) : null,
      dropoff: isPlace(s.dropoff) ? projection.project(s.dropoff.lat, s.dropoff.lng) : null,
      vehicle: isPlace(s.vehicle) ? projection.project(s.vehicle.lat, s.vehicle.lng) : null,
      all: latLngsOf(s).map(project),
    };
  }

  // View.

  function measure() {
    const box = svg.getBoundingClientRect();
    size.width = box.width;
    size.height = box.height;
  }

  function scaleLimits() {
    const lat = projection ? projection.latitudeAt(view.cy) : 0;
    const mpu = projection ? projection.metresPerUnit(lat) : METRES_PER_DEGREE;
    const span = Math.max(1, Math.min(size.width, size.height));
    // From the whole earth in view down to about 20 m across.
    return { min: span / (EARTH_CIRCUMFERENCE / mpu), max: span / (20 / mpu), mpu };
  }

  function clampScale(scale) {
    const { min, max } = scaleLimits();
    return Math.max(min, Math.min(max, scale));
  }

  function fit() {
    if (!world || world.all.length === 0) return false;
    measure();
    if (size.width < 2 || size.height < 2) return false;
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    world.all.forEach(([x, y]) => {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    });
    // Room for the pins above their points, the buttons at the right and the scale bar below.
    const room = (value, side) => Math.min(value, side / 5);
    const top = room(FIT_PADDING + 16, size.height);
    const bottom = room(FIT_PADDING, size.height);
    const left = room(FIT_PADDING - 8, size.width);
    const right = room(FIT_PADDING + 40, size.width);
    // The scale's limits depend on the latitude in view (with web mercator).
    view.cy = (minY + maxY) / 2;
    const { mpu } = scaleLimits();
    // A lone point gets a view about a kilometre across instead of the tightest zoom.
    const minimumSpan = 1000 / mpu;
    view.scale = clampScale(Math.min(
      (size.width - left - right) / Math.max(maxX - minX, minimumSpan),
      (size.height - top - bottom) / Math.max(maxY - minY, minimumSpan),
    ));
    view.cx = (minX + maxX) / 2 - (left - right) / 2 / view.scale;
    view.cy = (minY + maxY) / 2 - (top - bottom) / 2 / view.scale;
    view.fitted = true;
    return true;
  }

  function toScreen(p) {
    return [(p[0] - view.cx) * view.scale + size.width / 2, (p[1] - view.cy) * view.scale + size.height / 2];
  }

  function pointsAttribute(points) {
    let text = '';
    for (const p of points) {
      const [x, y] = toScreen(p);
      text += (text ? ' ' : '') + x.toFixed(1) + ',' + y.toFixed(1);
    }
    return text;
  }

  function zoomAt(screenX, screenY, factor) {
    if (!projection) return;
    const wx = view.cx + (screenX - size.width / 2) / view.scale;
    const wy = view.cy + (screenY - size.height / 2) / view.scale;
    view.scale = clampScale(view.scale * factor);
    view.cx = wx - (screenX - size.width / 2) / view.scale;
    view.cy = wy - (screenY - size.height / 2) / view.scale;
    scheduleRender();
  }

  function panBy(dx, dy) {
    if (!projection) return;
    view.cx -= dx / view.scale;
    view.cy -= dy / view.scale;
    scheduleRender();
  }

  // Drawing.

  function scheduleRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => {
      renderQueued = false;
      render();
    });
  }

  function syncPolylines(group, items) {
    while (group.childElementCount > items.length) group.lastElementChild.remove();
    while (group.childElementCount < items.length) group.appendChild(document.createElementNS(SVG_NS, 'polyline'));
    items.forEach((item, index) => {
      const line = group.children[index];
      line.setAttribute('class', item.cls);
      line.setAttribute('points', pointsAttribute(item.points));
    });
  }

  function placeMarker(element, at) {
    if (!at) {
      element.setAttribute('display', 'none');
      return;
    }
    const [x, y] = toScreen(at);
    element.setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
    element.removeAttribute('display');
  }

  function syncStops(stops) {
    const group = ui.waypoints;
    while (group.childElementCount > stops.length) group.lastElementChild.remove();
    while (group.childElementCount < stops.length) {
      const marker = document.createElementNS(SVG_NS, 'g');
      marker.setAttribute('class', 'waypoint-marker');
      const circle = document.createElementNS(SVG_NS, 'circle');
      circle.setAttribute('r', '9');
      const label = document.createElementNS(SVG_NS, 'text');
      label.setAttribute('y', '0.5');
      marker.append(circle, label);
      group.appendChild(marker);
    }
    stops.forEach((stop, index) => {
      const marker = group.children[index];
      marker.lastElementChild.textContent = stop.label;
      placeMarker(marker, stop.at);
    });
  }

  function render() {
    measure();
    if (!projection || !world) return;
    if (!view.fitted && !fit()) return;
    const route = pointsAttribute(world.route);
    ui.route.setAttribute('points', route);
    ui.routeCasing.setAttribute('points', route);
    syncPolylines(ui.traffic, world.traffic);
    syncPolylines(ui.waypointPaths, world.laterPaths);
    ui.driven.setAttribute('points', pointsAttribute(drivenWorld));
    syncStops(world.stops);
    placeMarker(ui.pickup, world.pickup);
    placeMarker(ui.dropoff, world.dropoff);
    placeMarker(ui.vehicle, world.vehicle);
    renderGrid();
    renderTiles();
    renderScaleBar();
  }

  function renderGrid() {
    const cell = 64;
    const mod = (v) => ((v % cell) + cell) % cell;
    const ox = mod(size.width / 2 - view.cx * view.scale);
    const oy = mod(size.height / 2 - view.cy * view.scale);
    ui.grid.setAttribute('patternTransform', `translate(${ox.toFixed(1)} ${oy.toFixed(1)})`);
  }

  function renderScaleBar() {
    const lat = projection.latitudeAt(view.cy);
    const metresPerPixel = projection.metresPerUnit(lat) / view.scale;
    const target = metresPerPixel * 110;
    const magnitude = Math.pow(10, Math.floor(Math.log10(target)));
    const length = [5, 2, 1].map((m) => m * magnitude).find((m) => m <= target) || magnitude;
    ui.scaleLine.style.width = `${Math.round(length / metresPerPixel)}px`;
    ui.scaleLabel.textContent = length >= 1000 ? `${length / 1000} km` : `${length} m`;
    ui.scaleBar.hidden = false;
  }

  function tileUrl(z, x, y) {
    return tileTemplate.replace(/\{z\}/g, String(z)).replace(/\{x\}/g, String(x)).replace(/\{y\}/g, String(y));
  }

  function renderTiles() {
    if (!tileTemplate) return;
    const z = Math.max(0, Math.min(19, Math.round(Math.log2(view.scale / 256))));
    const n = 2 ** z;
    const halfW = size.width / 2 / view.scale;
    const halfH = size.height / 2 / view.scale;
    const x0 = Math.floor((view.cx - halfW) * n);
    const x1 = Math.floor((view.cx + halfW) * n);
    const y0 = Math.max(0, Math.floor((view.cy - halfH) * n));
    const y1 = Math.min(n - 1, Math.floor((view.cy + halfH) * n));
    const wanted = new Set();
    for (let j = y0; j <= y1; j += 1) {
      for (let i = x0; i <= x1 && wanted.size < MAX_TILES; i += 1) {
        const key = `${z}/${i}/${j}`;
        wanted.add(key);
        let image = tileImages.get(key);
        if (!image) {
          image = document.createElementNS(SVG_NS, 'image');
          image.setAttribute('preserveAspectRatio', 'none');
          image.setAttribute('class', 'tile');
          image.setAttribute('href', tileUrl(z, ((i % n) + n) % n, j));
          tileImages.set(key, image);
          ui.tiles.appendChild(image);
        }
        const [sx, sy] = toScreen([i / n, j / n]);
        const side = view.scale / n;
        // Half a pixel of overlap hides the seams between neighbouring tiles.
        image.setAttribute('x', sx.toFixed(1));
        image.setAttribute('y', sy.toFixed(1));
        image.setAttribute('width', (side + 0.5).toFixed(1));
        image.setAttribute('height', (side + 0.5).toFixed(1));
      }
    }
    for (const [key, image] of tileImages) {
      if (!wanted.has(key)) {
        image.remove();
        tileImages.delete(key);
      }
    }
  }

  // The panel.

  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function serverNow() {
    return Date.now() + clockSkew;
  }

  function formatDuration(seconds) {
    const s = Math.max(0, Math.round(seconds));
    if (s < 60) return `${s} s`;
    const minutes = Math.round(s / 60);
    if (minutes < 60) return `${minutes} min`;
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  }

  function formatDistance(metres) {
    const m = Math.max(0, metres);
    if (m < 1000) return `${m < 100 ? Math.round(m) : Math.round(m / 10) * 10} m`;
    return `${kilometreFormat.format(m >= 10000 ? Math.round(m / 1000) : m / 1000)} km`;
  }

  function formatAge(milliseconds) {
    const s = Math.max(0, Math.floor(milliseconds / 1000));
    if (s < 60) return `${s} s ago`;
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    return `${Math.floor(s / 3600)} h ago`;
  }

  function showEta(clockElement, inElement, eta) {
    if (!isNumber(eta)) {
      setText(clockElement, '\u2014');
      setText(inElement, '');
      return;
    }
    setText(clockElement, clockFormat.format(new Date(eta)));
    const left = (eta - serverNow()) / 1000;
    setText(inElement, left > 0 ? `in ${formatDuration(left)}` : 'now');
  }

  function updatePanel() {
    const s = state;
    const status = typeof s.status === 'string' ? s.status : null;
    setText(ui.status, status || '\u2014');
    ui.status.dataset.status = status || '';
    setText(ui.statusText, (status && STATUS_TEXT[status]) || 'Waiting for the trip\u2019s status.');
    setText(ui.remainingTime, isNumber(s.remainingSeconds) ? formatDuration(s.remainingSeconds) : '\u2014');
    setText(ui.remainingDistance, isNumber(s.remainingMeters) ? formatDistance(s.remainingMeters) : '\u2014');
    const delay = typeof s.delay === 'string' ? s.delay : 'noData';
    setText(ui.delay, DELAY_TEXT[delay] || delay);
    ui.delay.dataset.delay = delay;
    const error = s.error && typeof s.error === 'object' ? s.error : null;
    if (error) {
      const code = typeof error.code === 'string' ? error.code : 'ERROR';
      const message = typeof error.message === 'string' ? error.message : '';
      setText(ui.error, message ? `Last refresh failed: ${code}: ${message}` : `Last refresh failed: ${code}`);
    }
    ui.error.hidden = !error;
    const passed = status !== null && PICKUP_PASSED.has(status);
    ui.pickup.classList.toggle('passed', passed);
    ui.mapMessage.hidden = projection !== null;
    tick();
  }

  // Everything that changes with time alone, once a second.
  function tick() {
    if (!state) return;
    showEta(ui.pickupEta, ui.pickupEtaIn, state.pickupEta);
    showEta(ui.dropoffEta, ui.dropoffEtaIn, state.dropoffEta);
    setText(ui.updateAge, isNumber(state.updatedAt) ? formatAge(serverNow() - state.updatedAt) : 'none yet');
  }

  function updateVehicle(s) {
    const v = s.vehicle;
    if (!isPlace(v)) {
      ui.vehicle.dataset.lat = '';
      ui.vehicle.dataset.lng = '';
      ui.vehicle.dataset.heading = '';
      return;
    }
    ui.vehicle.dataset.lat = String(v.lat);
    ui.vehicle.dataset.lng = String(v.lng);
    const heading = isNumber(v.heading) ? v.heading : null;
    ui.vehicle.dataset.heading = heading === null ? '' : String(heading);
    ui.vehicleArrow.setAttribute('display', heading === null ? 'none' : 'inline');
    ui.vehicleDot.setAttribute('display', heading === null ? 'inline' : 'none');
    if (heading === null) ui.vehicleBody.removeAttribute('transform');
    else ui.vehicleBody.setAttribute('transform', `rotate(${heading})`);
    if (!lastDriven || lastDriven[0] !== v.lat || lastDriven[1] !== v.lng) {
      lastDriven = [v.lat, v.lng];
      drivenWorld.push(projection.project(v.lat, v.lng));
      if (drivenWorld.length > MAX_DRIVEN_POINTS) drivenWorld.splice(0, drivenWorld.length - MAX_DRIVEN_POINTS);
    }
    ui.driven.dataset.points = String(drivenWorld.length);
  }

  function setConnection(name) {
    setText(ui.connection, name);
    ui.connection.dataset.connection = name;
  }

  function onState(event) {
    let s;
    try {
      s = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    if (!s || typeof s !== 'object') return;
    state = s;
    if (isNumber(s.sentAt)) clockSkew = s.sentAt - Date.now();
    if (isNumber(s.seq)) body.dataset.seq = String(s.seq);
    if (ensureProjection(s)) {
      world = worldOf(s);
      updateVehicle(s);
      ui.route.dataset.points = String(world.route.length);
    } else {
      ui.route.dataset.points = '0';
    }
    // Drawn at once, not on the next frame, so hidden tabs stay current too.
    render();
    updatePanel();
    if (s.ended === true) {
      ended = true;
      if (source) source.close();
      setConnection('ended');
      body.dataset.state = 'ended';
    } else {
      body.dataset.state = 'live';
      setConnection('live');
    }
  }

  function connect() {
    if (typeof config.events !== 'string') {
      setText(ui.statusText, 'This page has no live updates configured.');
      setConnection('disconnected');
      return;
    }
    source = new EventSource(config.events);
    source.addEventListener('state', onState);
    source.addEventListener('open', () => {
      if (!ended) setConnection('live');
    });
    source.addEventListener('error', () => {
      if (ended) return;
      if (source.readyState === EventSource.CLOSED) {
        // A refused stream (an expired share link, say) is not retried by EventSource.
        setConnection('disconnected');
        setText(ui.error, 'The server stopped sending updates for this trip. Reload the page to try again.');
        ui.error.hidden = false;
      } else {
        setConnection('reconnecting');
      }
    });
  }

  // Pan and zoom: pointer events cover mouse, pen and touch; two pointers pinch.

  const pointers = new Map();
  let pinch = null;

  function localPoint(event) {
    const box = svg.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  function pinchOf() {
    const [a, b] = [...pointers.values()];
    return { mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], distance: Math.hypot(a[0] - b[0], a[1] - b[1]) };
  }

  svg.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    svg.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, localPoint(event));
    pinch = pointers.size === 2 ? pinchOf() : null;
    svg.classList.add('dragging');
  });

  svg.addEventListener('pointermove', (event) => {
    const previous = pointers.get(event.pointerId);
    if (!previous) return;
    const current = localPoint(event);
    pointers.set(event.pointerId, current);
    if (pointers.size === 1) {
      panBy(current[0] - previous[0], current[1] - previous[1]);
    } else if (pointers.size === 2 && pinch) {
      const next = pinchOf();
      if (pinch.distance > 0 && next.distance > 0) zoomAt(pinch.mid[0], pinch.mid[1], next.distance / pinch.distance);
      panBy(next.mid[0] - pinch.mid[0], next.mid[1] - pinch.mid[1]);
      pinch = next;
    }
  });

  const release = (event) => {
    pointers.delete(event.pointerId);
    pinch = pointers.size === 2 ? pinchOf() : null;
    if (pointers.size === 0) svg.classList.remove('dragging');
  };
  svg.addEventListener('pointerup', release);
  svg.addEventListener('pointercancel', release);

  svg.addEventListener('wheel', (event) => {
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 0.05 : event.deltaMode === 2 ? 1 : 0.002;
    const [x, y] = localPoint(event);
    zoomAt(x, y, Math.exp(-event.deltaY * unit));
  }, { passive: false });

  svg.addEventListener('dblclick', (event) => {
    const [x, y] = localPoint(event);
    zoomAt(x, y, event.shiftKey ? 1 / 2 : 2);
  });

  svg.addEventListener('keydown', (event) => {
    const step = 80;
    const actions = {
      ArrowLeft: () => panBy(step, 0),
      ArrowRight: () => panBy(-step, 0),
      ArrowUp: () => panBy(0, step),
      ArrowDown: () => panBy(0, -step),
      '+': () => zoomAt(size.width / 2, size.height / 2, 1.5),
      '=': () => zoomAt(size.width / 2, size.height / 2, 1.5),
      '-': () => zoomAt(size.width / 2, size.height / 2, 1 / 1.5),
      f: () => { if (fit()) render(); },
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });

  $('zoom-in').addEventListener('click', () => zoomAt(size.width / 2, size.height / 2, 1.5));
  $('zoom-out').addEventListener('click', () => zoomAt(size.width / 2, size.height / 2, 1 / 1.5));
  $('fit').addEventListener('click', () => {
    if (fit()) render();
  });

  // A resize keeps the centre and the zoom; a first fit that found no room yet happens now.
  new ResizeObserver(() => scheduleRender()).observe(svg);

  if (typeof config.list === 'string') {
    ui.listLink.href = config.list;
    ui.listLink.hidden = false;
  }
  if (typeof config.trip === 'string') setText(ui.tripName, config.trip);
  ui.gridLayer.setAttribute('display', tileTemplate ? 'none' : 'inline');
  setInterval(tick, 1000);
  connect();
})();
