import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { GeoPoint } from '../../../../common/events/domain-events';
import { EventBus } from '../../../../common/events/event-bus';
import { OnDomainEvent } from '../../../../common/events/on-domain-event';
import type { GeoBox } from '../../../../common/geo';
import { AppConfig } from '../../../../config/app-config';
import { ASSIGNED_STATUSES, FINAL_STATUSES } from '../../ride-status';
import { RIDE_TRANSITIONS } from '../../transitions/ride-transitions';
import { rideToJson, RideView } from '../ride-view';
import { AreaVersions } from './area-versions';
import { NearbyPageWriter, NearbyQuery } from './nearby-page';
import { OpenRequestsGrid } from './open-requests-grid';
import { OpenRequest, OpenRequestPin, OpenRequestStore, requestOf } from './open-requests-store';
export type { OpenRequestPin };
import { OpenRequestRow, OpenRequestsRepository } from './open-requests.repository';

/** The statuses a driver bids in (the table's `bid` row): the index holds rides in these. */
const OPEN_STATUSES: readonly string[] = RIDE_TRANSITIONS.bid.from.other;
/** Statuses a ride never leaves for an open one (a scheduled ride, before its dispatch, is not among them). */
const PAST_OPEN: readonly string[] = [...ASSIGNED_STATUSES, ...FINAL_STATUSES];
const LOAD_PAGE = 2000;
const FETCH_BATCH = 1000;
/**
 * Reconciliation reads and sweeps this many rides a turn: at 1M open requests, one turn for all of
 * them held every request up for 0.9-4.3 s (a CPU profile of the nearby bench at 1M).
 */
const RECONCILE_PAGE = 5000;
/**
 * Two grids hold every entry: cells of 0.01° (1.1 km) for the usual radii, 0.05° (5.6 km) beyond
 * this radius, where fine cells would be thousands to visit. Measured at 100k rides over 67 × 67 km
 * (3 categories): a 5 km page visits 14 fine cells and 356 rides instead of 3 coarse cells and 1,500.
 */
const FINE_UP_TO_KM = 10;

/**
 * Every open request (a ride drivers may bid on) in this instance's memory, each with its wire JSON
 * serialised once, so a nearby page is a concatenation and surge counts demand without a query.
 *
 * Kept right by the after-commit ride events of every instance (over Redis): any event carrying a
 * ride puts it in while it is open and takes it out once it is not. Loaded at start-up in pages
 * without holding the start-up: until the load is done, nearby is answered by the database
 * (`nearbyBody` returns undefined). Resynchronised from the database when the bus comes back after
 * losing the other instances, and every OPEN_REQUESTS_RECONCILE_SECONDS (what a lost event can cost).
 * Bids and acceptances lock the ride row, so a stale entry can show a ride but never win it.
 *
 * Ordering: every change here takes the next `seq`; a database read started before a change never
 * overrides it, and a ride that left the open statuses is remembered (tombstone) until the next
 * reconciliation, so an event overtaken by a later one on its way over Redis cannot bring it back.
 */
