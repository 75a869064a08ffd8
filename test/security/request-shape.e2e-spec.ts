import { buildOpenApiDocument } from '../../src/bootstrap/openapi';
import { accept, bookingBody, bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const JSON_HEADERS = { 'content-type': 'application/json' };
const NOT_AN_OBJECT = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'Request body must be a JSON object',
  details: [{ field: 'body', message: 'Request body must be a JSON object' }],
};
const FARE_REFUSED = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'property fare should not exist',
  details: [{ field: 'fare', message: 'property fare should not exist' }],
};

describe('request shape: unknown fields and non-object bodies refused everywhere (CONTRACT §1)', () => {
  let t: TestApp;
  let passenger: TestUser;
  let driver: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    passenger = await createUser(t);
    driver = await onlineDriver(t);
  });
  afterAll(() => t.close());

  it('accepting a bid with {"fare": 0.01} is a 400 and accepts nothing; with no body or {} it works', async () => {
    const owner = await createUser(t);
    const ride = await bookRide(t, owner);
    const bid = await placeBid(t, driver, ride.id, 25);
    const url = `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`;
    const refused = await t.request({ method: 'POST', url, token: owner.accessToken, payload: { fare: 0.01 } });
    expect(refused.json()).toEqual(FARE_REFUSED);
    expect(await t.db.query(`SELECT status, fare_minor FROM rides WHERE id = $1`, [ride.id])).toEqual([{ status: 'requested', fare_minor: null }]);
    for (const payload of ['null', '[]', '"accept"', '0']) {
      const res = await t.request({ method: 'POST', url, token: owner.accessToken, payload, headers: JSON_HEADERS });
      expect(res.json()).toEqual({
        ...NOT_AN_OBJECT,
        message: 'This operation takes no request body',
        details: [{ field: 'body', message: 'This operation takes no request body' }],
      });
    }
    const ok = await t.request({ method: 'POST', url, token: owner.accessToken, payload: {} });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'accepted', fare: 25 });
  });

  it('logout and account deletion with a field are 400 and change nothing; authentication still answers first', async () => {
    const user = await createUser(t);
    const logout = await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken, payload: { everywhere: true } });
    expect(logout.json()).toMatchObject({ statusCode: 400, details: [{ field: 'everywhere', message: 'property everywhere should not exist' }] });
    const deletion = await t.request({ method: 'DELETE', url: '/api/v1/auth/account', token: user.accessToken, payload: { confirm: true } });
    expect(deletion.statusCode).toBe(400);
    expect(await t.db.query(`SELECT refresh_token_hash IS NOT NULL AS session FROM users WHERE id = $1`, [user.id])).toEqual([{ session: true }]);
    const anonymous = await t.request({ method: 'POST', url: '/api/v1/auth/logout', payload: { everywhere: true } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('every operation of the OpenAPI document that takes no body refuses a field (derived from the routes, not listed)', async () => {
    const document = buildOpenApiDocument(t.app);
    const bodiless = Object.entries(document.paths).flatMap(([path, item]) =>
      (['post', 'put', 'delete', 'patch'] as const).filter((m) => item[m] && !item[m]!.requestBody).map((m) => [m.toUpperCase(), path] as const),
    );
    expect(bodiless.map(([m, p]) => `${m} ${p}`)).toEqual(expect.arrayContaining(['POST /api/v1/auth/logout', 'DELETE /api/v1/auth/account']));
    const bidder = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    const bid = await placeBid(t, bidder, ride.id);
    for (const [method, path] of bodiless) {
      const url = path.replace('{ride_id}', ride.id).replace('{bid_id}', bid.id);
      const answers = [];
      for (const token of [passenger.accessToken, bidder.accessToken]) {
        const res = await t.request({ method: method as 'POST', url, token, payload: { fare: 0.01 } });
        answers.push(res.statusCode);
        if (res.statusCode === 400) expect(res.json()).toEqual(FARE_REFUSED);
      }
      // One of the two roles passes the guards and reaches the body rule; neither gets through.
      expect([method, path, answers.includes(400), answers.some((s) => s < 300)]).toEqual([method, path, true, false]);
    }
  });

  it.each([
    ['PUT /auth/profile', '/api/v1/auth/profile', () => passenger],
    ['PUT /driver/profile', '/api/v1/driver/profile', () => driver],
  ])('%s: null, an array or a string is a 400; an absent body (all fields optional) is fine', async (_label, url, user) => {
    for (const payload of ['null', '[]', '[{"first_name":"x"}]', '"x"', '42']) {
      const res = await t.request({ method: 'PUT', url, token: user().accessToken, payload, headers: JSON_HEADERS });
      expect([payload, res.json()]).toEqual([payload, NOT_AN_OBJECT]);
    }
    expect((await t.request({ method: 'PUT', url, token: user().accessToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url, token: user().accessToken, payload: '', headers: JSON_HEADERS })).statusCode).toBe(200);
  });

  it('an empty profile_picture_base64 is a 400 (profile and registration)', async () => {
    const profile = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, payload: { profile_picture_base64: '' } });
    const expected = { field: 'profile_picture_base64', message: 'profile_picture_base64 should not be empty' };
    expect([profile.statusCode, profile.json().details]).toEqual([400, [expected]]);
    const pending = await createUser(t, { registered: false });
    const register = await t.request({
      method: 'POST',
      url: '/api/v1/auth/register',
      token: pending.accessToken,
      payload: { role: 'passenger', profile_picture_base64: '' },
    });
    expect([register.statusCode, register.json().details]).toEqual([400, [expected]]);
  });
});

describe('passenger endpoints refuse drivers (CONTRACT §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('estimate, book, bids, accept, history and the active ride: 403 for a driver, before the body is looked at', async () => {
    const driver = await onlineDriver(t);
    const owner = await createUser(t);
    const ride = await bookRide(t, owner);
    const bid = await placeBid(t, driver, ride.id);
    const calls: Array<[string, string, object | undefined]> = [
      ['POST', '/api/v1/rides/estimate', bookingBody()],
      ['POST', '/api/v1/rides/book', bookingBody()],
      ['GET', `/api/v1/rides/${ride.id}/bids`, undefined],
      ['POST', `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`, undefined],
      ['GET', '/api/v1/passenger/rides', undefined],
      ['GET', '/api/v1/passenger/rides/active', undefined],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.request({ method: method as 'POST', url, token: driver.accessToken, ...(payload ? { payload } : {}) });
      expect([method, url, res.statusCode, res.json()]).toEqual([
        method,
        url,
        403,
        { statusCode: 403, error: 'Forbidden', message: 'This endpoint is only for passenger accounts' },
      ]);
    }
    // The passenger still estimates, and the accept refused above left the ride as it was.
    expect((await t.request({ method: 'POST', url: '/api/v1/rides/estimate', token: owner.accessToken, payload: bookingBody() })).statusCode).toBe(200);
    expect((await accept(t, owner, ride.id, bid.id)).statusCode).toBe(200);
  });
});
