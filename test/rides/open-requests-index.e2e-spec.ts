import { haversineKm } from '../../src/common/geo';
import { OpenRequestsIndex } from '../../src/modules/rides/read-models/open-requests/open-requests.index';
import type { NearbyQuery } from '../../src/modules/rides/read-models/open-requests/nearby-page';
import { NearbyPages } from '../../src/modules/rides/read-models/open-requests/nearby-pages';
import { RidesService } from '../../src/modules/rides/rides.service';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { bookRide, cancel } from './ride-helpers';

interface Seed {
  latitude: number;
  longitude: number;
  category: number;
  expired: boolean;
  status: 'requested' | 'cancelled';
}

/**
 * The in-memory open-requests index must answer nearby as the database's rows do (the query that
 * answers before the index has loaded, and the reference): same rides, same order, same
 * JSON, same distance_km, at any radius and category, across the antimeridian and at the poles; it
 * must load from the database in pages at start-up and count demand for surge.
 */
describe('open requests in memory', () => {
  let t: TestApp;
  let index: OpenRequestsIndex;
  let sql: NearbyPages;
  let codes = 0;
  const seeded: Array<Seed & { id: string }> = [];
  beforeAll(async () => {
    t = await startTestApp();
    index = t.get(OpenRequestsIndex);
    sql = t.get(NearbyPages);
    await waitFor('the start-up load', () => index.ready);
  });
  afterAll(() => t.close());

  /** Straight into the table, as the bench seeds: the index learns of them from the database. */
  async function seed(list: Seed[]): Promise<void> {
    const first = codes;
    codes += list.length;
    const rows: Array<{ id: string; n: string }> = await t.db.query(
      `INSERT INTO rides (id, ride_code, status, ride_type, vehicle_category_id, pickup_address, pickup_latitude, pickup_longitude,
                          dropoff_address, dropoff_latitude, dropoff_longitude, passenger_count, payment_method, estimate,
                          estimated_fare_minor, currency, expires_at)
       SELECT gen_random_uuid(), 'Q' || lpad(upper(to_hex($1::int + s.n)), 5, '0'), s.status, 'one_way', s.category,
              'seeded', s.lat, s.lng, 'seeded', s.lat, s.lng, 1, 'cash', '{"total": 10.5}'::jsonb, 1000, 'EUR',
              CASE WHEN s.expired THEN now() - interval '1 second' ELSE now() + interval '1 hour' END
         FROM unnest($2::float8[], $3::float8[], $4::int[], $5::boolean[], $6::text[]) WITH ORDINALITY AS s(lat, lng, category, expired, status, n)
       RETURNING id, ride_code AS n`,
      [first, list.map((s) => s.latitude), list.map((s) => s.longitude), list.map((s) => s.category), list.map((s) => s.expired), list.map((s) => s.status)],
    );
    const ids = new Map(rows.map((row) => [parseInt(row.n.slice(1), 16) - first - 1, row.id]));
    list.forEach((s, i) => seeded.push({ ...s, id: ids.get(i)! }));
  }

  function scatter(count: number, lat: [number, number], lng: [number, number]): Seed[] {
    const wrap = (x: number) => ((((x + 180) % 360) + 360) % 360) - 180;
    return Array.from({ length: count }, (_, i) => ({
      latitude: lat[0] + Math.random() * (lat[1] - lat[0]),
      longitude: wrap(lng[0] + Math.random() * (lng[1] - lng[0])),
      category: 1 + (i % 2),
      expired: i % 11 === 0,
      status: i % 13 === 0 ? ('cancelled' as const) : ('requested' as const),
    }));
  }

  /** The page from the database's rows (what answers before the index has loaded). */
  function sqlPage(q: NearbyQuery): Promise<string> {
    return sql.fromDatabase(q);
  }

  async function expectSameAsSql(q: NearbyQuery): Promise<number> {
    const memory = index.nearby(q)!.writer;
    const fromDatabase = await sql.pageFromDatabase(q);
    expect(memory.finish()).toBe(fromDatabase.bytes.toString('utf8'));
    // The same page has the same ETag whichever path built it (an instance still loading included).
    expect(memory.etag()).toBe(fromDatabase.etag);
    return (JSON.parse(memory.finish()) as unknown[]).length;
  }

  it('answers every query exactly as the SQL page, in a city, across the antimeridian and at the poles', async () => {
    await seed(scatter(3000, [46.8, 47.2], [-120.3, -119.7]));
    await seed(scatter(1200, [-16.2, -15.8], [179.7, 180.3]));
    await seed(scatter(400, [89.6, 90], [-180, 180]));
    await seed(scatter(400, [-90, -89.7], [-180, 180]));
    expect(await index.reconcile()).toBeGreaterThan(4000);
    const points: Array<[number, number]> = [
      [47, -120],
      [46.81, -119.71],
      [47.3, -120],
      [-16, 180],
      [-16, -179.99],
      [-16.1, 179.95],
      [90, 0],
      [89.9, 45],
      [89.7, -170],
      [-90, 0],
      [-89.8, 120],
    ];
    let nonEmpty = 0;
    for (const [latitude, longitude] of points) {
      for (const vehicleCategoryId of [1, 2, null]) {
        for (const radiusKm of [0.5, 5, 15, 50]) {
          if ((await expectSameAsSql({ latitude, longitude, radiusKm, vehicleCategoryId, limit: 50 })) > 0) nonEmpty += 1;
        }
        await expectSameAsSql({ latitude, longitude, radiusKm: 20, vehicleCategoryId, limit: 7 });
      }
    }
    expect(nonEmpty).toBeGreaterThan(80);
    // Another category: nothing.
    expect(index.nearbyBody({ latitude: 47, longitude: -120, radiusKm: 50, vehicleCategoryId: 3, limit: 50 })).toBe('[]');
  });

  it('counts the open, unexpired requests of a category within a radius (surge demand), from memory', () => {
    const rides = t.get(RidesService);
    for (const [point, radiusKm] of [
      [{ latitude: 47, longitude: -120 }, 5],
      [{ latitude: 47, longitude: -120 }, 20],
      [{ latitude: -16, longitude: 180 }, 10],
      [{ latitude: 90, longitude: 0 }, 30],
    ] as const) {
      for (const category of [1, 2]) {
        const want = seeded.filter((s) => !s.expired && s.status === 'requested' && s.category === category && haversineKm(point, s) <= radiusKm).length;
        expect(rides.countOpenRequestsNear(point, radiusKm, category)).toBe(want);
      }
    }
    expect(rides.countOpenRequestsNear({ latitude: 47, longitude: -120 }, 50, 3)).toBe(0);
  });

  it('a new instance loads them at start-up, in pages, and answers the same', async () => {
    const late = await startTestApp({ databaseUrl: t.databaseUrl });
    try {
      const other = late.get(OpenRequestsIndex);
      await waitFor('the second instance loaded the index', () => other.ready);
      expect(other.size).toBe(index.size);
      expect(other.size).toBe(seeded.filter((s) => !s.expired && s.status === 'requested').length);
      for (const vehicleCategoryId of [1, null]) {
        const q = { latitude: 47, longitude: -120, radiusKm: 15, vehicleCategoryId, limit: 50 };
        expect(other.nearbyBody(q)).toBe(await sqlPage(q));
      }
    } finally {
      await late.close();
    }
  });

  it('booked rides (passenger and all) come from the event, as the database writes them; a passenger profile edit follows; cancelled ones leave', async () => {
    const at = { address: 'Index street 1', latitude: 10.5, longitude: 20.5 };
    const first = await bookRide(t, await createUser(t), { pickup: at });
    const second = await bookRide(t, await createUser(t), { pickup: { ...at, latitude: 10.51 } });
    const q = { latitude: 10.5, longitude: 20.5, radiusKm: 5, vehicleCategoryId: 1, limit: 50 };
    expect((JSON.parse(index.nearbyBody(q)!) as Array<{ id: string }>).map((r) => r.id)).toEqual([first.id, second.id]);
    expect(index.nearbyBody(q)).toBe(await sqlPage(q));
    expect(await index.reconcile()).toBe(2); // event entries carry no fingerprint: read once, unchanged
    expect(index.nearbyBody(q)).toBe(await sqlPage(q));
    expect(await index.reconcile()).toBe(0);
    // The passenger's public profile shows in the ride: an edit reaches the entry.
    const renamed = await createUser(t);
    const fourth = await bookRide(t, renamed, { pickup: { ...at, latitude: 10.52 } });
    const edit = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: renamed.accessToken, payload: { first_name: 'Renamed' } });
    expect(edit.statusCode).toBe(200);
    await waitFor('the edit reached the index', () => index.nearbyBody(q)!.includes('"first_name":"Renamed"'));
    expect(index.nearbyBody(q)).toBe(await sqlPage(q));
    expect((await cancel(t, renamed, fourth.id)).statusCode).toBe(200);

    const passenger = await createUser(t);
    const third = await bookRide(t, passenger, { pickup: { ...at, latitude: 10.49 } });
    expect((await cancel(t, passenger, third.id)).statusCode).toBe(200);
    expect(index.nearbyBody(q)).toBe(await sqlPage(q));
    expect(JSON.parse(index.nearbyBody(q)!)).toHaveLength(2);
  });
});