@Injectable()
export class OpenRequestsIndex implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OpenRequestsIndex');
  private readonly store = new OpenRequestStore();
  private readonly grid = new OpenRequestsGrid(0.01, this.store);
  private readonly coarse = new OpenRequestsGrid(0.05, this.store);
  private readonly tombstones = new Map<string, number>();
  /** Which areas changed when: nearby pages are cached until theirs does. */
  readonly areas = new AreaVersions();
  private seq = 0;
  private loaded = false;
  private running: Promise<unknown> | undefined;
  /** Why another run was asked for while one ran. */
  private again: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private offResumed: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly repository: OpenRequestsRepository,
    private readonly bus: EventBus,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.offResumed = this.bus.onResumed(() => void this.resynchronise('the event bus reconnected'));
    void this.resynchronise('start-up');
    this.timer = setInterval(() => void this.resynchronise('periodic'), this.config.openRequestsReconcileSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.offResumed?.();
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Whether the start-up load is done (before it, nearby asks the database). */
  get ready(): boolean {
    return this.loaded;
  }

  get size(): number {
    return this.store.size;
  }

  /**
   * The nearby page as GET /driver/rides/nearby answers it (see NearbyPages): open, not expired, of
   * the category (null: any), nearest first by chord then id, at most `limit`, each with its
   * haversine distance_km to 2 decimals, within the radius; with the first moment one of its rides
   * expires (when the page changes without an event). undefined until the index is loaded.
   */
  nearby(q: NearbyQuery): { writer: NearbyPageWriter; expiresAtMs: number } | undefined {
    if (!this.loaded) return undefined;
    const { slots } = this.gridFor(q.radiusKm).nearest(q, q.radiusKm, q.limit, { categoryId: q.vehicleCategoryId, openAtMs: Date.now() });
    const writer = new NearbyPageWriter(q, q.radiusKm);
    let expiresAtMs = Infinity;
    for (const slot of slots) {
      if (writer.add(this.store.head(slot), this.store.hash(slot), { latitude: this.store.latitude(slot), longitude: this.store.longitude(slot) })) {
        expiresAtMs = Math.min(expiresAtMs, this.store.expiresAtMs(slot));
      }
    }
    return { writer, expiresAtMs };
  }

  /** nearby()'s JSON text alone. */
  nearbyBody(q: NearbyQuery): string | undefined {
    return this.nearby(q)?.writer.finish();
  }

  /** Open, unexpired requests of the category whose pickup is within radiusKm of the point. */
  countNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.gridFor(radiusKm).count(point, radiusKm, { categoryId: vehicleCategoryId, openAtMs: Date.now() });
  }

  /**
   * At most `limit` open, unexpired requests whose pickup lies in the box (the operators' live view),
   * in no particular order; `created_at` is read from the entry's own JSON.
   */
  openIn(box: GeoBox, limit: number): OpenRequestPin[] {
    return this.coarse.inBox(box, limit, Date.now()).map((slot) => ({
      id: this.store.id(slot),
      latitude: this.store.latitude(slot),
      longitude: this.store.longitude(slot),
      created_at: (JSON.parse(`${this.store.head(slot)}}`) as { created_at: string }).created_at,
    }));
  }

  /** Every ride event carries the ride: open, it is (re)put; otherwise it leaves for good. */
  @OnDomainEvent('ride.requested', 'ride.dispatched', 'ride.offer_raised', 'ride.accepted', 'ride.cancelled', 'ride.expired', 'ride.status_changed')
  private rideChanged(e: { ride_id: string; ride: RideView }): void {
    const seq = (this.seq += 1);
    const id = e.ride_id.toLowerCase();
    if (!OPEN_STATUSES.includes(e.ride.status)) {
      if (PAST_OPEN.includes(e.ride.status)) this.tombstones.set(id, seq);
      this.drop(id);
      return;
    }
    if (this.tombstones.has(id)) return;
    const slot = this.store.slotOf(id);
    if (slot >= 0 && this.store.updatedAtMs(slot) > Date.parse(e.ride.updated_at)) return;
    this.put(requestOf(e.ride, null, seq));
  }

  /** A passenger's public profile shows in their open request: read it again (profiles change rarely). */
  @OnDomainEvent('user.profile_changed')
  private async passengerChanged(e: { user_id: number }): Promise<void> {
    const slot = this.store.slotOfPassenger(e.user_id);
    if (slot < 0) return;
    const start = (this.seq += 1);
    this.apply(await this.repository.findOpen([this.store.id(slot)]), start);
  }

  /**
   * Start-up load, or reconciliation once loaded; one at a time. A trigger during a run (the bus
   * came back while a reconciliation read an older state) runs once more after it, from a fresh read.
   */
  resynchronise(why: string): Promise<unknown> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again ??= why;
      return this.running;
    }
    const run = (this.loaded ? this.reconcile() : this.load()).then(
      (changes) => {
        const entry = { msg: `Open requests resynchronised (${why})`, changes, size: this.store.size };
        if (changes > 0 || why === 'start-up') this.logger.log(entry);
        else this.logger.debug(entry);
      },
      (err: unknown) => this.logger.error({ err, msg: `Open requests could not be resynchronised (${why}); retried at the next reconciliation` }),
    );
    this.running = run.finally(() => {
      this.running = undefined;
      const again = this.again;
      this.again = undefined;
      if (again !== undefined) void this.resynchronise(again);
    });
    return this.running;
  }

  /** Streams the open requests in, yielding to requests between pages. */
  private async load(): Promise<number> {
    const start = (this.seq += 1);
    let count = 0;
    await this.repository.streamOpen(LOAD_PAGE, async (rows) => {
      this.apply(rows, start);
      count += rows.length;
      await nextTurn();
      return !this.stopped;
    });
    // Stopped half-way (shutdown, or an operator CLI process, which has no use for it): never answers.
    this.loaded = !this.stopped;
    return count;
  }

  /**
   * Compares the index with the database by fingerprint: what the database has and the index lacks
   * or holds in another version is read again, what the index holds and the database no longer
   * lists as open goes. Changes the index saw after the read began are left alone. Returns how
   * many entries it changed (0: no drift).
   */
  async reconcile(): Promise<number> {
    const start = (this.seq += 1);
    // Slots the database still lists; a slot filled after `start` is past this size or has seq ≥ start.
    const listed = new Uint8Array(this.store.capacity);
    const stale: string[] = [];
    await this.repository.streamFingerprints(RECONCILE_PAGE, async (rows) => {
      for (const { id, fp } of rows) {
        const slot = this.store.slotOf(id);
        if (slot >= 0 && slot < listed.length) listed[slot] = 1;
        if (slot >= 0 ? this.store.seq(slot) < start && this.store.fingerprint(slot) !== fp : (this.tombstones.get(id) ?? 0) < start) stale.push(id);
      }
      await nextTurn();
      return !this.stopped;
    });
    let changes = 0;
    for (let slot = 0; slot < listed.length; slot += 1) {
      if (listed[slot] === 0 && this.store.occupies(slot) && this.store.seq(slot) < start) {
        this.drop(this.store.id(slot));
        changes += 1;
      }
      if (slot % RECONCILE_PAGE === RECONCILE_PAGE - 1) await nextTurn();
    }
    for (let i = 0; i < stale.length; i += FETCH_BATCH) {
      changes += this.apply(await this.repository.findOpen(stale.slice(i, i + FETCH_BATCH)), start);
    }
    // Late events older than this read can no longer arrive out of order: forget those rides.
    for (const [id, seq] of this.tombstones) if (seq < start) this.tombstones.delete(id);
    return changes;
  }

  /** Database rows read from `start` on: each replaces the entry unless a change since then did. */
  private apply(rows: OpenRequestRow[], start: number): number {
    let changed = 0;
    for (const row of rows) {
      const slot = this.store.slotOf(row.id);
      if ((slot >= 0 && this.store.seq(slot) >= start) || (this.tombstones.get(row.id) ?? 0) >= start) continue;
      if (slot >= 0 && this.store.fingerprint(slot) === row.fp) continue;
      this.put(requestOf(rideToJson(row), row.fp, start));
      changed += 1;
    }
    return changed;
  }

  private gridFor(radiusKm: number): OpenRequestsGrid {
    return radiusKm <= FINE_UP_TO_KM ? this.grid : this.coarse;
  }

  /** Adds the request, or replaces the one with its id. */
  private put(request: OpenRequest): void {
    let slot = this.store.slotOf(request.id);
    this.areas.changedAt(request.latitude, request.longitude);
    if (slot >= 0) {
      this.areas.changedAt(this.store.latitude(slot), this.store.longitude(slot));
      this.grid.remove(slot);
      this.coarse.remove(slot);
      this.store.replace(slot, request);
    } else slot = this.store.add(request);
    this.grid.put(slot);
    this.coarse.put(slot);
  }

  private drop(id: string): void {
    const slot = this.store.slotOf(id);
    if (slot < 0) return;
    this.areas.changedAt(this.store.latitude(slot), this.store.longitude(slot));
    this.grid.remove(slot);
    this.coarse.remove(slot);
    this.store.remove(slot);
  }
}

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
