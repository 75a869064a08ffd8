import { api, problem } from '../api.js';
import { section } from '../components.js';
import { h, s, show, when } from '../dom.js';

const EVERY_MS = 5000;
const WIDTH = 960;
const HEIGHT = 560;
const TILE = 256;

let settings = null;
const tileUrl = async () => {
  settings ??= fetch('/console/settings.json')
    .then((r) => r.json())
    .catch(() => ({ tile_url: null }));
  return (await settings).tile_url;
};

/** Web Mercator, the world as a unit square (what tile servers cut). */
const project = (lat, lon) => {
  const sin = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return { x: (lon + 180) / 360, y: 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI) };
};

/** Drivers and open requests from the service's memory, redrawn every few seconds, fitted to what there is. */
export function liveView(main) {
  const map = h('div', { class: 'map', id: 'live-map' });
  const summary = h('p', { class: 'muted', id: 'live-summary', role: 'status' }, 'Loading…');
  main.append(section('Live map', summary, map, legend()));
  let stopped = false;
  const tick = async () => {
    const answer = await api('GET', '/admin/live');
    if (stopped) return;
    if (!answer.ok) {
      summary.textContent = problem(answer, 'The live view');
      return;
    }
    const drivers = answer.body.drivers ?? [];
    const requests = answer.body.open_requests ?? [];
    summary.textContent = `${drivers.length} drivers, ${requests.length} open requests · updated ${when(new Date().toISOString())} · every ${EVERY_MS / 1000} s`;
    show(map, draw(drivers, requests, await tileUrl()));
  };
  void tick();
  const timer = setInterval(tick, EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function draw(drivers, requests, tiles) {
  const points = [...drivers, ...requests].map((p) => project(p.latitude, p.longitude));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const span = points.length ? Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1e-5) : 1;
  // The largest zoom at which everything fits, with a margin; the world when there is nothing.
  const zoom = Math.max(1, Math.min(17, Math.floor(Math.log2(Math.min(WIDTH, HEIGHT) / (span * TILE * 1.3)))));
  const size = TILE * 2 ** zoom;
  const cx = points.length ? ((Math.min(...xs) + Math.max(...xs)) / 2) * size : size / 2;
  const cy = points.length ? ((Math.min(...ys) + Math.max(...ys)) / 2) * size : size / 2;
  const left = cx - WIDTH / 2;
  const top = cy - HEIGHT / 2;
  const at = (p) => {
    const q = project(p.latitude, p.longitude);
    return { x: q.x * size, y: q.y * size };
  };
  return s(
    'svg',
    {
      viewBox: `${left} ${top} ${WIDTH} ${HEIGHT}`,
      width: '100%',
      role: 'img',
      'aria-label': `${drivers.length} drivers and ${requests.length} open requests`,
    },
    s('rect', { x: left, y: top, width: WIDTH, height: HEIGHT, class: 'ground' }),
    tiles ? tileImages(tiles, zoom, left, top) : grid(zoom, size, left, top),
    requests.map((r) => {
      const p = at(r);
      return s(
        'rect',
        { x: p.x - 6, y: p.y - 6, width: 12, height: 12, class: 'request', transform: `rotate(45 ${p.x} ${p.y})` },
        s('title', {}, `Open request ${r.id} since ${when(r.created_at)}`),
      );
    }),
    drivers.map((d) => {
      const p = at(d);
      return s(
        'circle',
        { cx: p.x, cy: p.y, r: 6, class: `driver ${d.status}` },
        s('title', {}, `Driver ${d.id}, ${d.status}${d.ride_id ? `, ride ${d.ride_id}` : ''}, seen ${when(d.at)}`),
      );
    }),
  );
}

function tileImages(template, zoom, left, top) {
  const count = 2 ** zoom;
  const images = [];
  for (let tx = Math.floor(left / TILE); tx <= Math.floor((left + WIDTH) / TILE); tx++) {
    for (let ty = Math.max(0, Math.floor(top / TILE)); ty <= Math.min(count - 1, Math.floor((top + HEIGHT) / TILE)); ty++) {
      const x = ((tx % count) + count) % count;
      const href = template.replace('{z}', zoom).replace('{x}', x).replace('{y}', ty);
      images.push(s('image', { href, x: tx * TILE, y: ty * TILE, width: TILE, height: TILE }));
    }
  }
  return s('g', { class: 'tiles' }, images);
}

/** Without tiles: lines of latitude and longitude at a spacing that suits the zoom, labelled. */
function grid(zoom, size, left, top) {
  // The finest round step that keeps meridians 100 px apart (parallels are farther apart in Mercator).
  const steps = [90, 45, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001];
  const step = steps.filter((d) => (d / 360) * size >= 100).pop() ?? steps[0];
  const lines = [];
  const lonAt = (x) => (x / size) * 360 - 180;
  const latAt = (y) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  for (let lon = Math.ceil(lonAt(left) / step) * step; lon <= lonAt(left + WIDTH); lon += step) {
    const x = project(0, lon).x * size;
    lines.push(s('line', { x1: x, y1: top, x2: x, y2: top + HEIGHT }), s('text', { x: x + 3, y: top + 12 }, `${+lon.toFixed(4)}°`));
  }
  for (let lat = Math.ceil(latAt(top + HEIGHT) / step) * step; lat <= latAt(top); lat += step) {
    const y = project(lat, 0).y * size;
    lines.push(s('line', { x1: left, y1: y, x2: left + WIDTH, y2: y }), y - top > 16 ? s('text', { x: left + 3, y: y - 3 }, `${+lat.toFixed(4)}°`) : null);
  }
  return s('g', { class: 'grid' }, lines);
}

function legend() {
  const item = (shape, label) => h('span', {}, shape, ' ', label);
  const mark = (cls, svg) => s('svg', { width: 14, height: 14, viewBox: '-7 -7 14 14', class: 'mark' }, svg(cls));
  return h(
    'p',
    { class: 'legend' },
    [
      ['available', 'driver, available'],
      ['on_ride', 'driver on a ride'],
      ['offline', 'driver, offline'],
    ].map(([status, label]) =>
      item(
        mark(`driver ${status}`, (c) => s('circle', { r: 5, class: c })),
        label,
      ),
    ),
    item(
      mark('request', (c) => s('rect', { x: -4, y: -4, width: 8, height: 8, class: c, transform: 'rotate(45)' })),
      'open request',
    ),
  );
}
