'use strict';
const OUTCOME_COLOURS = { completed: '#2e7d32', cancelled: '#c62828', expired: '#757575', in_progress: '#1565c0' };
const SURGE_COLOUR = '#ff9800';
const DRIVER_COLOURS = ['#8e24aa', '#f57c00', '#00838f', '#6d4c41', '#3949ab', '#c0ca33', '#d81b60', '#00897b', '#5e35b1', '#fb8c00'];
const KM_PER_DEGREE = 111.32;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * A surge ring's radius in pixels: a little wider than the pickup marker (5 px), growing with the
 * multiplier, never with the map's scale (rings sized in kilometres covered most pickups).
 */
const surgeRadius = (surge) => 8 + 6 * Math.min(1, surge - 1);

/**
 * An SVG map of a simulated city: driver paths as polylines, each ride's pickup (circle) and drop-off
 * (square) coloured by outcome with a dashed line between them, a translucent orange ring under each
 * pickup priced with surge, and a legend naming the city and every mark. Equirectangular projection
 * around the centre, accurate enough over a few kilometres.
 */
function renderMap({ centre, city = 'a simulated city', drivers, rides, title = 'Simulated city', width = 900, height = 940 }) {
  const points = [centre, ...drivers.flatMap((d) => d.path), ...rides.flatMap((r) => [r.pickup, r.dropoff])];
  const cos = Math.cos((centre.latitude * Math.PI) / 180);
  const xs = points.map((p) => p.longitude * cos);
  const ys = points.map((p) => p.latitude);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 40;
  const legendHeight = 130;
  const span = Math.max(maxX - minX, maxY - minY, 1e-4);
  const scale = Math.min(width - 2 * margin, height - 2 * margin - legendHeight) / span;
  const x = (p) => (margin + (p.longitude * cos - minX) * scale).toFixed(1);
  const y = (p) => (margin + legendHeight + (maxY - p.latitude) * scale).toFixed(1);
  const pxPerKm = scale / KM_PER_DEGREE;

  const out = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#fafafa"/>`);
  out.push(`<text x="${margin}" y="24" font-size="16" font-weight="bold">${esc(title)}</text>`);
  out.push(
    `<text x="${margin}" y="42" fill="#444">${esc(city)}, around ${centre.latitude.toFixed(3)}° N ${centre.longitude.toFixed(3)}° E: simulated drivers and passengers against the real service</text>`,
  );
  // Drawn first to last: paths, surge rings, ride lines, then the markers on top of them all.
  drivers.forEach((d, i) => {
    if (d.path.length < 2) return;
    const colour = DRIVER_COLOURS[i % DRIVER_COLOURS.length];
    out.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="1.5" stroke-opacity="0.5" points="${d.path.map((p) => `${x(p)},${y(p)}`).join(' ')}"><title>driver ${esc(d.id)}</title></polyline>`,
    );
  });
  const surged = rides.filter((r) => r.surge > 1);
  for (const r of surged) {
    out.push(
      `<circle cx="${x(r.pickup)}" cy="${y(r.pickup)}" r="${surgeRadius(r.surge).toFixed(1)}" fill="${SURGE_COLOUR}" fill-opacity="0.25" stroke="${SURGE_COLOUR}" stroke-width="1.5"><title>surge ×${r.surge.toFixed(2)}</title></circle>`,
    );
  }
  for (const r of rides) {
    const colour = OUTCOME_COLOURS[r.outcome] || OUTCOME_COLOURS.in_progress;
    out.push(
      `<line x1="${x(r.pickup)}" y1="${y(r.pickup)}" x2="${x(r.dropoff)}" y2="${y(r.dropoff)}" stroke="${colour}" stroke-width="0.8" stroke-dasharray="3,3" stroke-opacity="0.6"/>`,
    );
  }
  for (const r of rides) {
    const colour = OUTCOME_COLOURS[r.outcome] || OUTCOME_COLOURS.in_progress;
    const label = esc(`${r.code || r.id} ${r.outcome}`);
    out.push(`<circle cx="${x(r.pickup)}" cy="${y(r.pickup)}" r="5" fill="${colour}" stroke="#fff"><title>pickup ${label}</title></circle>`);
    out.push(
      `<rect x="${(Number(x(r.dropoff)) - 4).toFixed(1)}" y="${(Number(y(r.dropoff)) - 4).toFixed(1)}" width="8" height="8" fill="${colour}" stroke="#fff"><title>drop-off ${label}</title></rect>`,
    );
  }
  out.push(
    `<path d="M${x(centre)} ${(Number(y(centre)) - 6).toFixed(1)} v12 M${(Number(x(centre)) - 6).toFixed(1)} ${y(centre)} h12" stroke="#000" stroke-width="1"/>`,
  );
  out.push(...legend({ rides, drivers, surged, margin, top: 62, pxPerKm }));
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Three rows: the outcomes; the marks of a ride and a driver; surge, the centre and the scale. */
function legend({ rides, drivers, surged, margin, top, pxPerKm }) {
  const out = [];
  const counts = {};
  for (const r of rides) counts[r.outcome] = (counts[r.outcome] || 0) + 1;
  let lx = margin;
  for (const [outcome, colour] of Object.entries(OUTCOME_COLOURS)) {
    out.push(`<circle cx="${lx + 5}" cy="${top}" r="5" fill="${colour}"/>`);
    out.push(`<text x="${lx + 14}" y="${top + 4}">${outcome.replace('_', ' ')} (${counts[outcome] || 0})</text>`);
    lx += 150;
  }
  const row2 = top + 24;
  out.push(`<circle cx="${margin + 5}" cy="${row2}" r="5" fill="#999"/><text x="${margin + 14}" y="${row2 + 4}">pickup</text>`);
  out.push(`<rect x="${margin + 71}" y="${row2 - 4}" width="8" height="8" fill="#999"/><text x="${margin + 84}" y="${row2 + 4}">drop-off</text>`);
  out.push(`<line x1="${margin + 150}" y1="${row2}" x2="${margin + 180}" y2="${row2}" stroke="#999" stroke-width="1.2" stroke-dasharray="3,3"/>`);
  out.push(`<text x="${margin + 186}" y="${row2 + 4}">dashed: one ride, pickup to drop-off (a straight line, not the route)</text>`);
  out.push(`<line x1="${margin + 600}" y1="${row2}" x2="${margin + 630}" y2="${row2}" stroke="${DRIVER_COLOURS[0]}" stroke-width="2"/>`);
  out.push(`<text x="${margin + 636}" y="${row2 + 4}">a driver's path (${drivers.length} drivers)</text>`);
  const row3 = top + 48;
  const peak = surged.reduce((m, r) => Math.max(m, r.surge), 1);
  out.push(
    `<circle cx="${margin + 8}" cy="${row3}" r="${surgeRadius(1.5)}" fill="${SURGE_COLOUR}" fill-opacity="0.25" stroke="${SURGE_COLOUR}" stroke-width="1.5"/><circle cx="${margin + 8}" cy="${row3}" r="5" fill="#999"/>`,
  );
  out.push(
    `<text x="${margin + 24}" y="${row3 + 4}">ring: pickup priced with surge, wider for a higher multiplier (${surged.length} rides, up to ×${peak.toFixed(2)})</text>`,
  );
  out.push(
    `<path d="M${margin + 555} ${row3 - 6} v12 M${margin + 549} ${row3} h12" stroke="#000" stroke-width="1"/><text x="${margin + 568}" y="${row3 + 4}">city centre</text>`,
  );
  const km = pxPerKm > 150 ? 0.5 : pxPerKm < 15 ? 10 : 1;
  const bar = Math.round(km * pxPerKm);
  out.push(
    `<path d="M${margin + 660} ${row3 - 4} v8 h${bar} v-8" fill="none" stroke="#000" stroke-width="1"/><text x="${margin + 666 + bar}" y="${row3 + 4}">${km} km</text>`,
  );
  return out;
}

module.exports = { renderMap, OUTCOME_COLOURS };
