import { CellGrid } from '../../../common/cell-grid';
import type { GeoPoint } from '../../../common/events/domain-events';
import { GeoBox, haversineKm, inBox } from '../../../common/geo';

/** What the operator and the driver decided: only online, approved drivers are ever matched. */
export interface DriverAvailability {
  online: boolean;
  approved: boolean;
  /** null: the driver serves every category. */
  vehicleCategoryId: number | null;
}

export interface HeardPosition {
  latitude: number;
  longitude: number;
  /** Epoch milliseconds of the heartbeat (the clock of the instance that answered it). */
  atMs: number;
}

/** A driver on the operators' live map: where and when last heard, the ride held, what they decided. */
export interface LiveDriver {
  driverId: number;
  latitude: number;
  longitude: number;
  atMs: number;
  rideId: string | undefined;
  availability: DriverAvailability | undefined;
}

/** Who a search keeps: everyone the rules allow, or only those without a non-final ride (supply for surge). */
export interface NearQuery {
  point: GeoPoint;
  radiusKm: number;
  vehicleCategoryId: number;
  /** Positions heard before this epoch millisecond are stale. */
  heardSince: number;
  freeOnly: boolean;
}

/**
 * The position is held as plain numbers updated in place, so a heartbeat allocates nothing here;
 * `cell` is undefined exactly when there is no position.
 */
interface Entry {
  availability: DriverAvailability | undefined;
  latitude: number;
  longitude: number;
  atMs: number;
  cell: number | undefined;
  /** The non-final ride the driver is assigned to, if any. */
  rideId: string | undefined;
}

/** ~2 km cells: a 5 km search probes ~20-40 of them (finer cells cost more probes than they save checks). */
const GRID = new CellGrid(0.02);
const BOX_SLACK = 1.01;
const KM_PER_DEGREE = 111.195;

/**
 * One instance's picture of every driver the matcher may tell about a new request: availability
 * (from driver events), the non-final ride (from ride events) and the latest heartbeat (local, from
 * other instances over the bus, or flushed to the table), with ~2 km cells over the
 * positions so a search visits the cells around the pickup. Plain data, no I/O: the owner
 * (DriverMatchingService) feeds it.
 */
export class AvailableDrivers {
  private readonly entries = new Map<number, Entry>();
  private readonly cells = new Map<number, Set<number>>();

  get size(): number {
    return this.entries.size;
  }

  setAvailability(driverId: number, availability: DriverAvailability): void {
    this.entry(driverId).availability = availability;
  }

  availabilityOf(driverId: number): DriverAvailability | undefined {
    return this.entries.get(driverId)?.availability;
  }

  setCategory(driverId: number, vehicleCategoryId: number | null): void {
    const availability = this.entries.get(driverId)?.availability;
    if (availability) availability.vehicleCategoryId = vehicleCategoryId;
  }

  /** Keeps the newer of the held and the given position (heartbeats may arrive out of order across instances). */
  heard(driverId: number, position: HeardPosition): void {
    this.heardAt(driverId, position.latitude, position.longitude, position.atMs);
  }

  /** heard() without a position object: what each heartbeat calls. */
  heardAt(driverId: number, latitude: number, longitude: number, atMs: number): void {
    const entry = this.entry(driverId);
    if (entry.cell !== undefined && entry.atMs > atMs) return;
    const cell = GRID.cellOf(latitude, longitude);
    if (entry.cell !== cell) {
      if (entry.cell !== undefined) this.leaveCell(driverId, entry.cell);
      let members = this.cells.get(cell);
      if (!members) this.cells.set(cell, (members = new Set()));
      members.add(driverId);
      entry.cell = cell;
    }
    entry.latitude = latitude;
    entry.longitude = longitude;
    entry.atMs = atMs;
  }

  positionOf(driverId: number): HeardPosition | undefined {
    const entry = this.entries.get(driverId);
    return entry?.cell === undefined ? undefined : { latitude: entry.latitude, longitude: entry.longitude, atMs: entry.atMs };
  }

  assigned(driverId: number, rideId: string): void {
    this.entry(driverId).rideId = rideId;
  }

  /** The ride ended: free again, unless the driver has since been assigned another one. */
  released(driverId: number, rideId: string): void {
    const entry = this.entries.get(driverId);
    if (entry?.rideId === rideId) entry.rideId = undefined;
  }

  rideOf(driverId: number): string | undefined {
    return this.entries.get(driverId)?.rideId;
  }

  forgetPosition(driverId: number): void {
    const entry = this.entries.get(driverId);
    if (!entry) return;
    if (entry.cell !== undefined) this.leaveCell(driverId, entry.cell);
    entry.cell = undefined;
    this.dropIfEmpty(driverId, entry);
  }

