import { CellGrid, chordOfKm } from '../../../../common/cell-grid';
import type { GeoPoint } from '../../../../common/events/domain-events';
import { GeoBox, inBox } from '../../../../common/geo';
import { CATEGORY, EXPIRES, HOT, OpenRequestStore, unitVector, X, Y, Z } from './open-requests-store';

interface Cell {
  /** The slots of its requests, `n` of them. */
  slots: Int32Array;
  n: number;
}

/** Which requests a search keeps: of this category (null: any), expiring after this time. */
export interface OpenRequestFilter {
  categoryId: number | null;
  openAtMs: number;
}

/** The hits of `nearest`: slots, nearest first, and their chords (straight-line distance between unit vectors). */
export interface NearHits {
  slots: number[];
  chords: number[];
}

/**
 * Open requests in the cells of a CellGrid, updated in place (a booking or an acceptance moves one
 * entry, O(1)), read nearest first: the cells a radius touches are visited in order of the least
 * distance any point of theirs can have, and the visit stops once the page is full and the next
 * cell cannot hold anything nearer.
 */
export class OpenRequestsGrid {
  private readonly cells = new Map<number, Cell>();
  /** Where each slot sits in its cell's `slots` (its cell follows from its pickup). */
  private at = new Int32Array(0);
  private readonly grid: CellGrid;

  /** `cellDeg`: the height of a row of cells, in degrees of latitude (0.01° ≈ 1.1 km). */
  constructor(
    cellDeg: number,
    private readonly store: OpenRequestStore,
  ) {
    this.grid = new CellGrid(cellDeg);
  }

  private keyOf(slot: number): number {
    return this.grid.cellOf(this.store.latitude(slot), this.store.longitude(slot));
  }

