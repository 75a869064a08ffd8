import type { GeoPoint } from './events/domain-events';
import { EARTH_RADIUS_KM, GeoBox } from './geo';

const RAD = Math.PI / 180;
/** Cell keys stay small integers (below 2^30, V8 Smis: no boxed doubles to hash): 18,000 rows × 40,000 ≥ 36,000 columns. */
const KEY_STRIDE = 40_000;

/** The chord of an angle on the unit sphere (the straight line between two unit vectors that far apart). */
export function chordOf(angle: number): number {
  return 2 * Math.sin(Math.min(Math.PI, angle) / 2);
}

/** The chord of a great-circle distance in km. */
export function chordOfKm(km: number): number {
  return chordOf(km / EARTH_RADIUS_KM);
}

/**
 * The one grid of cells over the sphere that every in-memory search uses (the open-requests index,
 * the matcher's drivers, surge's smoothing, nearby's change stamps): rows of `cellDeg` degrees of
 * latitude, each cut into as many columns as keep its cells about as wide as they are tall (one at
 * the poles), so a radius touches about as many cells anywhere on Earth. A cell is a number; callers
 * keep what lies in it in their own maps.
 */
export class CellGrid {
  private readonly rows: number;
  /** Columns of each row. */
  private readonly cols: Int32Array;

  /** `cellDeg`: the height of a row of cells, in degrees of latitude (0.01° ≈ 1.1 km); at least 0.01°. */
  constructor(readonly cellDeg: number) {
    if (!(cellDeg >= 0.01 && cellDeg <= 90)) throw new Error(`A cell of ${cellDeg}° is outside 0.01-90°`);
    this.rows = Math.round(180 / cellDeg);
    this.cols = Int32Array.from({ length: this.rows }, (_, row) => Math.max(1, Math.floor((360 * Math.cos((-90 + (row + 0.5) * cellDeg) * RAD)) / cellDeg)));
  }

  /** Every cell key is below this (for keys combined with another number). */
  get keyLimit(): number {
    return this.rows * KEY_STRIDE;
  }

  /** The cell holding the point. */
  cellOf(latitude: number, longitude: number): number {
    const row = this.rowOf(latitude);
    const n = this.cols[row]!;
    const c = Math.floor(((longitude + 180) / 360) * n);
    return row * KEY_STRIDE + (((c % n) + n) % n);
  }

  /**
   * Calls `visit` for every cell that may hold a point within radiusKm of the point (a hair more, so
   * float noise never leaves one out), once each, with a lower bound on the chord from the point to
   * anything in the cell. Returns how many cells it visited.
   */
  forEachCellWithin(point: GeoPoint, radiusKm: number, visit: (cell: number, bound: number) => void): number {
    const angle = radiusKm / EARTH_RADIUS_KM;
    const maxChord = chordOf(angle) * (1 + 1e-9) + 1e-12;
    const angleDeg = angle / RAD;
    const { latitude, longitude } = point;
    const cosLat = Math.cos(latitude * RAD);
    // The cap's widest longitude span (Δλ = asin(sin r / cos φ)), unless it holds a pole.
    const wholeCircle = latitude + angleDeg >= 90 || latitude - angleDeg <= -90 || Math.sin(angle) >= cosLat;
    const spanDeg = wholeCircle ? 180 : Math.asin(Math.sin(angle) / cosLat) / RAD;
    let visited = 0;
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
        const bound = chordOf(Math.max(latGap, meridianGap(longitude, cosLat, -180 + col * width, width)));
        if (bound > maxChord) continue;
        visit(row * KEY_STRIDE + col, bound);
        visited += 1;
      }
    }
    return visited;
  }

  /** At least as many cells as forEachCellWithin visits, without visiting them: to choose a walk over every occupied cell instead. */
  countCellsWithin(point: GeoPoint, radiusKm: number): number {
    const angle = radiusKm / EARTH_RADIUS_KM;
    const angleDeg = angle / RAD;
    const cosLat = Math.cos(point.latitude * RAD);
    const wholeCircle = point.latitude + angleDeg >= 90 || point.latitude - angleDeg <= -90 || Math.sin(angle) >= cosLat;
    const spanDeg = wholeCircle ? 180 : Math.asin(Math.sin(angle) / cosLat) / RAD;
    let count = 0;
    for (let row = this.rowOf(point.latitude - angleDeg); row <= this.rowOf(point.latitude + angleDeg); row += 1) {
      const n = this.cols[row]!;
      count += Math.min(n, Math.floor(((2 * spanDeg) / 360) * n) + 2);
    }
    return count;
  }

  /** How many cells the box covers (to choose a walk over every occupied cell instead). */
  countCellsInBox(box: GeoBox): number {
    let count = 0;
    for (let row = this.rowOf(box.minLatitude); row <= this.rowOf(box.maxLatitude); row += 1) {
      count += this.colWithin(row, box.maxLongitude) - this.colWithin(row, box.minLongitude) + 1;
    }
    return count;
  }

  /** Calls `visit` for every cell the box covers (west to east, no wrap across 180°), until it returns false. */
  forEachCellInBox(box: GeoBox, visit: (cell: number) => boolean): void {
    for (let row = this.rowOf(box.minLatitude); row <= this.rowOf(box.maxLatitude); row += 1) {
      const to = this.colWithin(row, box.maxLongitude);
      for (let col = this.colWithin(row, box.minLongitude); col <= to; col += 1) if (!visit(row * KEY_STRIDE + col)) return;
    }
  }

  /** The column of the row holding the longitude, without wrapping (180° is the last column). */
  private colWithin(row: number, longitude: number): number {
    const n = this.cols[row]!;
    return Math.min(n - 1, Math.max(0, Math.floor(((longitude + 180) / 360) * n)));
  }

  private rowOf(latitude: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((latitude + 90) / this.cellDeg)));
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
