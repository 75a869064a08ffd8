import { haversineKm } from '../../src/common/geo';
import type { NearbyQuery } from '../../src/modules/rides/read-models/open-requests/nearby-page';
import { OpenRequestsRepository } from '../../src/modules/rides/read-models/open-requests/open-requests.repository';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookRide, onlineDriver } from '../rides/ride-helpers';

interface Seed {
  latitude: number;
  longitude: number;
  category: number;
  expired?: boolean;
  status?: 'requested' | 'cancelled';
}

interface Seeded extends Seed {
  id: string;
}

/**
 * GET /driver/rides/nearby at city scale: the GiST index on the pickup's unit vector must give the
 * exact great-circle order everywhere on the sphere, and the query must read it nearest first
 * (an index scan ordered by `<->` under the LIMIT), never the whole neighbourhood and a sort.
 */
describe('nearby rides through the pickup_vec index', () => {
  let t: TestApp;
  let rides: OpenRequestsRepository;
  let codes = 0;
  beforeAll(async () => {
    t = await startTestApp();
    rides = t.get(OpenRequestsRepository);
  });
  afterAll(() => t.close());

  /** Inserts rides straight into the table (thousands in one statement); passenger-less. */
  async function seed(list: Seed[]): Promise<Seeded[]> {
    const first = codes;
    codes += list.length;
    const rows: Array<{ id: string; ride_code: string }> = await t.db.query(
      `INSERT INTO rides (id, ride_code, status, ride_type, vehicle_category_id,
                          pickup_address, pickup_latitude, pickup_longitude,
                          dropoff_address, dropoff_latitude, dropoff_longitude,
                          passenger_count, payment_method, estimate, estimated_fare_minor, currency, expires_at)
       SELECT gen_random_uuid(), 'Z' || lpad(upper(to_hex($1::int + s.n)), 5, '0'), s.status, 'one_way', s.category,
              'seeded', s.lat, s.lng, 'seeded', s.lat, s.lng,
              1, 'cash', '{}'::jsonb, 1000, 'EUR',
              CASE WHEN s.expired THEN now() - interval '1 second' ELSE now() + interval '1 hour' END
         FROM unnest($2::float8[], $3::float8[], $4::int[], $5::boolean[], $6::text[]) WITH ORDINALITY
                AS s(lat, lng, category, expired, status, n)
       RETURNING id, ride_code`,
      [
        first,
        list.map((s) => s.latitude),
        list.map((s) => s.longitude),
        list.map((s) => s.category),
        list.map((s) => s.expired ?? false),
        list.map((s) => s.status ?? 'requested'),
      ],
    );
    // The code carries the seed's position (ORDINALITY starts at 1).
    const ids = new Map(rows.map((row) => [parseInt(row.ride_code.slice(1), 16) - first - 1, row.id]));
    return list.map((s, i) => ({ ...s, id: ids.get(i)! }));
  }

  /** What the endpoint must return: computed here from the seeds, independently of the index. */
  function expected(seeded: Seeded[], q: NearbyQuery): Array<{ id: string; km: number }> {
    return seeded
      .filter((s) => !s.expired && (s.status ?? 'requested') === 'requested')
      .filter((s) => q.vehicleCategoryId === null || s.category === q.vehicleCategoryId)
      .map((s) => ({ id: s.id, km: haversineKm(q, s) }))
      .filter((s) => s.km <= q.radiusKm)
      .sort((a, b) => a.km - b.km || (a.id < b.id ? -1 : 1))
      .slice(0, q.limit);
  }

  async function expectExact(seeded: Seeded[], q: NearbyQuery): Promise<number> {
    const got = await rides.findNearest(q);
    const want = expected(seeded, q);
    expect(got.map((r) => r.id)).toEqual(want.map((w) => w.id));
    got.forEach((row, i) => expect(Number(row.distance_km)).toBeCloseTo(want[i]!.km, 9));
    return got.length;
  }

  /** Random rides in a lat/lng window, some expired, some cancelled, in categories 1 and 2. */
  function scatter(count: number, lat: [number, number], lng: [number, number]): Seed[] {
    return Array.from({ length: count }, (_, i) => ({
      latitude: lat[0] + Math.random() * (lat[1] - lat[0]),
      longitude: lng[0] + Math.random() * (lng[1] - lng[0]),
      category: 1 + (i % 2),
      expired: i % 11 === 0,
      status: i % 13 === 0 ? ('cancelled' as const) : ('requested' as const),
    }));
  }

  const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

  it('nearest first with exact distances, radius, category, expired and non-requested rides left out', async () => {
    const origin = { latitude: 47.0, longitude: -120.0 };
    // Dense enough that even the 5 km radius holds rides of each category (about 20 expected).
    const seeded = await seed(scatter(1200, [46.8, 47.2], [-120.3, -119.7]));
    for (const vehicleCategoryId of [1, 2, null]) {
      for (const [radiusKm, limit] of [
        [5, 50],
        [15, 50],
        [15, 7],
        [50, 50],
      ] as const) {
        const n = await expectExact(seeded, { ...origin, radiusKm, vehicleCategoryId, limit });
        expect(n).toBeGreaterThan(0);
      }
    }
    // Another category than the seeds': nothing.
    expect(await rides.findNearest({ ...origin, radiusKm: 50, vehicleCategoryId: 3, limit: 50 })).toEqual([]);
  });

  it('across the antimeridian: rides on both sides of ±180° are as near as they are', async () => {
    // About 200 rides of category 1 in the 20 km radius on average, so a full page of 50 is certain
    // whatever the random draw (300 seeds left it near 50 and a draw could fall short).
    const seeds = scatter(1200, [-16.2, -15.8], [179.7, 180.3]).map((s) => ({ ...s, longitude: wrap(s.longitude) }));
    const seeded = await seed(seeds);
    expect(seeded.some((s) => s.longitude < 0) && seeded.some((s) => s.longitude > 0)).toBe(true);
    for (const longitude of [179.99, -179.99, 180]) {
      for (const vehicleCategoryId of [1, null]) {
        const n = await expectExact(seeded, { latitude: -16.0, longitude, radiusKm: 20, vehicleCategoryId, limit: 50 });
        expect(n).toBe(50);
      }
    }
    // Both sides of the line in one page.
    const page = await rides.findNearest({ latitude: -16.0, longitude: 180, radiusKm: 20, vehicleCategoryId: null, limit: 50 });
    expect(new Set(page.map((r) => Math.sign(r.pickup_longitude))).size).toBe(2);
  });

  it('near the poles and at high latitudes, where a degree of longitude is a few metres', async () => {
    const north = await seed(scatter(300, [89.6, 90], [-180, 180]));
    for (const [latitude, longitude] of [
      [90, 0],
      [89.9, 45],
      [89.7, -170],
    ]) {
      await expectExact(north, { latitude: latitude!, longitude: longitude!, radiusKm: 30, vehicleCategoryId: null, limit: 50 });
      await expectExact(north, { latitude: latitude!, longitude: longitude!, radiusKm: 50, vehicleCategoryId: 2, limit: 20 });
    }
    const south = await seed(scatter(300, [-78.3, -77.7], [160, 170]));
    await expectExact(south, { latitude: -78, longitude: 165, radiusKm: 50, vehicleCategoryId: null, limit: 50 });
    await expectExact(south, { latitude: -78, longitude: 165, radiusKm: 10, vehicleCategoryId: 1, limit: 50 });
  });

  it('the endpoint answers from the index across the antimeridian, distances rounded to 2 decimals', async () => {
    const at = (latitude: number, longitude: number) => ({
      pickup: { address: `${latitude},${longitude}`, latitude, longitude },
      dropoff: { address: 'nearby', latitude: latitude + 0.01, longitude },
    });
    const east = await bookRide(t, await createUser(t), at(65.3, 179.99));
    const west = await bookRide(t, await createUser(t), at(65.3, -179.96));
    const driver = await onlineDriver(t);
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/driver/rides/nearby?latitude=65.3&longitude=-179.995&radius_km=5',
      token: driver.accessToken,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Array<{ id: string; distance_km: number }>;
    const km = (lng: number) => Math.round(haversineKm({ latitude: 65.3, longitude: -179.995 }, { latitude: 65.3, longitude: lng }) * 100) / 100;
    expect(body.map((r) => [r.id, r.distance_km])).toEqual([
      [east.id, km(179.99)],
      [west.id, km(-179.96)],
    ]);
  });

  it('reads the index nearest first under the LIMIT: as many rows as it returns, however many are in the radius', async () => {
    const center = { latitude: 12.0, longitude: 77.0 };
    await seed(scatter(4000, [11.9, 12.1], [76.9, 77.1]).map((s) => ({ ...s, expired: false, status: 'requested' as const })));
    await t.db.query('ANALYZE rides');
    for (const vehicleCategoryId of [1, null]) {
      const q: NearbyQuery = { ...center, radiusKm: 50, vehicleCategoryId, limit: 50 };
      const plan = (await rides.explainNearest(q)) as PlanRoot[];
      const nodes = flatten(plan[0]!.Plan);
      const scans = nodes.filter((n) => n['Relation Name'] === 'rides');
      expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'rides_requested_near_idx']]);
      const scan = scans[0]!;
      expect(scan['Order By']).toMatch(/^\(pickup_vec <-> /);
      if (vehicleCategoryId !== null) expect(scan['Index Cond']).toMatch(/vehicle_category_id = /);
      // Every ride in the radius qualifies (2,000+ here), yet the scan stops after the page.
      expect(scan['Actual Rows']).toBe(50);
      expect(nodes.filter((n) => n['Node Type'] === 'Sort').every((n) => n['Actual Rows']! <= 50)).toBe(true);
      expect((await rides.findNearest(q)).length).toBe(50);
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Order By'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

interface PlanRoot {
  Plan: PlanNode;
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
