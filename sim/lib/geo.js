'use strict';
const EARTH_KM = 6371;
const rad = (d) => (d * Math.PI) / 180;

function distanceKm(a, b) {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `km` away from `from` in direction `bearingDeg` (flat-earth approximation, fine inside a city). */
function offset(from, km, bearingDeg) {
  const dLat = (km * Math.cos(rad(bearingDeg))) / 111.32;
  const dLng = (km * Math.sin(rad(bearingDeg))) / (111.32 * Math.cos(rad(from.latitude)));
  return { latitude: round6(from.latitude + dLat), longitude: round6(from.longitude + dLng) };
}

function bearing(a, b) {
  const y = (b.longitude - a.longitude) * Math.cos(rad(a.latitude));
  const x = b.latitude - a.latitude;
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** A point on the straight line from a to b, t in [0, 1]. */
function lerp(a, b, t) {
  const k = Math.max(0, Math.min(1, t));
  return { latitude: round6(a.latitude + (b.latitude - a.latitude) * k), longitude: round6(a.longitude + (b.longitude - a.longitude) * k) };
}

/** Moves from a towards b by at most km; returns b when it is closer than that. */
function stepTowards(a, b, km) {
  const d = distanceKm(a, b);
  return d <= km ? { ...b } : lerp(a, b, km / d);
}

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

module.exports = { distanceKm, offset, bearing, lerp, stepTowards };
