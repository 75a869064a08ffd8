import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { acceptedRide, bookRide, cancel, Json, onlineDriver, setStatus } from './ride-helpers';

/** CONTRACT §11 "Ratings": both sides, once each, completed rides within RATING_WINDOW_DAYS, exact averages. */
describe('ratings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATING_WINDOW_DAYS: '7' } });
  });
  afterAll(() => t.close());

  async function completedRide(options: { passenger?: TestUser; driver?: TestUser } = {}) {
    const ride = await acceptedRide(t, options);
    for (const step of ['driver_arrived', 'started', 'completed']) {
      expect((await setStatus(t, ride.driver, ride.rideId, step)).statusCode).toBe(200);
    }
    return ride;
  }

  function rate(user: TestUser | undefined, rideId: string, payload: unknown) {
    return t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/rating`, token: user?.accessToken, payload: payload as Json });
  }

  async function getRide(user: TestUser, rideId: string): Promise<Json> {
    const res = await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: user.accessToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  async function driverProfile(driver: TestUser): Promise<Json> {
    const res = await t.request({ method: 'GET', url: '/api/v1/driver/profile', token: driver.accessToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('the passenger rates the driver: 201, the ride carries driver_rating, the driver profile and ride.driver show the average', async () => {
    const { passenger, driver, rideId } = await completedRide();
    expect(await driverProfile(driver)).toMatchObject({ rating: null, ratings_count: 0 });
    const before = await getRide(passenger, rideId);
    expect(before).toMatchObject({ driver_rating: null, passenger_rating: null, driver: { rating: null }, passenger: { rating: null } });

    const res = await rate(passenger, rideId, { stars: 4, comment: '  Friendly driver  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['comment', 'created_at', 'rated_by', 'ride_id', 'stars']);
    expect(body).toMatchObject({ ride_id: rideId, rated_by: 'passenger', stars: 4, comment: 'Friendly driver' });
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);

    const after = await getRide(passenger, rideId);
    expect(after).toMatchObject({ driver_rating: 4, passenger_rating: null, driver: { rating: 4 }, passenger: { rating: null } });
    expect(after.updated_at).not.toBe(before.updated_at);
    expect(await driverProfile(driver)).toMatchObject({ rating: 4, ratings_count: 1 });
  });

  it('the driver rates the passenger: 201, the ride carries passenger_rating and passenger.rating (also in ride_requested and nearby)', async () => {
    const { passenger, driver, rideId } = await completedRide();
    const res = await rate(driver, rideId, { stars: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ ride_id: rideId, rated_by: 'driver', stars: 3, comment: null });
    expect(await getRide(driver, rideId)).toMatchObject({ passenger_rating: 3, driver_rating: null, passenger: { rating: 3 } });

    // Drivers see the passenger's average on a new request: in ride_requested and in nearby.
    const other = await onlineDriver(t);
    const beat = await t.request({
      method: 'PUT',
      url: '/api/v1/driver/location',
      token: other.accessToken,
      payload: { latitude: 52.522, longitude: 13.4132 },
    });
    expect(beat.statusCode).toBe(200);
    const socket = await LiveClient.connect(t, other.accessToken);
    const next = await bookRide(t, passenger);
    expect(next.passenger).toMatchObject({ rating: 3 });
    try {
      const requested = await socket.next('ride_requested');
      expect(requested.data).toMatchObject({ ride: { id: next.id, passenger: { id: passenger.id, rating: 3 } } });
    } finally {
      await socket.close();
    }
    const nearby = await t.request({
      method: 'GET',
      url: '/api/v1/driver/rides/nearby?latitude=52.5219&longitude=13.4132',
      token: other.accessToken,
    });
    expect(nearby.statusCode).toBe(200);
    const listed = (nearby.json() as Json[]).find((r) => r.id === next.id);
    expect(listed).toMatchObject({ passenger: { id: passenger.id, rating: 3 }, passenger_rating: null, driver_rating: null });
    expect((await cancel(t, passenger, next.id)).statusCode).toBe(200);
  });

  it('each side once: a second rating by the same side is 409 and changes nothing; the other side still may', async () => {
    const { passenger, driver, rideId } = await completedRide();
    expect((await rate(passenger, rideId, { stars: 5 })).statusCode).toBe(201);
    const again = await rate(passenger, rideId, { stars: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.any(String) });
    expect(await getRide(passenger, rideId)).toMatchObject({ driver_rating: 5 });
    expect(await driverProfile(driver)).toMatchObject({ rating: 5, ratings_count: 1 });
    expect((await rate(driver, rideId, { stars: 2 })).statusCode).toBe(201);
    expect((await rate(driver, rideId, { stars: 2 })).statusCode).toBe(409);
  });

  it.each(['requested', 'accepted', 'driver_arrived', 'started', 'cancelled'])('%s: a ride in that status cannot be rated (409)', async (status) => {
    let ride: { passenger: TestUser; driver: TestUser; rideId: string };
    if (status === 'requested') {
      const passenger = await createUser(t);
      ride = { passenger, driver: await onlineDriver(t), rideId: (await bookRide(t, passenger)).id };
    } else {
      ride = await acceptedRide(t);
      if (status === 'cancelled') expect((await cancel(t, ride.passenger, ride.rideId)).statusCode).toBe(200);
      for (const step of ['driver_arrived', 'started']) {
        if (status === 'accepted' || status === 'cancelled' || (status === 'driver_arrived' && step === 'started')) break;
        expect((await setStatus(t, ride.driver, ride.rideId, step)).statusCode).toBe(200);
      }
    }
    expect((await getRide(ride.passenger, ride.rideId)).status).toBe(status);
    expect((await rate(ride.passenger, ride.rideId, { stars: 5 })).statusCode).toBe(409);
    if (status !== 'requested') expect((await rate(ride.driver, ride.rideId, { stars: 5 })).statusCode).toBe(409);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM ride_ratings WHERE ride_id = $1`, [ride.rideId]);
    expect(count).toBe(0);
  });

  it('at most RATING_WINDOW_DAYS after completion: inside it 201, past it 409', async () => {
    const inside = await completedRide();
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '6 days 23 hours' WHERE id = $1`, [inside.rideId]);
    expect((await rate(inside.passenger, inside.rideId, { stars: 5 })).statusCode).toBe(201);

    const late = await completedRide();
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '7 days 1 minute' WHERE id = $1`, [late.rideId]);
    expect((await rate(late.passenger, late.rideId, { stars: 5 })).statusCode).toBe(409);
    expect((await rate(late.driver, late.rideId, { stars: 5 })).statusCode).toBe(409);
    expect(await driverProfile(late.driver)).toMatchObject({ rating: null, ratings_count: 0 });
  });

  it('anyone but the two parties gets 404 (another passenger, another driver, no such ride); no token is 401', async () => {
    const { rideId } = await completedRide();
    expect((await rate(await createUser(t), rideId, { stars: 5 })).statusCode).toBe(404);
    expect((await rate(await onlineDriver(t), rideId, { stars: 5 })).statusCode).toBe(404);
    const passenger = await createUser(t);
    expect((await rate(passenger, '00000000-0000-4000-8000-000000000000', { stars: 5 })).statusCode).toBe(404);
    expect((await rate(passenger, 'not-a-uuid', { stars: 5 })).statusCode).toBe(404);
    expect((await rate(undefined, rideId, { stars: 5 })).statusCode).toBe(401);
  });

  it.each([
    ['no stars', {}],
    ['stars 0', { stars: 0 }],
    ['stars 6', { stars: 6 }],
    ['stars 4.5', { stars: 4.5 }],
    ['stars as text', { stars: '5' }],
    ['stars null', { stars: null }],
    ['a comment of 501 characters', { stars: 5, comment: 'x'.repeat(501) }],
    ['a comment that is no string', { stars: 5, comment: 5 }],
    ['an unknown field', { stars: 5, tip: 1 }],
    ['a NUL character', { stars: 5, comment: 'a\u0000b' }],
  ])('%s: 400 in the error shape, nothing stored', async (_name, payload) => {
    const { passenger, rideId } = await completedRide();
    const res = await rate(passenger, rideId, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    expect((await getRide(passenger, rideId)).driver_rating).toBeNull();
  });

  it('a comment of exactly 500 characters is kept', async () => {
    const { passenger, rideId } = await completedRide();
    const res = await rate(passenger, rideId, { stars: 5, comment: 'é'.repeat(500) });
    expect(res.statusCode).toBe(201);
    expect(res.json().comment).toBe('é'.repeat(500));
  });

  it('averages are exact over many rides (2 decimals, a JSON number) and equal their rows', async () => {
    const driver = await onlineDriver(t);
    for (const stars of [5, 4, 4]) {
      const { passenger, rideId } = await completedRide({ driver });
      expect((await rate(passenger, rideId, { stars })).statusCode).toBe(201);
    }
    expect(await driverProfile(driver)).toMatchObject({ rating: 4.33, ratings_count: 3 });
    const [row] = await t.db.query(
      `SELECT d.rating_sum, d.ratings_count, d.rating::text AS rating, (SELECT sum(stars)::int FROM ride_ratings WHERE rated_user_id = $1) AS rows_sum
         FROM drivers d WHERE d.user_id = $1`,
      [driver.id],
    );
    expect(row).toEqual({ rating_sum: 13, ratings_count: 3, rating: '4.33', rows_sum: 13 });
  });

  it('the database refuses an average that does not follow from the sum and count', async () => {
    const driver = await onlineDriver(t);
    await expect(t.db.query(`UPDATE drivers SET rating = 4.5 WHERE user_id = $1`, [driver.id])).rejects.toThrow(/rating_average_check/);
  });

  it('two ratings sent at once by the same side: one 201, one 409, and the average equals its rows', async () => {
    const driver = await onlineDriver(t);
    for (let round = 0; round < 3; round += 1) {
      const { passenger, rideId } = await completedRide({ driver });
      const answers = await Promise.all([rate(passenger, rideId, { stars: 5 }), rate(passenger, rideId, { stars: 2 })]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM ride_ratings WHERE ride_id = $1`, [rideId]);
      expect(count).toBe(1);
    }
    const [row] = await t.db.query(
      `SELECT d.rating_sum = r.s AND d.ratings_count = r.c AND d.rating = round(r.s::numeric / r.c, 2) AS equal
         FROM drivers d, (SELECT sum(stars)::int AS s, count(*)::int AS c FROM ride_ratings WHERE rated_user_id = $1) r
        WHERE d.user_id = $1`,
      [driver.id],
    );
    expect(row.equal).toBe(true);
    expect((await driverProfile(driver)).ratings_count).toBe(3);
  });

  it('ride_rated reaches the rated party over the WebSocket, not the rater', async () => {
    const { passenger, driver, rideId } = await completedRide();
    const driverSocket = await LiveClient.connect(t, driver.accessToken);
    const passengerSocket = await LiveClient.connect(t, passenger.accessToken);
    try {
      expect((await rate(passenger, rideId, { stars: 5, comment: 'Great' })).statusCode).toBe(201);
      const event = await driverSocket.next('ride_rated');
      expect(event.ride_id).toBe(rideId);
      expect(event.data).toMatchObject({
        rating: { ride_id: rideId, rated_by: 'passenger', stars: 5, comment: 'Great' },
        // The ride as it is after the rating: the driver's new average too.
        ride: { id: rideId, driver_rating: 5, driver: { id: driver.id, rating: 5 } },
      });
      await expectNothingMore([passengerSocket]);
    } finally {
      await driverSocket.close();
      await passengerSocket.close();
    }
  });
});