  /** Places the slot by the pickup the store holds for it. */
  put(slot: number): void {
    if (slot >= this.at.length) {
      const at = new Int32Array(this.store.capacity);
      at.set(this.at);
      this.at = at;
    }
    const key = this.keyOf(slot);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { slots: new Int32Array(4), n: 0 }));
    if (cell.n === cell.slots.length) {
      const slots = new Int32Array(cell.n * 2);
      slots.set(cell.slots);
      cell.slots = slots;
    }
    this.at[slot] = cell.n;
    cell.slots[cell.n] = slot;
    cell.n += 1;
  }

  /** Takes the slot out (swap with its cell's last one); call it before the store's pickup for the slot changes. */
  remove(slot: number): void {
    const key = this.keyOf(slot);
    const cell = this.cells.get(key)!;
    const i = this.at[slot]!;
    cell.n -= 1;
    const last = cell.slots[cell.n]!;
    cell.slots[i] = last;
    this.at[last] = i;
    if (cell.n === 0) this.cells.delete(key);
    else if (cell.n * 4 <= cell.slots.length && cell.slots.length > 4) cell.slots = cell.slots.slice(0, cell.slots.length / 2);
  }

  /**
   * At most `limit` requests the filter keeps, with a chord up to radiusKm's (a hair more, so that
   * float noise never drops one the haversine keeps), nearest first, then by id. The filter is
   * checked inline, before any arithmetic: most rides of a cell are of another category.
   */
  nearest(point: GeoPoint, radiusKm: number, limit: number, filter: OpenRequestFilter): NearHits {
    const { categoryId, openAtMs } = filter;
    const p = unitVector(point.latitude, point.longitude);
    const maxChord = chordOfKm(radiusKm) * (1 + 1e-9) + 1e-12;
    const hits: NearHits = { slots: [], chords: [] };
    const hot = this.store.hot;
    for (const { cell, bound } of this.cellsWithin(point, radiusKm)) {
      if (hits.slots.length === limit && bound > hits.chords[limit - 1]!) break;
      for (let i = 0; i < cell.n; i += 1) {
        const slot = cell.slots[i]!;
        const o = slot * HOT;
        if ((categoryId !== null && hot[o + CATEGORY] !== categoryId) || hot[o + EXPIRES]! <= openAtMs) continue;
        const dx = hot[o + X]! - p.x;
        const dy = hot[o + Y]! - p.y;
        const dz = hot[o + Z]! - p.z;
        const chord = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (chord > maxChord) continue;
        if (hits.slots.length === limit && !this.before(chord, slot, hits, limit - 1)) continue;
        this.insertSorted(hits, slot, chord, limit);
      }
    }
    return hits;
  }

  /** How many requests the filter keeps lie within radiusKm (by chord, the nearby page's measure). */
  count(point: GeoPoint, radiusKm: number, filter: OpenRequestFilter): number {
    const { categoryId, openAtMs } = filter;
    const p = unitVector(point.latitude, point.longitude);
    const maxChord = chordOfKm(radiusKm);
    const hot = this.store.hot;
    let n = 0;
    for (const { cell } of this.cellsWithin(point, radiusKm)) {
      for (let i = 0; i < cell.n; i += 1) {
        const o = cell.slots[i]! * HOT;
        if ((categoryId !== null && hot[o + CATEGORY] !== categoryId) || hot[o + EXPIRES]! <= openAtMs) continue;
        const dx = hot[o + X]! - p.x;
        const dy = hot[o + Y]! - p.y;
        const dz = hot[o + Z]! - p.z;
        if (dx * dx + dy * dy + dz * dz <= maxChord * maxChord) n += 1;
      }
    }
    return n;
  }

  /**
   * At most `limit` requests open at `openAtMs` whose pickup lies in the box, in no particular order
   * (the operators' live view). Visits the cells the box covers, or every occupied cell when those
   * are fewer (a box over a whole country).
   */
  inBox(box: GeoBox, limit: number, openAtMs: number): number[] {
    const found: number[] = [];
    const take = (cell: Cell): boolean => {
      for (let i = 0; i < cell.n && found.length < limit; i += 1) {
        const slot = cell.slots[i]!;
        if (this.store.hot[slot * HOT + EXPIRES]! > openAtMs && inBox(box, this.store.latitude(slot), this.store.longitude(slot))) found.push(slot);
      }
      return found.length < limit;
    };
    if (this.grid.countCellsInBox(box) > this.cells.size) {
      for (const cell of this.cells.values()) if (!take(cell)) break;
      return found;
    }
    this.grid.forEachCellInBox(box, (key) => {
      const cell = this.cells.get(key);
      return !cell || take(cell);
    });
    return found;
  }

  /** Whether (chord, slot) comes before hit i: nearer, or as near with a smaller id. */
  private before(chord: number, slot: number, hits: NearHits, i: number): boolean {
    const than = hits.chords[i]!;
    return chord < than || (chord === than && this.store.id(slot) < this.store.id(hits.slots[i]!));
  }

  /** Keeps the hits sorted by (chord, id) and at most `limit` long (full: the last one drops out). Shifts by hand: splice cost 0.4 µs a call. */
  private insertSorted(hits: NearHits, slot: number, chord: number, limit: number): void {
    const { slots, chords } = hits;
    let i = slots.length;
    if (i < limit) {
      slots.push(slot);
      chords.push(chord);
    } else i = limit - 1;
    for (; i > 0 && this.before(chord, slot, hits, i - 1); i -= 1) {
      slots[i] = slots[i - 1]!;
      chords[i] = chords[i - 1]!;
    }
    slots[i] = slot;
    chords[i] = chord;
  }

  /** The occupied cells that may hold a point within the radius, each with a lower bound on its chord, nearest first. */
  private cellsWithin(point: GeoPoint, radiusKm: number): Array<{ cell: Cell; bound: number }> {
    const found: Array<{ cell: Cell; bound: number }> = [];
    this.grid.forEachCellWithin(point, radiusKm, (key, bound) => {
      const cell = this.cells.get(key);
      if (cell) found.push({ cell, bound });
    });
    return byBound(found);
  }
}

/** Index bits of a sort key: up to 2^21 cells. */
const INDEX_BITS = 2 ** 21;
/** Bound steps per unit of chord (a chord is at most 2: keys stay below 2^52, exact in a double). */
const BOUND_STEPS = 2 ** 30;

/**
 * The cells by bound, nearest first, each bound rounded down to 2^-30 (still a lower bound, and
 * the order is by the rounded bound): keys (rounded bound, index) sorted as numbers in a
 * Float64Array, without a comparator call per comparison (that sort was about a third of a page's
 * search, callgrind of bench/open-requests-memory.js).
 */
function byBound(found: Array<{ cell: Cell; bound: number }>): Array<{ cell: Cell; bound: number }> {
  if (found.length >= INDEX_BITS) return found.sort((a, b) => a.bound - b.bound);
  const keys = new Float64Array(found.length);
  for (let i = 0; i < found.length; i += 1) keys[i] = Math.floor(found[i]!.bound * BOUND_STEPS) * INDEX_BITS + i;
  keys.sort();
  const sorted: Array<{ cell: Cell; bound: number }> = [];
  for (const key of keys) {
    const step = Math.floor(key / INDEX_BITS);
    sorted.push({ cell: found[key - step * INDEX_BITS]!.cell, bound: step / BOUND_STEPS });
  }
  return sorted;
}
