import { LiveClient } from '../realtime/live-client';
import { acceptedRide, bookRide, cancel, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const RIDES = '/api/v1/admin/rides';
const REASON = 'Passenger called support to cancel';

describe('operators and rides (CONTRACT §13)', () => {
  let t: TestApp;
  let support: TestOperator;
  let finance: TestOperator;

  const get = (url: string, token = finance.accessToken) => t.request({ method: 'GET', url, token });
  const operatorCancel = (rideId: string, payload: object = { reason: REASON }, token = support.accessToken) =>
    t.request({ method: 'POST', url: `${RIDES}/${rideId}/cancel`, token, payload });

  beforeAll(async () => {
    t = await startTestApp();
    [support, finance] = await Promise.all([createOperator(t, 'support'), createOperator(t, 'finance')]);
  });
  afterAll(() => t.close());

  describe('GET /admin/rides', () => {
    let passenger: TestUser;
    let other: TestUser;
    let accepted: { driver: TestUser; rideId: string };
    let requestedId: string;

    beforeAll(async () => {
      [passenger, other] = await Promise.all([createUser(t), createUser(t)]);
      accepted = await acceptedRide(t, { passenger });
      requestedId = (await bookRide(t, other)).id;
    });

    it('lists every ride newest first, paged, filtered by status, passenger and driver', async () => {
      const all = (await get(`${RIDES}?limit=100`)).json();
      expect(all).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
      const ids = all.items.map((r: { id: string }) => r.id);
      expect(ids.indexOf(requestedId)).toBeLessThan(ids.indexOf(accepted.rideId));
      expect(all.items.find((r: { id: string }) => r.id === accepted.rideId)).toMatchObject({
        status: 'accepted',
        passenger: { id: passenger.id },
      });

      const byPassenger = (await get(`${RIDES}?passenger_id=${passenger.id}`)).json();
      expect(byPassenger).toMatchObject({ total: 1, items: [{ id: accepted.rideId }] });
      const byDriver = (await get(`${RIDES}?driver_id=${accepted.driver.id}&status=accepted`)).json();
      expect(byDriver).toMatchObject({ total: 1, items: [{ id: accepted.rideId }] });
      const requested = (await get(`${RIDES}?status=requested&passenger_id=${other.id}`)).json();
      expect(requested.items.map((r: { id: string }) => r.id)).toEqual([requestedId]);
      expect((await get(`${RIDES}?status=completed&passenger_id=${other.id}`)).json()).toMatchObject({ items: [], total: 0 });
      const paged = (await get(`${RIDES}?limit=1&page=2`)).json();
      expect(paged).toMatchObject({ page: 2, limit: 1, items: [{ id: ids[1] }] });
    });

    it('payment_status filters card rides; cash and wallet rides have none', async () => {
      const res = await get(`${RIDES}?payment_status=held&passenger_id=${passenger.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ items: [], total: 0 });
    });

    it('bad filters are 400s naming the field', async () => {
      const cases: Array<[string, string]> = [
        ['status=flying', 'status must be one of scheduled, requested, accepted, driver_arrived, started, completed, cancelled, expired'],
        ['payment_status=lost', 'payment_status must be one of pending, held, captured, released, failed, partially_refunded, refunded'],
        ['passenger_id=abc', 'passenger_id must be an integer number'],
        ['driver_id=0', 'driver_id must not be less than 1'],
        ['limit=101', 'limit must not be greater than 100'],
      ];
      for (const [query, message] of cases) {
        const res = await get(`${RIDES}?${query}`);
        expect([query, res.statusCode, res.json().details[0]]).toEqual([query, 400, { field: query.split('=')[0], message }]);
      }
    });
  });

  describe('GET /admin/rides/{id}', () => {
    it('is the ride plus its history: every status, who moved it there, when', async () => {
      const { passenger, driver, rideId } = await acceptedRide(t);
      expect((await setStatus(t, driver, rideId, 'driver_arrived')).statusCode).toBe(200);
      expect((await cancel(t, passenger, rideId, 'Changed my mind')).statusCode).toBe(200);
      const res = await get(`${RIDES}/${rideId}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id: rideId, status: 'cancelled', cancelled_by: 'passenger', passenger: { id: passenger.id } });
      const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.events).toEqual([
        { type: 'requested', actor: 'passenger', actor_id: passenger.id, reason: null, at },
        { type: 'accepted', actor: 'passenger', actor_id: passenger.id, reason: null, at },
        { type: 'driver_arrived', actor: 'driver', actor_id: driver.id, reason: null, at },
        { type: 'cancelled', actor: 'passenger', actor_id: passenger.id, reason: 'Changed my mind', at },
      ]);
    });

    it('an unknown or malformed id is 404 "Ride not found"', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await get(`${RIDES}/${id}`);
        expect([id, res.statusCode, res.json().message]).toEqual([id, 404, 'Ride not found']);
      }
    });
  });

  describe('POST /admin/rides/{id}/cancel', () => {
    it('cancels a started ride (which neither party may): cancelled_by operator, the usual events, an audit entry', async () => {
      const passenger = await createUser(t, { walletBalanceMinor: 5000 });
      const { driver, rideId } = await acceptedRide(t, { passenger, payment: 'wallet' });
      expect((await setStatus(t, driver, rideId, 'driver_arrived')).statusCode).toBe(200);
      expect((await setStatus(t, driver, rideId, 'started')).statusCode).toBe(200);
      const [rider, taxi] = await Promise.all([LiveClient.connect(t, passenger.accessToken), LiveClient.connect(t, driver.accessToken)]);
      try {
        const balances = await t.db.query(`SELECT user_id, balance_minor FROM wallets WHERE user_id = ANY($1) ORDER BY user_id`, [[passenger.id, driver.id]]);
        const res = await operatorCancel(rideId, { reason: `  ${REASON}  ` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: rideId,
          status: 'cancelled',
          cancelled_by: 'operator',
          cancel_reason: REASON,
          cancelled_at: expect.any(String),
        });
        for (const client of [rider, taxi]) {
          const message = await client.next('ride_cancelled');
          expect(message.data).toMatchObject({ cancelled_by: 'operator', ride: { id: rideId, status: 'cancelled' } });
        }
        // No fee, no payment: nobody's money moved.
        expect(await t.db.query(`SELECT user_id, balance_minor FROM wallets WHERE user_id = ANY($1) ORDER BY user_id`, [[passenger.id, driver.id]])).toEqual(
          balances,
        );
        expect(await t.db.query(`SELECT 1 FROM ride_payments WHERE ride_id = $1`, [rideId])).toEqual([]);
      } finally {
        rider.socket.close();
        taxi.socket.close();
      }
      const details = (await get(`${RIDES}/${rideId}`)).json();
      expect(details.events.at(-1)).toEqual({
        type: 'cancelled',
        actor: 'operator',
        actor_id: support.id,
        reason: REASON,
        at: expect.any(String),
      });
      const audit = (await get(`/api/v1/admin/audit?target_id=${rideId}`)).json();
      expect(audit.items).toEqual([
        {
          id: expect.any(Number),
          actor_id: support.id,
          action: 'rides.cancel',
          target_type: 'ride',
          target_id: rideId,
          reason: REASON,
          details: { passenger_id: passenger.id, driver_id: driver.id },
          created_at: expect.any(String),
        },
      ]);
      // The passenger is free to book again.
      expect((await bookRide(t, passenger)).status).toBe('requested');
    });

    it('a requested ride: the bidders hear their bids were withdrawn', async () => {
      const passenger = await createUser(t);
      const driver = await onlineDriver(t);
      const ride = await bookRide(t, passenger);
      const bid = await placeBid(t, driver, ride.id);
      const res = await operatorCancel(ride.id);
      expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'operator' });
      expect(await t.db.query(`SELECT status FROM bids WHERE id = $1`, [bid.id])).toEqual([{ status: 'withdrawn' }]);
    });

    it('a ride that is over is 409 "Ride can no longer be cancelled", with no audit entry', async () => {
      const { rideId } = await acceptedRide(t);
      expect((await operatorCancel(rideId)).statusCode).toBe(200);
      const again = await operatorCancel(rideId, { reason: 'A second time' });
      expect([again.statusCode, again.json().message]).toEqual([409, 'Ride can no longer be cancelled']);
      expect(await t.db.query(`SELECT count(*)::int AS n FROM audit_log WHERE target_id = $1`, [rideId])).toEqual([{ n: 1 }]);
    });

    it('an unknown ride is 404; a missing or short reason is 400 and changes nothing', async () => {
      expect((await operatorCancel('00000000-0000-4000-8000-000000000000')).json()).toMatchObject({
        statusCode: 404,
        message: 'Ride not found',
      });
      const { rideId } = await acceptedRide(t);
      for (const [payload, message] of [
        [{}, 'reason must be a string'],
        [{ reason: ' ab ' }, 'reason must be 3 to 500 characters'],
        [{ reason: 'x'.repeat(501) }, 'reason must be 3 to 500 characters'],
      ] as const) {
        const res = await operatorCancel(rideId, payload);
        expect([res.statusCode, res.json().details]).toEqual([400, [{ field: 'reason', message }]]);
      }
      expect((await get(`${RIDES}/${rideId}`)).json().status).toBe('accepted');
    });

    it('concurrent cancels of one ride: one 200, the rest 409, one audit entry', async () => {
      const { rideId } = await acceptedRide(t);
      const admin = await createOperator(t, 'admin');
      const results = await Promise.all([support, admin, support, admin].map((o) => operatorCancel(rideId, { reason: REASON }, o.accessToken)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
      expect(await t.db.query(`SELECT count(*)::int AS n FROM audit_log WHERE target_id = $1`, [rideId])).toEqual([{ n: 1 }]);
      expect(await t.db.query(`SELECT count(*)::int AS n FROM ride_events WHERE ride_id = $1 AND to_status = 'cancelled'`, [rideId])).toEqual([{ n: 1 }]);
    });

    it("an operator cancel racing the driver's completion: one wins, and the ride is either paid or cancelled and audited, never both", async () => {
      for (let round = 0; round < 3; round += 1) {
        const { driver, rideId } = await acceptedRide(t);
        for (const status of ['driver_arrived', 'started']) expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
        const [cancelled, completed] = await Promise.all([operatorCancel(rideId), setStatus(t, driver, rideId, 'completed')]);
        expect([cancelled.statusCode, completed.statusCode].sort()).toEqual([200, 409]);
        const [{ status }] = await t.db.query(`SELECT status FROM rides WHERE id = $1`, [rideId]);
        const paid = (await t.db.query(`SELECT 1 FROM ride_payments WHERE ride_id = $1`, [rideId])).length;
        const audited = (await t.db.query(`SELECT 1 FROM audit_log WHERE target_id = $1`, [rideId])).length;
        expect({ status, paid, audited }).toEqual(
          cancelled.statusCode === 200 ? { status: 'cancelled', paid: 0, audited: 1 } : { status: 'completed', paid: 1, audited: 0 },
        );
      }
    });

    it('finance may read rides but not cancel them', async () => {
      const { rideId } = await acceptedRide(t);
      const res = await operatorCancel(rideId, { reason: REASON }, finance.accessToken);
      expect([res.statusCode, res.json().message]).toEqual([403, 'Not allowed for your role']);
    });
  });
});
