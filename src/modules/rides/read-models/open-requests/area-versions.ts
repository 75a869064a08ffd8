import { CellGrid } from '../../../../common/cell-grid';
import type { GeoPoint } from '../../../../common/events/domain-events';

/** Cells of about 5.6 km: a 5 km page checks a few stamps, a 50 km one a few hundred. */
const GRID = new CellGrid(0.05);

/**
 * When the open requests last changed, per area: each change to the index (a ride in, out, or
 * edited) takes the next version and stamps the cell of the pickup (before and after), so a page
 * built at version v is still what the index would answer if no cell its radius touches is
 * stamped after v. What lets a nearby page be built once per change instead of per poll.
 */
export class AreaVersions {
  private readonly stamps = new Map<number, number>();
  private current = 0;

  /** The latest version: a page built now is built at it. */
  get version(): number {
    return this.current;
  }

  changedAt(latitude: number, longitude: number): void {
    this.current += 1;
    this.stamps.set(GRID.cellOf(latitude, longitude), this.current);
  }

  /** Whether anything within radiusKm of the point changed after `version`. */
  changedSince(point: GeoPoint, radiusKm: number, version: number): boolean {
    if (version === this.current) return false;
    let changed = false;
    GRID.forEachCellWithin(point, radiusKm, (cell) => {
      if ((this.stamps.get(cell) ?? 0) > version) changed = true;
    });
    return changed;
  }
}
