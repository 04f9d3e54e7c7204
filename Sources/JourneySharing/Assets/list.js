'use strict';

// The list of followed trips, kept current by the `trips` events of the list's SSE stream.
(() => {
  const $ = (id) => document.getElementById(id);
  const rows = $('trip-rows');
  const empty = $('list-empty');
  const connection = $('connection');

  let config = {};
  try {
    config = JSON.parse($('config').textContent) || {};
  } catch (_) {
    config = {};
  }
  const tripsPrefix = typeof config.trips === 'string' ? config.trips : 'trips/';
  let trips = [];
  // Server clock minus ours, estimated from when each list arrives; ages need no clock agreement.
  let clockSkew = 0;

  function isNumber(value) {
    return typeof value === 'number' && Number.isFinite(value);
  }

  function formatAge(milliseconds) {
    const s = Math.max(0, Math.floor(milliseconds / 1000));
    if (s < 60) return `${s} s ago`;
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    return `${Math.floor(s / 3600)} h ago`;
  }

  function setConnection(name) {
    connection.textContent = name;
    connection.dataset.connection = name;
  }

  function cell(className) {
    const td = document.createElement('td');
    if (className) td.className = className;
    return td;
  }

  function rowFor(trip) {
    const tr = document.createElement('tr');
    tr.className = 'trip-row';
    const name = cell('trip-cell');
    const link = document.createElement('a');
    link.className = 'trip-link';
    const full = document.createElement('span');
    full.className = 'trip-full-name';
    name.append(link, full);
    const status = document.createElement('span');
    status.className = 'status-badge trip-status';
    const statusCell = cell();
    statusCell.appendChild(status);
    tr.append(name, statusCell, cell('numeric trip-viewers'), cell('trip-age'), cell('optional trip-following'));
    return tr;
  }

  function fill(tr, trip) {
    const id = typeof trip.tripId === 'string' ? trip.tripId : '';
    tr.dataset.tripId = id;
    const link = tr.querySelector('.trip-link');
    link.href = tripsPrefix + encodeURIComponent(id);
    link.textContent = id || '(no id)';
    tr.querySelector('.trip-full-name').textContent = typeof trip.trip === 'string' ? trip.trip : '';
    const status = tr.querySelector('.trip-status');
    const statusName = typeof trip.status === 'string' ? trip.status : '';
    status.textContent = statusName || '\u2014';
    status.dataset.status = statusName;
    tr.querySelector('.trip-viewers').textContent = isNumber(trip.viewers) ? String(trip.viewers) : '\u2014';
    tr.querySelector('.trip-following').textContent = trip.ended === true ? 'ended' : trip.following ? 'yes' : 'no';
    tr.querySelector('.trip-age').dataset.updatedAt = isNumber(trip.updatedAt) ? String(trip.updatedAt) : '';
  }

  function tick() {
    for (const td of rows.querySelectorAll('.trip-age')) {
      const at = Number(td.dataset.updatedAt);
      const text = td.dataset.updatedAt ? formatAge(Date.now() + clockSkew - at) : 'none yet';
      if (td.textContent !== text) td.textContent = text;
    }
  }

  function render() {
    const sorted = trips.filter((t) => t && typeof t === 'object')
      .sort((a, b) => String(a.trip).localeCompare(String(b.trip)));
    // Rows are reused by trip, so a link under the pointer is not replaced on every update.
    const existing = new Map([...rows.children].map((tr) => [tr.dataset.tripId, tr]));
    sorted.forEach((trip, index) => {
      const id = typeof trip.tripId === 'string' ? trip.tripId : '';
      let tr = existing.get(id);
      existing.delete(id);
      if (!tr) tr = rowFor(trip);
      fill(tr, trip);
      if (rows.children[index] !== tr) rows.insertBefore(tr, rows.children[index] || null);
    });
    existing.forEach((tr) => tr.remove());
    empty.textContent = 'No trips are listed.';
    empty.hidden = sorted.length > 0;
    tick();
  }

  function onTrips(event) {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    if (!data || !Array.isArray(data.trips)) return;
    // The newest updatedAt is at most "now" on the server: a lower bound for the skew.
    const newest = data.trips.reduce((most, t) => (t && isNumber(t.updatedAt) ? Math.max(most, t.updatedAt) : most),
      -Infinity);
    if (Number.isFinite(newest)) clockSkew = Math.max(0, newest - Date.now());
    trips = data.trips;
    document.body.dataset.state = 'live';
    setConnection('live');
    render();
  }

  if (typeof config.events === 'string') {
    const source = new EventSource(config.events);
    source.addEventListener('trips', onTrips);
    source.addEventListener('open', () => setConnection('live'));
    source.addEventListener('error', () => {
      setConnection(source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting');
    });
  } else {
    setConnection('disconnected');
  }
  setInterval(tick, 1000);
})();
