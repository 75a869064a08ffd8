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

/** A driver's latest position, updated in place, and its place in heartbeat order. */
interface Entry {
  driverId: number;
  location: PendingLocation;
  cell: number;
  older: Entry | undefined;
  newer: Entry | undefined;
}

/**
 * One instance's store (no Redis): a map of latest positions plus a grid of ~1 km cells, so a search
 * visits the cells around the point instead of every driver. The entries are also linked in
 * heartbeat order, so the oldest come first: expired ones are dropped from there lazily, and when
 * the store is full the least recently heard driver goes first. (A linked list rather than
 * re-inserting into the map on each save: moving an entry is a few pointer writes, a map delete +
 * set ~200 ns per heartbeat.)
 */
export class MemoryLivePositionStore extends LivePositionStore {
  private readonly positions = new Map<number, Entry>();
  private readonly cells = new Map<number, Set<number>>();
  private oldest: Entry | undefined;
  private newest: Entry | undefined;

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
    const entry = this.positions.get(location.driverId);
    if (entry) {
      entry.location = location;
      if (entry !== this.newest) {
        this.unlink(entry);
        this.append(entry);
      }
      if (entry.cell === cell) return;
      this.leaveCell(location.driverId, entry.cell);
      entry.cell = cell;
    } else {
      if (this.positions.size >= this.maxEntries) {
        this.dropExpired(location.at.getTime());
        if (this.positions.size >= this.maxEntries) this.dropOldest();
      }
      const added: Entry = { driverId: location.driverId, location, cell, older: undefined, newer: undefined };
      this.positions.set(location.driverId, added);
      this.append(added);
    }
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
    while (this.oldest && this.oldest.location.at.getTime() < minAt) this.remove(this.oldest);
  }

  private dropOldest(): void {
    if (this.oldest) this.remove(this.oldest);
  }

  private remove(entry: Entry): void {
    this.positions.delete(entry.driverId);
    this.unlink(entry);
    this.leaveCell(entry.driverId, entry.cell);
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }

  private append(entry: Entry): void {
    entry.older = this.newest;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private leaveCell(id: number, cell: number): void {
    const members = this.cells.get(cell);
    if (!members) return;
    members.delete(id);
    if (members.size === 0) this.cells.delete(cell);
  }
}
