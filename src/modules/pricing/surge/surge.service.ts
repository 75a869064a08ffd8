import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CellGrid } from '../../../common/cell-grid';
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

/** One cell's smoothed state, updated in place by every estimate priced in it (no allocation per estimate). */
interface Cell {
  value: number;
  atMs: number;
  raw: number;
  rawAtMs: number;
}

const GRID = new CellGrid(SURGE_CELL_DEGREES);
/** Category ids below this give keys that stay exact integers (GRID.keyLimit × this < 2^53). */
const NUMERIC_KEY_CATEGORIES = Math.floor(Number.MAX_SAFE_INTEGER / GRID.keyLimit);

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
  /** Cells by pricing order: reading one makes it the most recent; the least recently priced goes when full. */
  private readonly cells = new LRUCache<number | string, Cell>({ max: MAX_CELLS });

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
      const raw = this.rawAt(point, vehicleCategoryId, cap);
      cell = { value: raw, atMs: nowMs, raw, rawAtMs: nowMs };
      this.cells.set(key, cell);
    } else {
      if (nowMs - cell.rawAtMs >= SURGE_SIGNALS_REFRESH_MS) {
        cell.raw = this.rawAt(point, vehicleCategoryId, cap);
        cell.rawAtMs = nowMs;
      }
      const elapsedSeconds = Math.max(0, nowMs - cell.atMs) / 1000;
      cell.value += (cell.raw - cell.value) * (1 - Math.exp(-elapsedSeconds / SURGE_SMOOTHING_SECONDS));
      cell.atMs = nowMs;
    }
    return Math.round(Math.min(cap, Math.max(1, cell.value)) * 100) / 100;
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

/** A number (no string built per estimate) for any realistic category; a string past that. */
function cellKey(point: GeoPoint, vehicleCategoryId: number): number | string {
  const cell = GRID.cellOf(point.latitude, point.longitude);
  const numeric = Number.isInteger(vehicleCategoryId) && vehicleCategoryId >= 0 && vehicleCategoryId < NUMERIC_KEY_CATEGORIES;
  return numeric ? vehicleCategoryId * GRID.keyLimit + cell : `${vehicleCategoryId}:${cell}`;
}
