import type { GeoPoint } from '../../../../common/events/domain-events';
import { EARTH_RADIUS_KM } from '../../../../common/geo';

/** One open request as the index holds it: where it is, what it is, and its wire JSON. */
export interface OpenRequest {
  readonly id: string;
  readonly latitude: number;
  readonly longitude: number;
  /** The pickup as a unit vector: the same point rides.pickup_vec holds, so the order is the SQL's. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly categoryId: number;
  readonly expiresAtMs: number;
  readonly passengerId: number | null;
  /** `updated_at` of the ride (ISO): an older copy never replaces a newer one. */
  readonly updatedAt: string;
  /** The ride's wire JSON without its closing brace, followed by `,"distance_km":`. */
  readonly head: string;
  /** The database's hash of the ride's view row, when the entry came from the database (reconciliation compares it). */
  readonly fingerprint: string | null;
  /** Which change put it here (a counter of the index): later changes win over older database reads. */
  readonly seq: number;
}

interface Cell {
  readonly row: number;
  readonly col: number;
  readonly items: OpenRequest[];
}

interface Placed {
  cell: Cell;
  slot: number;
}

/** Which requests a search keeps: of this category (null: any), expiring after this time. */
export interface OpenRequestFilter {
  categoryId: number | null;
  openAtMs: number;
}

/** A hit of `nearest`: the request and its chord (straight-line distance between unit vectors). */
export interface NearHit {
  request: OpenRequest;
  chord: number;
}

const RAD = Math.PI / 180;
/** Cell keys stay small integers (below 2^30, V8 Smis: no boxed doubles to hash): 18,000 rows × 40,000 ≥ 36,000 columns. */
const KEY_STRIDE = 40_000;

/** The unit vector of a point, as the generated column rides.pickup_vec computes it. */
export function unitVector(latitude: number, longitude: number): { x: number; y: number; z: number } {
  const lat = latitude * RAD;
  const lng = longitude * RAD;
  return { x: Math.cos(lat) * Math.cos(lng), y: Math.cos(lat) * Math.sin(lng), z: Math.sin(lat) };
}

/** The chord of an angle on the unit sphere. */
function chordOf(angle: number): number {
  return 2 * Math.sin(Math.min(Math.PI, angle) / 2);
}

/**
 * Open requests in a grid of cells that is updated in place (a booking or an acceptance moves one
 * entry, O(1)), read nearest first: the cells a radius touches are visited in order of the least
 * distance any point of theirs can have, and the visit stops once the page is full and the next
 * cell cannot hold anything nearer.
 */
export class OpenRequestsGrid {
  private readonly cells = new Map<number, Cell>();
  private readonly placed = new Map<string, Placed>();
  private readonly rows: number;
  /** Columns of each row: as many as make its cells about as wide as they are tall (one at the poles). */
  private readonly cols: readonly number[];

  /** `cellDeg`: the height of a row of cells, in degrees of latitude (0.01° ≈ 1.1 km). */
  constructor(private readonly cellDeg: number) {
    this.rows = Math.round(180 / cellDeg);
    this.cols = Array.from({ length: this.rows }, (_, row) =>
      Math.max(1, Math.floor((360 * Math.cos((-90 + (row + 0.5) * cellDeg) * RAD)) / cellDeg)),
    );
  }

