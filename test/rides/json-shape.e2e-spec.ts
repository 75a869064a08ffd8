import { DataSource } from 'typeorm';
import { RidesRepository } from '../../src/modules/rides/read-models/rides.repository';
import { compileJsonShape, jsonShapeSql, ObjectSpec } from '../../src/common/database/json-shape';
import { RIDE_SHAPE, RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, rideToJson, RideViewRow } from '../../src/modules/rides/read-models/ride-view';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, onlineDriver, PICKUP } from '../rides/ride-helpers';

/**
 * One shape declaration compiles to JavaScript (rideToJson, bidToJson, estimates) and to SQL (the
 * nearby page): both compilations must write the same JSON for every conversion and every null.
 */
describe('json-shape: the SQL and the JavaScript compilations of a shape agree', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('for every conversion, null, missing jsonb keys, null objects and awkward text', async () => {
    type Row = { t: Date | null; m: number | null; n: string | null; h: number | null; c: string | null; j: unknown; s: string | null };
    type Out = {
      t: string | null;
      m: number | null;
      n: number | null;
      h: number | null;
      c: string | null;
      s: string | null;
      deep: { a: unknown; b: number | null; missing: unknown; at: string | null } | null;
      guarded: { x: unknown } | null;
    };
    const shape: ObjectSpec<Out, Row> = {
      fields: {
        t: { from: ['t'], as: 'iso' },
        m: { from: ['m'], as: 'major' },
        n: { from: ['n'], as: 'number' },
        h: { from: ['h'], as: 'hundredths' },
        c: { from: ['c'], as: 'trim' },
        s: { from: ['s'] },
        deep: {
          nullIf: [['j', 'o']],
          fields: {
            a: { from: ['j', 'o', 'a'] },
            b: { from: ['j', 'o', 'b'], as: 'major' },
            missing: { from: ['j', 'o', 'nope'] },
            at: { from: ['j', 'o', 'at'], as: 'iso' },
          },
        },
        guarded: { nullIf: [['s'], ['m']], fields: { x: { from: ['j', 'x'] } } },
      },
    };
    const rows = `(VALUES
      ('2024-05-06 07:08:09.999999+00'::timestamptz, 1999::int, '4.67'::numeric, 1.005::float8, 'EUR '::char(4), '{"o":{"a":[1,"x"],"b":250,"at":"2020-01-02T03:04:05.678Z"},"x":true}'::jsonb, E'tab\\there "q" \\\\ é中'),
      (NULL, NULL, NULL, NULL, NULL, '{"o":null}'::jsonb, NULL),
      ('1999-12-31 23:59:59.0005+02', -7, '0', 2.675, 'X', '{}'::jsonb, '')
    ) AS v(t, m, n, h, c, j, s)`;
    const js = compileJsonShape(shape);
    const fromSql: Array<{ body: string; row: string }> = await t.db.query(
      `SELECT ${jsonShapeSql(shape, 'v')}::text AS body, row_to_json(v)::text AS row FROM ${rows}`,
    );
    const raw: Row[] = await t.db.query(`SELECT * FROM ${rows}`);
    expect(fromSql).toHaveLength(3);
    fromSql.forEach((r, i) => expect(JSON.parse(r.body)).toStrictEqual(JSON.parse(JSON.stringify(js(raw[i]!)))));
    expect(JSON.parse(fromSql[0]!.body)).toMatchObject({
      t: '2024-05-06T07:08:09.999Z',
      m: 19.99,
      n: 4.67,
      c: 'EUR',
      s: 'tab\there "q" \\ é中',
      deep: { a: [1, 'x'], b: 2.5, missing: null },
    });
    expect(JSON.parse(fromSql[1]!.body)).toMatchObject({ t: null, m: null, deep: null, guarded: null });
    expect(() =>
      jsonShapeSql({ fields: { x: { from: ["x'; DROP TABLE rides; --"] } } } as unknown as ObjectSpec<{ x: unknown }, Record<string, unknown>>, 'v'),
    ).toThrow(/unsafe name/);
  });

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
    await t.db.query(`UPDATE drivers SET rating_sum = 14, ratings_count = 3, rating = 4.67 WHERE user_id = (SELECT driver_id FROM rides WHERE id = $1)`, [
      rideId,
    ]);
    // Sub-millisecond parts: Date keeps milliseconds by truncation, so must the SQL.
    await t.db.query(
      `UPDATE rides SET fare_minor = 1999, accepted_at = '2024-05-06 07:08:09.999999+00', arrived_at = '1999-12-31 23:59:59.0005+02',
                        cancel_reason = 'tab\there' WHERE id = $1`,
      [rideId],
    );

    const views: RideViewRow[] = await t.get(DataSource).query(`SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = ANY($1::uuid[])`, [ids]);
    const built: Array<{ id: string; body: string }> = await t.db.query(
      `SELECT v.id, ${jsonShapeSql(RIDE_SHAPE, 'v')}::text AS body FROM (SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = ANY($1::uuid[])) v`,
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
