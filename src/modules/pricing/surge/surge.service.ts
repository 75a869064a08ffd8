import { Injectable } from '@nestjs/common';
import type { GeoPoint } from '../../../common/events/domain-events';
import { AppConfig } from '../../../config/app-config';
import { SurgeDemandPort, SurgeSupplyPort } from '../surge-signals.port';

/** How far one more open request per available driver lifts the multiplier. */
export const SURGE_SENSITIVITY = 0.5;
/** Time constant of the smoothing: a change in the market shows 63 % after this long, 95 % after three times it. */
export const SURGE_SMOOTHING_SECONDS = 60;
/** Side of a smoothing cell in degrees (about 1.1 km north-south). */
export const SURGE_CELL_DEGREES = 0.01;
/** Cells remembered per instance (least recently priced go first; a forgotten cell starts again from the raw value). */
const MAX_CELLS = 20_000;
/**
 * How long a cell's demand and supply counts are reused. Counting walks every open request and driver
 * within the radius: 122 µs per estimate with 100,000 open requests spread over a 30 km city (8,600
 * within 5 km; bench/surge-signals.js), against ~45 µs for the whole estimate otherwise. Reused for a
 * second, a count moves the smoothed multiplier by at most 1 − e^(−1/60) ≈ 1.7 % of the change it
 * misses, which the 2-decimal display mostly hides.
 */
export const SURGE_SIGNALS_REFRESH_MS = 1000;

/**
 * One cell's smoothed state, updated in place by every estimate priced in it (no allocation per
 * estimate), and its place in the list of cells by pricing order.
 */
interface Cell {
  key: number | string;
  value: number;
  atMs: number;
  raw: number;
  rawAtMs: number;
  /** Priced before this one (towards the least recently priced), and after it. */
  older: Cell | undefined;
  newer: Cell | undefined;
}

/** Cell indexes are offset to be non-negative: latitude -90..90 and longitude -180..180 at 0.01°. */
const LAT_CELLS = Math.round(180 / SURGE_CELL_DEGREES) + 1;
const LNG_CELLS = Math.round(360 / SURGE_CELL_DEGREES) + 1;
/** Category ids below this give keys that stay exact integers (LAT_CELLS × LNG_CELLS × this < 2^53). */
const NUMERIC_KEY_CATEGORIES = 10_000_000;

/**
 * The raw multiplier of one moment: demand over supply near the pickup, counting the request being
 * priced as demand and leaving a slot of supply so that an empty area is calm: pressure =
 * (open + 1) / (available + 1); multiplier = 1 + SENSITIVITY × (pressure − 1), between 1 and the cap.
 */
export function rawSurge(openRequests: number, availableDrivers: number, cap: number): number {
  const pressure = (Math.max(0, openRequests) + 1) / (Math.max(0, availableDrivers) + 1);
  return Math.min(cap, Math.max(1, 1 + SURGE_SENSITIVITY * (pressure - 1)));
}

/**
 * The surge multiplier near a pickup (CONTRACT §11), from the live counts the ports answer from
 * memory (never a query per estimate), smoothed per grid cell and category so that it does not flap
 * as requests and drivers come and go: an exponentially weighted moving average over time,
 * s ← s + (raw − s) × (1 − e^(−Δt / SMOOTHING_SECONDS)), Δt the time since the cell was last priced.
 * Shown and applied with 2 decimals. SURGE_MAX_MULTIPLIER = 1 turns it off (always 1.00).
 */
@Injectable()
export class SurgeService {
  private readonly cells = new Map<number | string, Cell>();
  /**
   * Pricing order as a linked list: moving a cell to the newest end is a few pointer writes, where
   * re-inserting it in the map (delete + set) cost ~200 ns per estimate.
   */
  private oldest: Cell | undefined;
  private newest: Cell | undefined;

  constructor(
    private readonly demand: SurgeDemandPort,
    private readonly supply: SurgeSupplyPort,
    private readonly config: AppConfig,
  ) {}

  multiplierAt(point: GeoPoint, vehicleCategoryId: number, nowMs: number = Date.now()): number {
    const cap = this.config.surgeMaxMultiplier;
    if (cap <= 1) return 1;
    const key = cellKey(point, vehicleCategoryId);
    let cell = this.cells.get(key);
    if (cell === undefined) {
      if (this.cells.size >= MAX_CELLS) this.forget(this.oldest!);
      const raw = this.rawAt(point, vehicleCategoryId, cap);
      cell = { key, value: raw, atMs: nowMs, raw, rawAtMs: nowMs, older: undefined, newer: undefined };
      this.cells.set(key, cell);
      this.append(cell);
    } else {
      if (nowMs - cell.rawAtMs >= SURGE_SIGNALS_REFRESH_MS) {
        cell.raw = this.rawAt(point, vehicleCategoryId, cap);
        cell.rawAtMs = nowMs;
      }
      const elapsedSeconds = Math.max(0, nowMs - cell.atMs) / 1000;
      cell.value += (cell.raw - cell.value) * (1 - Math.exp(-elapsedSeconds / SURGE_SMOOTHING_SECONDS));
      cell.atMs = nowMs;
      if (cell !== this.newest) {
        this.unlink(cell);
        this.append(cell);
      }
    }
    return Math.round(Math.min(cap, Math.max(1, cell.value)) * 100) / 100;
  }

  private forget(cell: Cell): void {
    this.cells.delete(cell.key);
    this.unlink(cell);
  }

  private unlink(cell: Cell): void {
    if (cell.older) cell.older.newer = cell.newer;
    else this.oldest = cell.newer;
    if (cell.newer) cell.newer.older = cell.older;
    else this.newest = cell.older;
    cell.older = cell.newer = undefined;
  }

  private append(cell: Cell): void {
    cell.older = this.newest;
    if (this.newest) this.newest.newer = cell;
    else this.oldest = cell;
    this.newest = cell;
  }

  private rawAt(point: GeoPoint, vehicleCategoryId: number, cap: number): number {
    const radiusKm = this.config.matchingRadiusKm;
    return rawSurge(
      this.demand.countOpenRequestsNear(point, radiusKm, vehicleCategoryId),
      this.supply.countAvailableDriversNear(point, radiusKm, vehicleCategoryId),
      cap,
    );
  }
}

/** A number (no string built per estimate) for any realistic category and point; a string past that. */
function cellKey(point: GeoPoint, vehicleCategoryId: number): number | string {
  const lat = Math.floor(point.latitude / SURGE_CELL_DEGREES);
  const lng = Math.floor(point.longitude / SURGE_CELL_DEGREES);
  const row = lat + (LAT_CELLS >> 1);
  const column = lng + (LNG_CELLS >> 1);
  const numeric =
    Number.isInteger(vehicleCategoryId) && vehicleCategoryId >= 0 && vehicleCategoryId < NUMERIC_KEY_CATEGORIES &&
    row >= 0 && row < LAT_CELLS && column >= 0 && column < LNG_CELLS;
  return numeric ? (vehicleCategoryId * LAT_CELLS + row) * LNG_CELLS + column : `${vehicleCategoryId}:${lat}:${lng}`;
}
