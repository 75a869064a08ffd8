'use strict';
/**
 * Users the benches create through the public API: a JSON client over HTTP or over the app's
 * inject (the same call(method, path, { body, token }) either way), sign-up with the bench's
 * development code, and a driver with a vehicle, online near a point.
 */
const { BENCH_OTP } = require('./service-env');

const JSON_HEADERS = { 'content-type': 'application/json' };

function failure(method, path, status, json, text) {
  const err = new Error(`${method} ${path} → ${status} ${json && json.message ? json.message : text.slice(0, 200)}`);
  err.status = status;
  return err;
}

/** JSON API client of the service at `base`; throws with the response on a non-2xx. */
function httpApi(base) {
  return async (method, path, { body, token } = {}) => {
    const headers = { ...(body ? JSON_HEADERS : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw failure(method, path, res.status, json, text);
    return json;
  };
}

/** The same client over a Nest app in this process (no socket). */
function injectApi(app) {
  return async (method, path, { body, token } = {}) => {
    const res = await app.inject({ method, url: path, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: body });
    const json = res.body ? JSON.parse(res.body) : undefined;
    if (res.statusCode >= 300) throw failure(method, path, res.statusCode, json, res.body);
    return json;
  };
}

let phoneSequence = 0;

/** A new user of `role`, signed in: { id, accessToken, refreshToken }. */
async function signUp(call, role, otp = BENCH_OTP) {
  phoneSequence += 1;
  const phone = `+1999${String(process.pid % 10000).padStart(4, '0')}${String(phoneSequence).padStart(4, '0')}`;
  await call('POST', '/api/v1/auth/send-otp', { body: { phone } });
  const verified = await call('POST', '/api/v1/auth/verify-otp', { body: { phone, otp } });
  const session = await call('POST', '/api/v1/auth/register', {
    token: verified.access_token,
    body: { role, first_name: role === 'driver' ? 'Bench' : 'Pat', last_name: 'Mark' },
  });
  return { id: session.user.id, accessToken: session.access_token, refreshToken: session.refresh_token };
}

/** The driver's vehicle (category 1), online; at `near` when given (nearer than the matching radius). */
async function driverOnline(call, token, { plate = 'BENCH1', near } = {}) {
  const vehicle = { vehicle_make: 'Toyota', vehicle_model: 'Prius', vehicle_color: 'Blue', vehicle_year: 2022 };
  await call('PUT', '/api/v1/driver/profile', { token, body: { vehicle_category_id: 1, ...vehicle, vehicle_plate: plate, license_number: `L-${plate}` } });
  await call('PUT', '/api/v1/driver/status', { token, body: { is_online: true } });
  if (near) await call('PUT', '/api/v1/driver/location', { token, body: { latitude: near.latitude + 0.002, longitude: near.longitude } });
}

module.exports = { JSON_HEADERS, httpApi, injectApi, signUp, driverOnline };
