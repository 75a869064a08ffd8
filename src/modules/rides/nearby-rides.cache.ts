import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import { haversineKm } from './fare/geo';
import { NearbyQuery, RidesRepository } from './repositories/rides.repository';
import { rideToJson } from './views/ride-view';

const MAX_ENTRIES = 2_000;
/** Points are grouped on a grid of 1e-4 degrees (about 11 m). */
const GRID = 1e4;
/** More than the farthest a point can be from its grid point (half a cell each way: under 8 m). */
const MARGIN_KM = 0.01;
/** Candidates kept per grid point, as a multiple of the page size: room for the shift to the exact point. */
const CANDIDATE_FACTOR = 2;

interface Candidate {
  id: string;
  /** The ride's JSON (rideToJson) without its closing brace: distance_km is appended per request. */
  head: string;
  latitude: number;
  longitude: number;
  expiresAt: number;
  /** Distance from the grid point. */
  gridKm: number;
}

interface CandidateSet {
  candidates: Candidate[];
  /** True when the query hit its row limit: rides beyond the last candidate exist. */
  truncated: boolean;
}

/**
 * Nearby requested rides for drivers. The candidate rides around a grid point (the request's point
 * rounded to 4 decimals, the radius widened by the rounding) are cached for NEARBY_CACHE_MS per
 * (category, grid point, radius); each request then computes its distances from its own exact
 * point, filters, sorts and cuts the page in memory, so the answer is what a fresh query from that
 * point returns. Any booked, accepted, cancelled or expired ride clears the cache: on this instance
 * right after the commit, on every instance through the ride events.
 */
@Injectable()
export class NearbyRidesCache implements OnModuleDestroy {
  private readonly cache: ReadThroughCache<string, CandidateSet>;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly rides: RidesRepository,
    config: AppConfig,
    events: EventBus,
  ) {
    this.cache = new ReadThroughCache({ ttlMs: config.nearbyCacheMs, maxEntries: MAX_ENTRIES });
    const clear = () => this.clear();
    this.unsubscribe = [
      events.subscribe('ride.requested', clear),
      events.subscribe('ride.accepted', clear),
      events.subscribe('ride.cancelled', clear),
      events.subscribe('ride.expired', clear),
      events.subscribe('user.access_revoked', (e) => {
        if (e.reason === 'deleted') clear();
      }),
    ];
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  clear(): void {
    this.cache.clear();
  }

  /**
   * Requested rides within q.radiusKm of q's point, nearest first, each with distance_km (2 decimals),
   * as a serialised JSON array (the rides are serialised once per load, not per request).
   */
  async find(q: NearbyQuery): Promise<string> {
    if (!this.cache.enabled) return this.exact(q);
    const gridLat = Math.round(q.latitude * GRID);
    const gridLng = Math.round(q.longitude * GRID);
    const grid: NearbyQuery = {
      latitude: gridLat / GRID,
      longitude: gridLng / GRID,
      radiusKm: q.radiusKm + MARGIN_KM,
      vehicleCategoryId: q.vehicleCategoryId,
      limit: q.limit * CANDIDATE_FACTOR,
    };
    const key = `${q.vehicleCategoryId ?? '*'}|${gridLat}|${gridLng}|${q.radiusKm}|${q.limit}`;
    const set = (this.cache.peek(key) ?? (await this.cache.load(key, () => this.load(grid, grid.limit))))!;
    const shiftKm = haversineKm(q, grid);
    // Rare (a dense area): the exact point's page may reach past the cached candidates; ask directly.
    return page(set, q, shiftKm, true) ?? this.exact(q);
  }

  /** Straight from the database for exactly q. */
  private async exact(q: NearbyQuery): Promise<string> {
    return page(await this.load(q, q.limit), q, 0, false)!;
  }

  private async load(q: NearbyQuery, limit: number): Promise<CandidateSet> {
    const rows = await this.rides.findRequestedNear({ ...q, limit });
    const candidates = rows.map((row) => ({
      id: row.id,
      head: JSON.stringify(rideToJson(row)).slice(0, -1),
      latitude: row.pickup_latitude,
      longitude: row.pickup_longitude,
      expiresAt: row.expires_at instanceof Date ? row.expires_at.getTime() : Date.parse(row.expires_at),
      gridKm: Number(row.distance_km),
    }));
    return { candidates, truncated: rows.length >= limit };
  }
}

/**
 * The page for point q out of candidates sorted by distance from a point shiftKm away; undefined
 * when a ride beyond the candidates could belong on it. Any such ride is at least lastKm from the
 * candidates' point, so at least lastKm - shiftKm from q (triangle inequality): if the page's
 * farthest ride is nearer than that (or the page is short and the radius ends nearer), it is exact.
 */
function page(set: CandidateSet, q: NearbyQuery, shiftKm: number, checkReach: boolean): string | undefined {
  const limit = q.limit;
  const now = Date.now();
  const hits: Array<{ c: Candidate; km: number }> = [];
  for (const c of set.candidates) {
    if (c.expiresAt <= now) continue;
    const km = shiftKm === 0 ? c.gridKm : haversineKm(q, c);
    if (km <= q.radiusKm) hits.push({ c, km });
  }
  hits.sort((a, b) => a.km - b.km || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  if (checkReach && set.truncated) {
    const last = set.candidates[set.candidates.length - 1];
    const bound = (last ? last.gridKm : 0) - shiftKm;
    const reach = hits.length >= limit ? hits[limit - 1]!.km : q.radiusKm;
    if (reach >= bound) return undefined;
  }
  let body = '[';
  for (let i = 0; i < hits.length && i < limit; i += 1) {
    const hit = hits[i]!;
    body += `${i === 0 ? '' : ','}${hit.c.head},"distance_km":${Math.round(hit.km * 100) / 100}}`;
  }
  return `${body}]`;
}