  private rowOf(latitude: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((latitude + 90) / this.cellDeg)));
  }

  private colOf(row: number, longitude: number): number {
    const n = this.cols[row]!;
    const c = Math.floor(((longitude + 180) / 360) * n);
    return ((c % n) + n) % n;
  }

  get size(): number {
    return this.placed.size;
  }

  get(id: string): OpenRequest | undefined {
    const at = this.placed.get(id);
    return at ? at.cell.items[at.slot] : undefined;
  }

  *all(): IterableIterator<OpenRequest> {
    for (const cell of this.cells.values()) yield* cell.items;
  }

  /** Adds the request, or replaces the one with its id. */
  put(request: OpenRequest): void {
    this.remove(request.id);
    const row = this.rowOf(request.latitude);
    const col = this.colOf(row, request.longitude);
    const key = row * KEY_STRIDE + col;
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { row, col, items: [] }));
    this.placed.set(request.id, { cell, slot: cell.items.length });
    cell.items.push(request);
  }

  /** Removes the request (swap with the cell's last one); returns it, if it was there. */
  remove(id: string): OpenRequest | undefined {
    const at = this.placed.get(id);
    if (!at) return undefined;
    this.placed.delete(id);
    const { items } = at.cell;
    const gone = items[at.slot]!;
    const last = items.pop()!;
    if (last !== gone) {
      items[at.slot] = last;
      this.placed.get(last.id)!.slot = at.slot;
    }
    if (items.length === 0) this.cells.delete(at.cell.row * KEY_STRIDE + at.cell.col);
    return gone;
  }

  /**
   * At most `limit` requests the filter keeps, with a chord up to radiusKm's (a hair more, so that
   * float noise never drops one the haversine keeps), nearest first, then by id. The filter is
   * checked inline, before any arithmetic: most rides of a cell are of another category.
   */
  nearest(point: GeoPoint, radiusKm: number, limit: number, filter: OpenRequestFilter): NearHit[] {
    const { categoryId, openAtMs } = filter;
    const p = unitVector(point.latitude, point.longitude);
    const maxChord = chordOf(radiusKm / EARTH_RADIUS_KM) * (1 + 1e-9) + 1e-12;
    const hits: NearHit[] = [];
    for (const { cell, bound } of this.cellsWithin(point, radiusKm, maxChord)) {
      if (hits.length === limit && bound > hits[limit - 1]!.chord) break;
      for (const request of cell.items) {
        if ((categoryId !== null && request.categoryId !== categoryId) || request.expiresAtMs <= openAtMs) continue;
        const dx = request.x - p.x;
        const dy = request.y - p.y;
        const dz = request.z - p.z;
        const chord = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (chord > maxChord) continue;
        if (hits.length === limit && !before(chord, request.id, hits[limit - 1]!)) continue;
        insertSorted(hits, { request, chord }, limit);
      }
    }
    return hits;
  }

  /** How many requests the filter keeps lie within radiusKm (by chord, the nearby page's measure). */
  count(point: GeoPoint, radiusKm: number, filter: OpenRequestFilter): number {
    const { categoryId, openAtMs } = filter;
    const p = unitVector(point.latitude, point.longitude);
    const maxChord = chordOf(radiusKm / EARTH_RADIUS_KM);
    let n = 0;
    for (const { cell } of this.cellsWithin(point, radiusKm, maxChord)) {
      for (const r of cell.items) {
        if ((categoryId !== null && r.categoryId !== categoryId) || r.expiresAtMs <= openAtMs) continue;
        const dx = r.x - p.x;
        const dy = r.y - p.y;
        const dz = r.z - p.z;
        if (dx * dx + dy * dy + dz * dz <= maxChord * maxChord) n += 1;
      }
    }
    return n;
  }

  /** The occupied cells that may hold a point within the radius, each with a lower bound on its chord, nearest first. */
  private cellsWithin(point: GeoPoint, radiusKm: number, maxChord: number): Array<{ cell: Cell; bound: number }> {
    const angle = radiusKm / EARTH_RADIUS_KM;
    const angleDeg = angle / RAD;
    const { latitude, longitude } = point;
    const cosLat = Math.cos(latitude * RAD);
    // The cap's widest longitude span (Δλ = asin(sin r / cos φ)), unless it holds a pole.
    const wholeCircle = latitude + angleDeg >= 90 || latitude - angleDeg <= -90 || Math.sin(angle) >= cosLat;
    const spanDeg = wholeCircle ? 180 : Math.asin(Math.sin(angle) / cosLat) / RAD;
    const found: Array<{ cell: Cell; bound: number }> = [];
    for (let row = this.rowOf(latitude - angleDeg); row <= this.rowOf(latitude + angleDeg); row += 1) {
      const n = this.cols[row]!;
      const south = -90 + row * this.cellDeg;
      const latGap = Math.max(0, south - latitude, latitude - (south + this.cellDeg)) * RAD;
      let first = 0;
      let last = n - 1;
      if (!wholeCircle) {
        first = Math.floor(((longitude - spanDeg + 180) / 360) * n);
        last = Math.floor(((longitude + spanDeg + 180) / 360) * n);
        if (last - first + 1 >= n) {
          first = 0;
          last = n - 1;
        }
      }
      const width = 360 / n;
      for (let c = first; c <= last; c += 1) {
        const col = ((c % n) + n) % n;
        const cell = this.cells.get(row * KEY_STRIDE + col);
        if (!cell) continue;
        const bound = chordOf(Math.max(latGap, meridianGap(longitude, cosLat, -180 + col * width, width)));
        if (bound <= maxChord) found.push({ cell, bound });
      }
    }
    return found.sort((a, b) => a.bound - b.bound);
  }
}

/**
 * A lower bound on the angle from a point to any point whose longitude lies in [west, west + width]:
 * the angle to the nearest such meridian's great circle, asin(cos φ · sin δ), valid while every
 * longitude of the cell is within 90° of the point's (else 0: the latitude gap alone bounds it).
 */
function meridianGap(longitude: number, cosLat: number, west: number, width: number): number {
  const fromWest = (((longitude - west) % 360) + 360) % 360;
  if (fromWest <= width) return 0;
  const gap = Math.min(fromWest - width, 360 - fromWest);
  if (gap + width >= 90) return 0;
  return Math.asin(cosLat * Math.sin(gap * RAD));
}

function before(chord: number, id: string, than: NearHit): boolean {
  return chord < than.chord || (chord === than.chord && id < than.request.id);
}

/** Keeps `hits` sorted by (chord, id) and at most `limit` long. */
function insertSorted(hits: NearHit[], hit: NearHit, limit: number): void {
  let i = hits.length;
  while (i > 0 && before(hit.chord, hit.request.id, hits[i - 1]!)) i -= 1;
  hits.splice(i, 0, hit);
  if (hits.length > limit) hits.pop();
}
