import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { DEV_CODE, freshPhone, startAuthApp } from '../auth/auth-helpers';
import { createUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { findOperation, OpenApiDocument, ResponseValidator } from './openapi-validator';

const PICKUP = { address: 'Alexanderplatz 1, Berlin', latitude: 52.5219, longitude: 13.4132 };
const DROPOFF = { address: 'Potsdamer Platz 1, Berlin', latitude: 52.5096, longitude: 13.3759 };
const RIDE = { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', vehicle_category_id: 1, passenger_count: 1, children: 0 };

const EXERCISED = [
  'GET /api/v1/auth/me 200',
  'GET /api/v1/driver/earnings 200',
  'GET /api/v1/driver/profile 200',
  'GET /api/v1/driver/rides/active 200',
  'GET /api/v1/driver/rides/nearby 200',
  'GET /api/v1/passenger/rides 200',
  'GET /api/v1/passenger/rides 400',
  'GET /api/v1/passenger/rides/active 200',
  'GET /api/v1/rides/categories 200',
  'GET /api/v1/rides/{ride_id} 200',
  'GET /api/v1/rides/{ride_id} 404',
  'GET /api/v1/rides/{ride_id}/bids 200',
  'GET /api/v1/rides/{ride_id}/bids 403',
  'GET /api/v1/wallet 200',
  'POST /api/v1/auth/logout 200',
  'POST /api/v1/auth/refresh-token 200',
  'POST /api/v1/auth/register 200',
  'POST /api/v1/auth/send-otp 200',
  'POST /api/v1/auth/send-otp 429',
  'POST /api/v1/auth/verify-otp 200',
  'POST /api/v1/auth/verify-otp 400',
  'POST /api/v1/driver/rides/{ride_id}/bid 201',
  'POST /api/v1/rides/book 201',
  'POST /api/v1/rides/book 400',
  'POST /api/v1/rides/book 409',
  'POST /api/v1/rides/estimate 200',
  'POST /api/v1/rides/estimate 403',
  'POST /api/v1/rides/{ride_id}/bids/{bid_id}/accept 200',
  'POST /api/v1/rides/{ride_id}/bids/{bid_id}/accept 403',
  'POST /api/v1/rides/{ride_id}/bids/{bid_id}/accept 409',
  'POST /api/v1/rides/{ride_id}/cancel 200',
  'POST /api/v1/rides/{ride_id}/cancel 409',
  'PUT /api/v1/auth/profile 200',
  'PUT /api/v1/driver/location 200',
  'PUT /api/v1/driver/status 200',
  'PUT /api/v1/rides/{ride_id}/status 200',
  'PUT /api/v1/rides/{ride_id}/status 409',
];

describe('every real response conforms to its documented schema (ajv; OAS 3.1; no undocumented field)', () => {
  let t: TestApp;
  let validator: ResponseValidator;
  let document: OpenApiDocument;
  const problems: string[] = [];
  const exercised = new Set<string>();

  beforeAll(async () => {
    t = await startAuthApp({ OTP_RESEND_COOLDOWN_SECONDS: '30' });
    document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    validator = new ResponseValidator(document);
  });
  afterAll(() => t.close());

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object): Promise<LightMyRequestResponse> {
    const res = await t.request({ method, url: `/api/v1${url}`, token, payload });
    try {
      problems.push(...validator.check(method, `/api/v1${url}`, res.statusCode, res.json()));
      // Apart from validation (one example per kind), the real message is one the document shows for this status.
      if (res.statusCode > 400) {
        const shown = validator.errorMessagesFor(method, `/api/v1${url}`, res.statusCode);
        if (!shown.includes(res.json().message))
          problems.push(`${method} ${url} ${res.statusCode}: "${res.json().message}" not among ${JSON.stringify(shown)}`);
      }
      exercised.add(`${method} ${findOperation(document, method, `/api/v1${url}`)?.path} ${res.statusCode}`);
    } catch (err) {
      problems.push(`${method} ${url} ${res.statusCode}: ${(err as Error).message}`);
    }
    return res;
  }

  it('a passenger and a driver journey, with 4xx along the way', async () => {
    // Auth: send-otp (and a resend inside the cooldown: 429 with Retry-After), verify-otp, register.
    const phone = freshPhone();
    expect((await call('POST', '/auth/send-otp', undefined, { phone })).statusCode).toBe(200);
    const limited = await call('POST', '/auth/send-otp', undefined, { phone });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(document.paths['/api/v1/auth/send-otp']!.post!.responses['429']!.headers!['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
    const verified = await call('POST', '/auth/verify-otp', undefined, { phone, otp: DEV_CODE });
    expect(verified.statusCode).toBe(200);
    expect((await call('POST', '/auth/verify-otp', undefined, { phone, otp: '000000' })).statusCode).toBe(400);
    const registered = await call('POST', '/auth/register', verified.json().access_token, { role: 'passenger', first_name: 'Ada', last_name: 'Lovelace' });
    expect(registered.statusCode).toBe(200);
    let token = registered.json().access_token as string;
    expect((await call('GET', '/auth/me', token)).statusCode).toBe(200);
    expect((await call('PUT', '/auth/profile', token, { first_name: 'Ada' })).statusCode).toBe(200);
    const refreshed = await call('POST', '/auth/refresh-token', undefined, { refresh_token: registered.json().refresh_token });
    expect(refreshed.statusCode).toBe(200);
    token = refreshed.json().access_token;
    expect((await call('GET', '/wallet', token)).statusCode).toBe(200);

    // Booking: categories, estimates (one and all), validation 400, book, 409 for a second ride, 404.
    expect((await call('GET', '/rides/categories')).statusCode).toBe(200);
    expect((await call('POST', '/rides/estimate', token, RIDE)).statusCode).toBe(200);
    const { vehicle_category_id: _omitted, ...anyCategory } = RIDE;
    expect((await call('POST', '/rides/estimate', token, { ...anyCategory, promo_code: 'NOPE' })).statusCode).toBe(200);
    const invalid = await call('POST', '/rides/book', token, { ...RIDE, payment_method: 'cash', pickup: { ...PICKUP, latitude: 91 } });
    expect(invalid.statusCode).toBe(400);
    expect(validator.errorMessagesFor('POST', '/api/v1/rides/book', 400)).toContain(invalid.json().message);
    const booked = await call('POST', '/rides/book', token, { ...RIDE, payment_method: 'cash' });
    expect(booked.statusCode).toBe(201);
    const rideId = booked.json().id as string;
    expect((await call('POST', '/rides/book', token, { ...RIDE, payment_method: 'cash' })).statusCode).toBe(409);
    expect((await call('GET', `/rides/${randomUUID()}`, token)).statusCode).toBe(404);
    expect((await call('GET', '/passenger/rides/active', token)).statusCode).toBe(200);
    expect((await call('GET', `/rides/${rideId}`, token)).statusCode).toBe(200);

    // 403s from the route guards: an unregistered account, a driver on passenger routes.
    const unregistered = await createUser(t, { registered: false });
    expect((await call('POST', '/rides/estimate', unregistered.accessToken, RIDE)).statusCode).toBe(403);
    const driver = await createUser(t, { role: 'driver' });
    expect((await call('GET', `/rides/${rideId}/bids`, driver.accessToken)).statusCode).toBe(403);

    // Driver: profile, online, location, nearby, bid; passenger: bids, accept (and accept again: 409).
    expect((await call('GET', '/driver/profile', driver.accessToken)).statusCode).toBe(200);
    expect((await call('PUT', '/driver/status', driver.accessToken, { is_online: true })).statusCode).toBe(200);
    expect((await call('PUT', '/driver/location', driver.accessToken, { latitude: 52.52, longitude: 13.41, heading: 90 })).statusCode).toBe(200);
    expect((await call('GET', '/driver/rides/nearby', driver.accessToken)).statusCode).toBe(200);
    const bid = await call('POST', `/driver/rides/${rideId}/bid`, driver.accessToken, { amount: 12.5, eta_minutes: 4 });
    expect(bid.statusCode).toBe(201);
    expect((await call('POST', `/rides/${rideId}/bids/${bid.json().id}/accept`, driver.accessToken)).statusCode).toBe(403);
    expect((await call('GET', `/rides/${rideId}/bids`, token)).statusCode).toBe(200);
    expect((await call('POST', `/rides/${rideId}/bids/${bid.json().id}/accept`, token)).statusCode).toBe(200);
    expect((await call('POST', `/rides/${rideId}/bids/${bid.json().id}/accept`, token)).statusCode).toBe(409);
    expect((await call('GET', `/rides/${rideId}`, token)).statusCode).toBe(200);
    expect((await call('GET', '/driver/rides/active', driver.accessToken)).statusCode).toBe(200);
    for (const status of ['driver_arrived', 'started', 'completed']) {
      expect((await call('PUT', `/rides/${rideId}/status`, driver.accessToken, { status })).statusCode).toBe(200);
    }
    expect((await call('PUT', `/rides/${rideId}/status`, driver.accessToken, { status: 'started' })).statusCode).toBe(409);
    expect((await call('GET', '/driver/rides/active', driver.accessToken)).statusCode).toBe(200);
    expect((await call('GET', '/driver/earnings', driver.accessToken)).statusCode).toBe(200);
    expect((await call('GET', '/passenger/rides/active', token)).statusCode).toBe(200);
    expect((await call('GET', '/passenger/rides?page=1&limit=10', token)).statusCode).toBe(200);
    const badPage = await call('GET', '/passenger/rides?limit=101', token);
    expect(badPage.statusCode).toBe(400);
    expect(validator.errorMessagesFor('GET', '/api/v1/passenger/rides', 400)).toContain(badPage.json().message);

    // A round trip, cancelled by its passenger (cancelled_by, return_location filled).
    const roundTrip = await call('POST', '/rides/book', token, {
      ...RIDE,
      payment_method: 'cash',
      ride_type: 'round_trip',
      return_location: PICKUP,
      return_scheduled_at: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    });
    expect(roundTrip.statusCode).toBe(201);
    const cancelled = await call('POST', `/rides/${roundTrip.json().id}/cancel`, token, { reason: 'Plans changed' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().cancelled_by).toBe('passenger');
    expect((await call('POST', `/rides/${roundTrip.json().id}/cancel`, token)).statusCode).toBe(409);
    expect((await call('POST', '/auth/logout', token)).statusCode).toBe(200);

    expect(problems).toEqual([]);
    expect([...exercised].sort()).toEqual(EXERCISED);
  });

  it('the strict reading is not vacuous: a null where only an object is documented fails', () => {
    const ride = document.components.schemas.RideResponseDto;
    expect(ride!.properties!.passenger).toMatchObject({ anyOf: [{ $ref: '#/components/schemas/PassengerPublicDto' }, { type: 'null' }] });
    const strictOld = new ResponseValidator({
      ...document,
      components: {
        schemas: {
          ...document.components.schemas,
          X: { type: 'object', properties: { p: { nullable: true, allOf: [{ $ref: '#/components/schemas/PassengerPublicDto' }] } } },
        },
      },
      paths: { '/x': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } } },
    });
    expect(strictOld.check('GET', '/x', 200, { p: null })).not.toEqual([]);
    expect(validator.check('GET', '/api/v1/auth/me', 200, { nope: true })).not.toEqual([]);
  });
});
