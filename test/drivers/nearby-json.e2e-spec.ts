import { DataSource } from 'typeorm';
import { RidesRepository } from '../../src/modules/rides/repositories/rides.repository';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, rideJsonSql, rideToJson, RideViewRow } from '../../src/modules/rides/views/ride-view';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, onlineDriver, PICKUP } from '../rides/ride-helpers';

/**
 * Nearby's page is built as JSON by the database (rideJsonSql) while every other endpoint uses
 * rideToJson: the two must give the same ride, field for field, whatever its shape.
 */
describe('the ride JSON built in SQL equals rideToJson', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('for rides of every shape: promo, round trip, per hour, assigned driver with vehicle, fare, odd timestamps', async () => {
    await t.db.query(`INSERT INTO promo_codes (code, discount_type, discount_value, usage_limit) VALUES ('JSON5', 'fixed', 150, 10)`);
    const later = new Date(Date.now() + 3 * 3600_000).toISOString();
    const ids: string[] = [];
    ids.push((await bookRide(t, await createUser(t), { promo_code: 'json5' })).id);
    ids.push((await bookRide(t, await createUser(t), { promo_code: 'NOPE' })).id);
    ids.push(
      (
        await bookRide(t, await createUser(t), {
          ride_type: 'round_trip',
          return_location: { address: 'Zoo "Garten" \\ \u00e9\u4e2d\n', latitude: 52.5079, longitude: 13.3378 },
          return_scheduled_at: later,
        })
      ).id,
    );
    ids.push((await bookRide(t, await createUser(t), { ride_type: 'per_hour', duration_minutes: 120, end_scheduled_at: later })).id);
    const { rideId } = await acceptedRide(t, { amount: 12.35 });
    ids.push(rideId);
    await t.db.query(`UPDATE drivers SET rating = 4.67 WHERE user_id = (SELECT driver_id FROM rides WHERE id = $1)`, [rideId]);
    // Sub-millisecond parts: Date keeps milliseconds by truncation, so must the SQL.
    await t.db.query(
      `UPDATE rides SET fare_minor = 1999, accepted_at = '2024-05-06 07:08:09.999999+00', arrived_at = '1999-12-31 23:59:59.0005+02',
                        cancel_reason = 'tab\there' WHERE id = $1`,
      [rideId],
    );

    const views: RideViewRow[] = await t.get(DataSource).query(`SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = ANY($1::uuid[])`, [ids]);
    const built: Array<{ id: string; body: string }> = await t.db.query(
      `SELECT v.id, ${rideJsonSql('v')}::text AS body FROM (SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = ANY($1::uuid[])) v`,
      [ids],
    );
    expect(built).toHaveLength(ids.length);
    for (const row of built) {
      const view = views.find((v) => v.id === row.id)!;
      expect(JSON.parse(row.body)).toStrictEqual(JSON.parse(JSON.stringify(rideToJson(view))));
    }
  });

  it('GET /driver/rides/nearby answers each ride as rideToJson plus distance_km, nearest first', async () => {
    const driver = await onlineDriver(t);
    const near = await bookRide(t, await createUser(t), { pickup: { ...PICKUP, latitude: PICKUP.latitude + 0.0005 } });
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/driver/rides/nearby?latitude=${PICKUP.latitude}&longitude=${PICKUP.longitude}&radius_km=5`,
      token: driver.accessToken,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const page = res.json() as Array<Record<string, unknown>>;
    expect(page.length).toBeGreaterThan(0);
    const km = page.map((r) => r.distance_km as number);
    expect([...km].sort((a, b) => a - b)).toEqual(km);
    const views = await Promise.all(page.map((r) => t.get(RidesRepository).findView(r.id as string)));
    page.forEach((ride, i) => {
      const { distance_km, ...rest } = ride;
      expect(Math.round((distance_km as number) * 100)).toBe((distance_km as number) * 100);
      expect(rest).toStrictEqual(JSON.parse(JSON.stringify(rideToJson(views[i]!))));
    });
    expect(page.some((r) => r.id === near.id)).toBe(true);
  });
});
