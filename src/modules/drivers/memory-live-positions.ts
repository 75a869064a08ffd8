import type { GeoPoint } from '../../common/events/domain-events';
import { haversineKm } from '../../common/geo';
import type { PendingLocation } from './drivers.repository';
import { LivePositionStore } from './live-positions.store';

const CELL_DEGREES = 0.01;
const LNG_CELLS = Math.round(360 / CELL_DEGREES);
const KM_PER_DEGREE = 111.195;

function cellOf(latIndex: number, lngIndex: number): number {
  const lng = ((lngIndex % LNG_CELLS) + LNG_CELLS) % LNG_CELLS;
  return latIndex * LNG_CELLS + lng;
}

/**
 * One instance's store (no Redis): a map of latest positions plus a grid of ~1 km cells, so a search
 * visits the cells around the point instead of every driver. The map is kept in heartbeat order
 * (re-inserted on each save), so the oldest entries are at its front: expired ones are dropped from
 * there lazily, and when the store is full the least recently heard driver goes first.
 */
export class MemoryLivePositionStore extends LivePositionStore {
  private readonly positions = new Map<number, { location: PendingLocation; cell: number }>();
  private readonly cells = new Map<number, Set<number>>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = 500_000,
  ) {
    super();
  }

  get size(): number {
    return this.positions.size;
  }

  save(location: PendingLocation): void {
    const cell = cellOf(Math.floor(location.latitude / CELL_DEGREES), Math.floor(location.longitude / CELL_DEGREES));
    const previous = this.positions.get(location.driverId);
    if (previous) {
      this.positions.delete(location.driverId);
      if (previous.cell !== cell) this.leaveCell(location.driverId, previous.cell);
    } else if (this.positions.size >= this.maxEntries) {
      this.dropExpired(location.at.getTime());
      if (this.positions.size >= this.maxEntries) this.dropOldest();
    }
    this.positions.set(location.driverId, { location, cell });
    let members = this.cells.get(cell);
    if (!members) this.cells.set(cell, (members = new Set()));
    members.add(location.driverId);
  }

  latest(driverId: number): PendingLocation | undefined {
    return this.positions.get(driverId)?.location;
  }

  near(point: GeoPoint, radiusKm: number, maxAgeMs: number): Promise<number[]> {
    const now = Date.now();
    this.dropExpired(now);
    const minAt = now - maxAgeMs;
    const latBand = radiusKm / KM_PER_DEGREE;
    const cos = Math.cos((point.latitude * Math.PI) / 180);
    const lngBand = cos > 1e-6 ? Math.min(180, latBand / cos) : 180;
    const latFrom = Math.floor((point.latitude - latBand) / CELL_DEGREES);
    const latTo = Math.floor((point.latitude + latBand) / CELL_DEGREES);
    const lngFrom = Math.floor((point.longitude - lngBand) / CELL_DEGREES);
    const lngTo = Math.min(lngFrom + LNG_CELLS - 1, Math.floor((point.longitude + lngBand) / CELL_DEGREES));
    const found: number[] = [];
    const consider = (id: number): void => {
      const entry = this.positions.get(id);
      if (!entry || entry.location.at.getTime() < minAt) return;
      if (haversineKm(point, entry.location) <= radiusKm) found.push(id);
    };
    if ((latTo - latFrom + 1) * (lngTo - lngFrom + 1) > this.positions.size) {
      // A search wider than the occupied grid: walking every entry is cheaper.
      for (const id of this.positions.keys()) consider(id);
    } else {
      for (let la = latFrom; la <= latTo; la += 1) {
        for (let ln = lngFrom; ln <= lngTo; ln += 1) {
          const members = this.cells.get(cellOf(la, ln));
          if (members) for (const id of members) consider(id);
        }
      }
    }
    return Promise.resolve(found);
  }

  prune(): Promise<void> {
    this.dropExpired(Date.now());
    return Promise.resolve();
  }

  /** Entries older than the max age can never match again; the table keeps their last position. */
  private dropExpired(now: number): void {
    const minAt = now - this.maxAgeMs;
    for (const [id, entry] of this.positions) {
      if (entry.location.at.getTime() >= minAt) return;
      this.remove(id, entry.cell);
    }
  }

  private dropOldest(): void {
    const first = this.positions.entries().next();
    if (!first.done) this.remove(first.value[0], first.value[1].cell);
  }

  private remove(id: number, cell: number): void {
    this.positions.delete(id);
    this.leaveCell(id, cell);
  }

  private leaveCell(id: number, cell: number): void {
    const members = this.cells.get(cell);
    if (!members) return;
    members.delete(id);
    if (members.size === 0) this.cells.delete(cell);
  }
}
