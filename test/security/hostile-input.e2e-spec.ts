import type { LightMyRequestResponse } from 'fastify';
import { MAX_DETAILS } from '../../src/common/http/validation.pipe';
import { LiveClient } from '../realtime/live-client';
import { bookingBody, bookRide } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;
const JSON_HEADERS = { 'content-type': 'application/json' };
const TOO_MANY_KEYS = 'Request body has an object with more than 1000 keys';
const TOO_MANY_ELEMENTS = 'Request body has an array with more than 10000 elements';

const keys = (n: number, value = '1'): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":${value}`).join(',')}}`;

function expectBadRequest(res: LightMyRequestResponse, field: string, message?: string): Json {
  const body = res.json();
  expect([res.statusCode, body.statusCode, body.error]).toEqual([400, 400, 'Bad Request']);
  expect(body.details?.[0]?.field).toBe(field);
  if (message) expect(body.details[0].message).toBe(message);
  return body;
}

describe('hostile input: work per request is bounded before any per-key step', () => {
  let t: TestApp;
  let passenger: TestUser;

  beforeAll(async () => {
    // Frames big enough to carry 10,001 array elements (the default WS_MAX_PAYLOAD_BYTES is 16 kB).
    t = await startTestApp({ env: { WS_MAX_PAYLOAD_BYTES: '65536' } });
    passenger = await createUser(t);
  });
  afterAll(() => t.close());

  it.each([
    ['send-otp, no login, 1 MB of keys', 'POST', '/api/v1/auth/send-otp', 90_000, false],
    ['PUT /auth/profile, 2.3 MB of keys', 'PUT', '/api/v1/auth/profile', 200_000, true],
  ])('%s: 400 with a short details, other requests keep flowing', async (_label, method, path, count, auth) => {
    const payload = keys(count as number);
    const started = performance.now();
    const hostile = fetch(`${t.baseUrl}${path}`, {
      method: method as string,
      headers: { ...JSON_HEADERS, ...(auth ? { authorization: `Bearer ${passenger.accessToken}` } : {}) },
      body: payload,
    }).then(async (res) => ({ status: res.status, text: await res.text(), ms: performance.now() - started }));
    const live = await fetch(`${t.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    const res = await hostile;
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: TOO_MANY_KEYS,
      details: [{ field: 'body', message: TOO_MANY_KEYS }],
    });
    process.stdout.write(`${_label}: ${(payload.length / 1e6).toFixed(2)} MB answered in ${res.ms.toFixed(1)} ms (${res.text.length} bytes)\n`);
  });

  it('an array of more than 10,000 elements in one field is a 400; 10,000 reach validation', async () => {
    const over = await t.request({
      method: 'PUT',
      url: '/api/v1/auth/profile',
      token: passenger.accessToken,
      headers: JSON_HEADERS,
      payload: `{"first_name":[${'1,'.repeat(10_000)}1]}`,
    });
    expect(over.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: TOO_MANY_ELEMENTS,
      details: [{ field: 'body', message: TOO_MANY_ELEMENTS }],
    });
    const bigStrings = JSON.stringify({ first_name: Array.from({ length: 10_000 }, () => 'x'.repeat(500)) });
    expect(bigStrings.length).toBeGreaterThan(5_000_000);
    const atLimit = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, headers: JSON_HEADERS, payload: bigStrings });
    expect(expectBadRequest(atLimit, 'first_name').details).toContainEqual({ field: 'first_name', message: 'first_name must be a string' });
  });

  it('more than 20,000 values in all is a 400; a field holding structures of many keys is refused by its type, not copied', async () => {
    const many = `{"first_name":[${Array.from({ length: 21 }, () => keys(999)).join(',')}]}`;
    const tooMany = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, headers: JSON_HEADERS, payload: many });
    const VALUES = 'Request body has more than 20000 values in all';
    expect(tooMany.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: VALUES, details: [{ field: 'body', message: VALUES }] });
    const nested = `{"first_name":[${Array.from({ length: 19 }, () => keys(999)).join(',')}]}`;
    const refused = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, headers: JSON_HEADERS, payload: nested });
    expect(expectBadRequest(refused, 'first_name').details).toContainEqual({ field: 'first_name', message: 'first_name must be a string' });
  });

  it(`a 400 echoes at most ${MAX_DETAILS} problems, each clipped, and counts the rest`, async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', headers: JSON_HEADERS, payload: keys(1000) });
    const body = expectBadRequest(res, 'k0', 'property k0 should not exist');
    expect(body.details).toHaveLength(MAX_DETAILS);
    expect(body.message).toBe('property k0 should not exist (and 999 more)');
    expect(res.body.length).toBeLessThan(2000);
    const longKey = 'k'.repeat(100_000);
    const long = await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', headers: JSON_HEADERS, payload: `{"${longKey}":1}` });
    expect(long.statusCode).toBe(400);
    expect(long.body.length).toBeLessThan(1000);
    expect(long.json().details[0].field).toMatch(/^k{199}…$/);
  });

  it('a WebSocket frame with more than 1,000 keys gets an error frame; the socket keeps working', async () => {
    const client = await LiveClient.connect(t, passenger.accessToken);
    client.send(`{"type":"ping",${keys(1001).slice(1)}`);
    expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'invalid_message', message: 'Message has an object with more than 1000 keys' } });
    client.send(`[${'0,'.repeat(10_000)}0]`);
    expect(await client.next()).toMatchObject({ type: 'error', data: { message: 'Message has an array with more than 10000 elements' } });
    client.send({ type: 'ping' });
    expect((await client.next()).type).toBe('pong');
    await client.close();
  });
});

describe('strings PostgreSQL cannot store (U+0000, lone surrogates): 400 naming the field, from one rule', () => {
  let t: TestApp;
  let passenger: TestUser;
  let driver: TestUser;
  let unregistered: TestUser;
  let rideId: string;

  beforeAll(async () => {
    t = await startTestApp();
    passenger = await createUser(t);
    driver = await createUser(t, { role: 'driver' });
    unregistered = await createUser(t, { registered: false });
    rideId = (await bookRide(t, await createUser(t))).id;
  });
  afterAll(() => t.close());

  const NUL = 'a\u0000b';
  const LONE = 'x\ud800y';
  type Case = [label: string, method: 'POST' | 'PUT' | 'GET', url: () => string, token: () => string | undefined, payload: Json | undefined, field: string];
  const cases: Case[] = [
    ['login without a token', 'POST', () => '/api/v1/auth/login', () => undefined, { email: 'a\u0000@b.c' }, 'email'],
    ['login push_token', 'POST', () => '/api/v1/auth/login', () => undefined, { phone: '+15550000000', push_token: LONE }, 'push_token'],
    ['send-otp phone', 'POST', () => '/api/v1/auth/send-otp', () => undefined, { phone: `+1555${NUL}` }, 'phone'],
    ['verify-otp code', 'POST', () => '/api/v1/auth/verify-otp', () => undefined, { phone: '+15550000000', otp: NUL }, 'otp'],
    ['register first_name', 'POST', () => '/api/v1/auth/register', () => unregistered.accessToken, { role: 'passenger', first_name: NUL }, 'first_name'],
    ['register last_name', 'POST', () => '/api/v1/auth/register', () => unregistered.accessToken, { role: 'passenger', last_name: LONE }, 'last_name'],
    ['register push_token', 'POST', () => '/api/v1/auth/register', () => unregistered.accessToken, { role: 'passenger', push_token: NUL }, 'push_token'],
    ['profile first_name', 'PUT', () => '/api/v1/auth/profile', () => passenger.accessToken, { first_name: NUL }, 'first_name'],
    ['profile last_name', 'PUT', () => '/api/v1/auth/profile', () => passenger.accessToken, { last_name: LONE }, 'last_name'],
    ...['vehicle_make', 'vehicle_model', 'vehicle_plate', 'vehicle_color', 'license_number'].map((field): Case => [
      'driver profile',
      'PUT',
      () => '/api/v1/driver/profile',
      () => driver.accessToken,
      { [field]: NUL },
      field,
    ]),
    [
      'booking pickup address',
      'POST',
      () => '/api/v1/rides/book',
      () => passenger.accessToken,
      bookingBody({ pickup: { ...bookingBody().pickup, address: NUL } }),
      'pickup.address',
    ],
    [
      'booking dropoff address',
      'POST',
      () => '/api/v1/rides/book',
      () => passenger.accessToken,
      bookingBody({ dropoff: { ...bookingBody().dropoff, address: LONE } }),
      'dropoff.address',
    ],
    [
      'estimate pickup address',
      'POST',
      () => '/api/v1/rides/estimate',
      () => passenger.accessToken,
      bookingBody({ pickup: { ...bookingBody().pickup, address: NUL } }),
      'pickup.address',
    ],
    ['cancel reason', 'POST', () => `/api/v1/rides/${rideId}/cancel`, () => passenger.accessToken, { reason: NUL }, 'reason'],
    ['a query parameter', 'GET', () => '/api/v1/passenger/rides?status=requested%00', () => passenger.accessToken, undefined, 'status'],
    ['a path parameter', 'GET', () => '/api/v1/rides/%00', () => passenger.accessToken, undefined, 'ride_id'],
  ];

  it.each(cases)('%s: 400, details name the field', async (_label, method, url, token, payload, field) => {
    const res = await t.request({ method, url: url(), token: token(), ...(payload ? { payload } : {}) });
    expectBadRequest(res, field, `${field} contains a character that cannot be stored (U+0000 or an unpaired surrogate)`);
  });

  it('nothing was stored; well-formed non-ASCII (emoji pairs, accents) is fine', async () => {
    const [row] = await t.db.query(`SELECT first_name, last_name FROM users WHERE id = $1`, [passenger.id]);
    expect(row).toEqual({ first_name: 'Paula', last_name: 'Test' });
    const ok = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, payload: { first_name: 'Zoë 😀' } });
    expect([ok.statusCode, ok.json().first_name]).toEqual([200, 'Zoë 😀']);
    const [ride] = await t.db.query(`SELECT status, cancel_reason FROM rides WHERE id = $1`, [rideId]);
    expect(ride).toEqual({ status: 'requested', cancel_reason: null });
  });
});
