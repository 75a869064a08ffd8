/* global module */
'use strict';
const OUTCOME_COLOURS = { completed: '#2e7d32', cancelled: '#c62828', expired: '#757575', in_progress: '#1565c0' };
const SURGE_COLOUR = '#ff9800';
const DRIVER_COLOURS = ['#8e24aa', '#f57c00', '#00838f', '#6d4c41', '#3949ab', '#c0ca33', '#d81b60', '#00897b', '#5e35b1', '#fb8c00'];

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * An SVG map of a simulated city: driver paths as polylines, each ride's pickup (circle) and drop-off
 * (square) coloured by outcome, a dashed line between them, an orange halo around the pickups priced
 * with surge (the stronger the multiplier, the larger and darker), and a legend. Equirectangular projection
 * around the centre, which is accurate enough over a few kilometres.
 */
function renderMap({ centre, drivers, rides, title = 'Simulated city', width = 900, height = 900 }) {
  const points = [centre, ...drivers.flatMap((d) => d.path), ...rides.flatMap((r) => [r.pickup, r.dropoff])];
  const cos = Math.cos((centre.latitude * Math.PI) / 180);
  const xs = points.map((p) => p.longitude * cos);
  const ys = points.map((p) => p.latitude);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 40;
  const legendHeight = 90;
  const span = Math.max(maxX - minX, maxY - minY, 1e-4);
  const scale = Math.min(width - 2 * margin, height - 2 * margin - legendHeight) / span;
  const x = (p) => (margin + (p.longitude * cos - minX) * scale).toFixed(1);
  const y = (p) => (margin + legendHeight + (maxY - p.latitude) * scale).toFixed(1);

  const out = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="#fafafa"/>`);
  out.push(`<text x="${margin}" y="24" font-size="16" font-weight="bold">${esc(title)}</text>`);
  drivers.forEach((d, i) => {
    if (d.path.length < 2) return;
    const colour = DRIVER_COLOURS[i % DRIVER_COLOURS.length];
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" stroke-opacity="0.7" points="${d.path.map((p) => `${x(p)},${y(p)}`).join(' ')}"><title>driver ${esc(d.id)}</title></polyline>`);
  });
  const surged = rides.filter((r) => r.surge > 1);
  for (const r of surged) {
    const radius = ((0.3 + (r.surge - 1)) * scale) / 111.32; // km → px
    out.push(`<circle cx="${x(r.pickup)}" cy="${y(r.pickup)}" r="${radius.toFixed(1)}" fill="${SURGE_COLOUR}" fill-opacity="${Math.min(0.5, 0.15 * r.surge).toFixed(2)}"><title>surge ×${r.surge.toFixed(2)}</title></circle>`);
  }
  for (const r of rides) {
    const colour = OUTCOME_COLOURS[r.outcome] || OUTCOME_COLOURS.in_progress;
    const label = esc(`${r.code || r.id} ${r.outcome}`);
    out.push(`<line x1="${x(r.pickup)}" y1="${y(r.pickup)}" x2="${x(r.dropoff)}" y2="${y(r.dropoff)}" stroke="${colour}" stroke-width="0.8" stroke-dasharray="3,3" stroke-opacity="0.6"/>`);
    out.push(`<circle cx="${x(r.pickup)}" cy="${y(r.pickup)}" r="5" fill="${colour}" stroke="#fff"><title>pickup ${label}</title></circle>`);
    out.push(`<rect x="${(Number(x(r.dropoff)) - 4).toFixed(1)}" y="${(Number(y(r.dropoff)) - 4).toFixed(1)}" width="8" height="8" fill="${colour}" stroke="#fff"><title>drop-off ${label}</title></rect>`);
  }
  out.push(`<path d="M${x(centre)} ${(Number(y(centre)) - 6).toFixed(1)} v12 M${(Number(x(centre)) - 6).toFixed(1)} ${y(centre)} h12" stroke="#000" stroke-width="1"/>`);

  const counts = {};
  for (const r of rides) counts[r.outcome] = (counts[r.outcome] || 0) + 1;
  let lx = margin;
  const ly = 48;
  for (const [outcome, colour] of Object.entries(OUTCOME_COLOURS)) {
    out.push(`<circle cx="${lx + 5}" cy="${ly}" r="5" fill="${colour}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly + 4}">${outcome.replace('_', ' ')} (${counts[outcome] || 0})</text>`);
    lx += 150;
  }
  out.push(`<circle cx="${margin + 5}" cy="${ly + 24}" r="5" fill="#999"/><text x="${margin + 14}" y="${ly + 28}">pickup</text>`);
  out.push(`<rect x="${margin + 71}" y="${ly + 20}" width="8" height="8" fill="#999"/><text x="${margin + 84}" y="${ly + 28}">drop-off</text>`);
  out.push(`<line x1="${margin + 150}" y1="${ly + 24}" x2="${margin + 180}" y2="${ly + 24}" stroke="${DRIVER_COLOURS[0]}" stroke-width="2"/><text x="${margin + 186}" y="${ly + 28}">driver path (${drivers.length} drivers)</text>`);
  out.push(`<text x="${margin + 400}" y="${ly + 28}">+ city centre; 1 km = ${(scale / 111.32).toFixed(0)} px</text>`);
  const peak = surged.reduce((m, r) => Math.max(m, r.surge), 1);
  out.push(`<circle cx="${margin + 605}" cy="${ly + 24}" r="6" fill="${SURGE_COLOUR}" fill-opacity="0.4"/><text x="${margin + 616}" y="${ly + 28}">surge (${surged.length} rides, up to ×${peak.toFixed(2)})</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

module.exports = { renderMap, OUTCOME_COLOURS };