  /** The set of drivers assigned to rides, replaced whole (start-up and reconciliation). */
  replaceAssignments(rideByDriver: ReadonlyMap<number, string>, keep: (driverId: number) => boolean): void {
    for (const [driverId, entry] of this.entries) {
      if (entry.rideId !== undefined && !rideByDriver.has(driverId) && !keep(driverId)) entry.rideId = undefined;
    }
    for (const [driverId, rideId] of rideByDriver) if (!keep(driverId)) this.entry(driverId).rideId = rideId;
  }

  /** Reconciliation: drivers held as online who are not in the given set go offline, unless kept. */
  offlineUnless(online: ReadonlySet<number>, keep: (driverId: number) => boolean): void {
    for (const [driverId, entry] of this.entries) {
      if (entry.availability?.online && !online.has(driverId) && !keep(driverId)) entry.availability = { ...entry.availability, online: false };
    }
  }

  /** Drops positions heard before the given time and entries left with nothing worth keeping. */
  prune(heardBefore: number): void {
    for (const [driverId, entry] of this.entries) {
      if (entry.cell !== undefined && entry.atMs < heardBefore) this.forgetPosition(driverId);
      else this.dropIfEmpty(driverId, entry);
    }
  }

  /** Every driver the query's rules allow, in no particular order. */
  near(query: NearQuery): number[] {
    const found: number[] = [];
    this.visit(query, (id) => found.push(id));
    return found;
  }

  countNear(query: NearQuery): number {
    let count = 0;
    this.visit(query, () => (count += 1));
    return count;
  }

  /**
   * At most `limit` drivers heard since `heardSince` whose position lies in the box, whatever their
   * availability (the operators' live view), in no particular order.
   */
  inBox(box: GeoBox, heardSince: number, limit: number): LiveDriver[] {
    const found: LiveDriver[] = [];
    const take = (members: Set<number>): boolean => {
      for (const driverId of members) {
        if (found.length >= limit) return false;
        const e = this.entries.get(driverId);
        if (!e || e.atMs < heardSince || !inBox(box, e.latitude, e.longitude)) continue;
        found.push({ driverId, latitude: e.latitude, longitude: e.longitude, atMs: e.atMs, rideId: e.rideId, availability: e.availability });
      }
      return found.length < limit;
    };
    if (GRID.countCellsInBox(box) > this.cells.size) {
      for (const members of this.cells.values()) if (!take(members)) break;
      return found;
    }
    GRID.forEachCellInBox(box, (cell) => {
      const members = this.cells.get(cell);
      return !members || take(members);
    });
    return found;
  }

  private visit(query: NearQuery, found: (driverId: number) => void): void {
    const { point, radiusKm } = query;
    const latBand = radiusKm / KM_PER_DEGREE;
    const cos = Math.cos((point.latitude * Math.PI) / 180);
    const lngBand = cos > 1e-6 ? Math.min(180, latBand / cos) : 180;
    // A slightly generous box around the circle: most candidates outside it are dropped without trigonometry.
    const boxLat = latBand * BOX_SLACK;
    const boxLng = lngBand * BOX_SLACK >= 180 ? Infinity : lngBand * BOX_SLACK;
    const consider = (id: number): void => {
      const entry = this.entries.get(id);
      if (!entry || !matches(entry, query)) return;
      if (Math.abs(entry.latitude - point.latitude) > boxLat) return;
      if (Math.abs(((((entry.longitude - point.longitude) % 360) + 540) % 360) - 180) > boxLng) return;
      if (haversineKm(point, entry) <= radiusKm) found(id);
    };
    if (GRID.countCellsWithin(point, radiusKm) > this.cells.size) {
      // A search wider than the occupied grid: walking the occupied cells is cheaper.
      for (const members of this.cells.values()) for (const id of members) consider(id);
      return;
    }
    GRID.forEachCellWithin(point, radiusKm, (cell) => {
      const members = this.cells.get(cell);
      if (members) for (const id of members) consider(id);
    });
  }

  private entry(driverId: number): Entry {
    let entry = this.entries.get(driverId);
    if (!entry) this.entries.set(driverId, (entry = { availability: undefined, latitude: 0, longitude: 0, atMs: 0, cell: undefined, rideId: undefined }));
    return entry;
  }

  /** An offline driver without a position or ride tells the matcher nothing. */
  private dropIfEmpty(driverId: number, entry: Entry): void {
    if (entry.cell !== undefined || entry.rideId !== undefined || entry.availability?.online) return;
    this.entries.delete(driverId);
  }

  private leaveCell(driverId: number, cell: number): void {
    const members = this.cells.get(cell);
    if (!members) return;
    members.delete(driverId);
    if (members.size === 0) this.cells.delete(cell);
  }
}

function matches(entry: Entry, query: NearQuery): boolean {
  const availability = entry.availability;
  if (!availability?.online || !availability.approved) return false;
  if (availability.vehicleCategoryId !== null && availability.vehicleCategoryId !== query.vehicleCategoryId) return false;
  if (query.freeOnly && entry.rideId !== undefined) return false;
  return entry.cell !== undefined && entry.atMs >= query.heardSince;
}
