'use strict';
/** The city scenarios' HTTP calls: JSON in and out, with a bearer token. */
const { performance } = require('node:perf_hooks');

const JSON_HEADERS = { 'content-type': 'application/json' };
const now = () => performance.timeOrigin + performance.now();

async function request(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? JSON_HEADERS : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

async function must(base, method, path, token, body) {
  const r = await request(base, method, path, token, body);
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${r.text.slice(0, 200)}`);
  return r.json;
}

function rideBody(point, categoryId) {
  return {
    pickup: { address: 'Bench pickup', latitude: point.latitude, longitude: point.longitude },
    dropoff: { address: 'Bench dropoff', latitude: point.latitude + 0.02, longitude: point.longitude + 0.02 },
    ride_type: 'one_way',
    vehicle_category_id: categoryId,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
  };
}

module.exports = { JSON_HEADERS, now, request, must, rideBody };
