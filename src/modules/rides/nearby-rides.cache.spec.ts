import { InProcessEventBus } from '../../common/events/in-process-event-bus';
import type { AppConfig } from '../../config/app-config';
import { haversineKm } from './fare/geo';
import { NearbyRidesCache } from './nearby-rides.cache';
import type { NearbyQuery, RidesRepository } from './repositories/rides.repository';
import type { RideViewRow } from './views/ride-view';

/** Deterministic pseudo-random numbers. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function ride(i: number, latitude: number, longitude: number): RideViewRow {
  const at = new Date('2030-01-01T00:00:00Z');
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    ride_code: 'ABC123',
    status: 'requested',
    ride_type: 'one_way',
    vehicle_category_id: 1,
    passenger_id: i,
    driver_id: null,
    pickup_address: `p${i}`,
    pickup_latitude: latitude,
    pickup_longitude: longitude,
    dropoff_address: 'd',
    dropoff_latitude: 0,
    dropoff_longitude: 0,
    return_address: null,
    return_latitude: null,
    return_longitude: null,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
    duration_minutes: null,
    end_scheduled_at: null,
    return_scheduled_at: null,
    promo_code: null,
    estimate: { distanceKm: 1, durationMinutes: 1, baseMinor: 0, distanceMinor: 0, timeMinor: 0, subtotalMinor: 0, discountMinor: 0, totalMinor: 0 } as never,
    fare_minor: null,
    currency: 'USD',
    accepted_bid_id: null,
    cancelled_by: null,
    cancel_reason: null,
    expires_at: at,
    accepted_at: null,
    arrived_at: null,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    created_at: at,
    updated_at: at,
    p_first_name: 'P',
    p_last_name: 'Q',
    p_picture: null,
    d_first_name: null,
    d_last_name: null,
    d_picture: null,
    d_rating: null,
    d_category: null,
    d_make: null,
    d_model: null,
    d_plate: null,
    d_color: null,
    d_year: null,
  };
}

/** What the SQL does: within the radius, nearest first then id, at most `limit`. */
class FakeRides {
  calls = 0;
  constructor(private readonly rows: RideViewRow[]) {}
  async findRequestedNear(q: NearbyQuery) {
    this.calls += 1;
    return this.rows
      .map((r) => ({ ...r, distance_km: haversineKm(q, { latitude: r.pickup_latitude, longitude: r.pickup_longitude }) }))
      .filter((r) => r.distance_km <= q.radiusKm)
      .sort((a, b) => a.distance_km - b.distance_km || (a.id < b.id ? -1 : 1))
      .slice(0, q.limit);
  }
}

function cacheOver(rows: RideViewRow[], nearbyCacheMs: number) {
  const repo = new FakeRides(rows);
  const cache = new NearbyRidesCache(repo as unknown as RidesRepository, { nearbyCacheMs } as AppConfig, new InProcessEventBus());
  return { cache, repo };
}

const query = (latitude: number, longitude: number, radiusKm: number): NearbyQuery => ({
  latitude,
  longitude,
  radiusKm,
  vehicleCategoryId: 1,
  limit: 50,
});

describe('NearbyRidesCache', () => {
  const next = random(42);
  // A dense area: 400 rides within about 1.5 km, so pages are cut by the limit (50), not the radius.
  const dense = Array.from({ length: 400 }, (_, i) => ride(i, 52.52 + (next() - 0.5) * 0.03, 13.4 + (next() - 0.5) * 0.04));

  it('answers exactly what the uncached path answers, for points all over one grid cell and many radii', async () => {
    const { cache, repo } = cacheOver(dense, 60_000);
    const { cache: fresh } = cacheOver(dense, 0);
    let asked = 0;
    for (let cell = 0; cell < 20; cell += 1) {
      const latitude = 52.52 + Math.round((next() - 0.5) * 20) / 1e4;
      const longitude = 13.4 + Math.round((next() - 0.5) * 20) / 1e4;
      for (let i = 0; i < 10; i += 1) {
        // Anywhere in the cell, up to its edges (half a grid step each way).
        const q = query(latitude + (next() - 0.5) * 1e-4, longitude + (next() - 0.5) * 1e-4, [0.1, 0.3, 0.8, 2, 5][i % 5]!);
        expect(JSON.parse(await cache.find(q))).toEqual(JSON.parse(await fresh.find(q)));
        asked += 1;
      }
    }
    expect(repo.calls).toBeLessThan(asked);
  });

  it('asks the database directly when the page may reach past the cached candidates (a crowd at one spot)', async () => {
    // 300 rides within a few metres of one spot 1 km away: the 50th and the 100th are nearly equally far.
    const crowd = Array.from({ length: 300 }, (_, i) => ride(i, 52.529 + (next() - 0.5) * 1e-4, 13.4 + (next() - 0.5) * 1e-4));
    const { cache, repo } = cacheOver(crowd, 60_000);
    const { cache: fresh } = cacheOver(crowd, 0);
    for (let i = 0; i < 20; i += 1) {
      const q = query(52.52 + (next() - 0.5) * 1e-4, 13.4 + (next() - 0.5) * 1e-4, 5);
      expect(JSON.parse(await cache.find(q))).toEqual(JSON.parse(await fresh.find(q)));
    }
    expect(repo.calls).toBeGreaterThan(1);
  });

  it('serves repeated requests from one load and reloads after clear()', async () => {
    const { cache, repo } = cacheOver(dense.slice(0, 10), 60_000);
    const a = await cache.find(query(52.52001, 13.40001, 5));
    const b = await cache.find(query(52.52003, 13.40002, 5));
    expect(repo.calls).toBe(1);
    expect(JSON.parse(a)).toHaveLength(10);
    expect(JSON.parse(a)).not.toEqual(JSON.parse(b)); // same rides, distances from each exact point
    cache.clear();
    await cache.find(query(52.52001, 13.40001, 5));
    expect(repo.calls).toBe(2);
  });

  it('each ride carries distance_km from the exact point, 2 decimals, nearest first', async () => {
    const rows = [ride(1, 52.53, 13.4), ride(2, 52.521, 13.4), ride(3, 52.6, 13.4)];
    const { cache } = cacheOver(rows, 60_000);
    const q = query(52.52004, 13.40004, 5);
    const page = JSON.parse(await cache.find(q)) as Array<{ id: string; distance_km: number; pickup: { latitude: number; longitude: number } }>;
    expect(page.map((r) => r.id)).toEqual([rows[1]!.id, rows[0]!.id]);
    for (const r of page) expect(r.distance_km).toBe(Math.round(haversineKm(q, r.pickup) * 100) / 100);
  });
});
