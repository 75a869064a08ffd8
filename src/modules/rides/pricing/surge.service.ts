import { Injectable } from '@nestjs/common';
import type { GeoPoint } from '../../../common/events/domain-events';
import { AppConfig } from '../../../config/app-config';
import { SurgeSignalsPort } from '../ports/surge-signals.port';

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

interface Cell {
  value: number;
  atMs: number;
  raw: number;
  rawAtMs: number;
}

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
 * The surge multiplier near a pickup (CONTRACT §11), from the live counts the port answers from
 * memory (never a query per estimate), smoothed per grid cell and category so that it does not flap
 * as requests and drivers come and go: an exponentially weighted moving average over time,
 * s ← s + (raw − s) × (1 − e^(−Δt / SMOOTHING_SECONDS)), Δt the time since the cell was last priced.
 * Shown and applied with 2 decimals. SURGE_MAX_MULTIPLIER = 1 turns it off (always 1.00).
 */
@Injectable()
export class SurgeService {
  private readonly cells = new Map<string, Cell>();

  constructor(
    private readonly signals: SurgeSignalsPort,
    private readonly config: AppConfig,
  ) {}

  multiplierAt(point: GeoPoint, vehicleCategoryId: number, nowMs: number = Date.now()): number {
    const cap = this.config.surgeMaxMultiplier;
    if (cap <= 1) return 1;
    const key = cellKey(point, vehicleCategoryId);
    const cell = this.cells.get(key);
    const fresh = cell !== undefined && nowMs - cell.rawAtMs < SURGE_SIGNALS_REFRESH_MS;
    const raw = fresh ? cell.raw : this.rawAt(point, vehicleCategoryId, cap);
    const rawAtMs = fresh ? cell.rawAtMs : nowMs;
    let value = raw;
    if (cell) {
      const elapsedSeconds = Math.max(0, nowMs - cell.atMs) / 1000;
      value = cell.value + (raw - cell.value) * (1 - Math.exp(-elapsedSeconds / SURGE_SMOOTHING_SECONDS));
      this.cells.delete(key);
    } else if (this.cells.size >= MAX_CELLS) {
      this.cells.delete(this.cells.keys().next().value!);
    }
    this.cells.set(key, { value, atMs: nowMs, raw, rawAtMs });
    return Math.round(Math.min(cap, Math.max(1, value)) * 100) / 100;
  }

  private rawAt(point: GeoPoint, vehicleCategoryId: number, cap: number): number {
    const radiusKm = this.config.matchingRadiusKm;
    return rawSurge(
      this.signals.openRequestsNear(point, radiusKm, vehicleCategoryId),
      this.signals.availableDriversNear(point, radiusKm, vehicleCategoryId),
      cap,
    );
  }
}

function cellKey(point: GeoPoint, vehicleCategoryId: number): string {
  return `${vehicleCategoryId}:${Math.floor(point.latitude / SURGE_CELL_DEGREES)}:${Math.floor(point.longitude / SURGE_CELL_DEGREES)}`;
}
