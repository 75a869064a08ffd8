import { Injectable, Logger } from '@nestjs/common';
import { MaybeAsync, thenMaybe } from '../../common/async/maybe-async';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { EventBus } from '../../common/events/event-bus';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { AppConfig } from '../../config/app-config';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { VehicleCategoriesRepository } from './vehicle-categories.repository';

type Snapshot = { list: VehicleCategoryEntity[]; byId: Map<number, VehicleCategoryEntity> };

const ALL = 'all';

/**
 * Categories change rarely and are read on every estimate, so they are held in memory for
 * VEHICLE_CATEGORY_CACHE_MS (the shared read-through cache: one load at a time) and forgotten on
 * every instance by `vehicle_categories.changed`. Once loaded, an expired copy is still served while
 * the reload runs (estimates never wait for it, and a failed reload leaves the old copy in use); after
 * the event, the next read waits for the new list.
 */
@Injectable()
export class VehicleCategoriesService {
  private readonly logger = new Logger(VehicleCategoriesService.name);
  private readonly cache: ReadThroughCache<string, Snapshot>;
  /** The last list loaded, served while a reload of an expired one runs; dropped by the event. */
  private last: Snapshot | undefined;
  /** Bumped by the event: a load that started before it must not become `last`. */
  private generation = 0;

  constructor(
    private readonly categories: VehicleCategoriesRepository,
    private readonly events: EventBus,
    config: AppConfig,
  ) {
    this.cache = new ReadThroughCache({ ttlMs: config.vehicleCategoryCacheMs, maxEntries: 1 });
  }

  async listActive(): Promise<VehicleCategoryEntity[]> {
    return (await this.snapshot()).list.filter((c) => c.isActive);
  }

  /**
   * The category, or undefined when it does not exist or is inactive: without a promise once the
   * list is in memory (every estimate asks), a promise only while the first load runs.
   */
  findActive(id: number): MaybeAsync<VehicleCategoryEntity | undefined> {
    return thenMaybe(this.snapshot(), (s) => activeIn(s, id));
  }

  /** After the vehicle_categories table was edited (operator CLI `categories:reload`): every instance reloads. */
  announceChanged(): void {
    this.events.publish('vehicle_categories.changed', {});
  }

  @OnDomainEvent('vehicle_categories.changed')
  private forget(): void {
    this.generation += 1;
    this.last = undefined;
    this.cache.invalidate(ALL);
  }

  private snapshot(): MaybeAsync<Snapshot> {
    const fresh = this.cache.peek(ALL);
    if (fresh) return fresh;
    const loading = this.cache.load(ALL, () => this.load());
    const stale = this.last;
    if (!stale || !this.cache.enabled) return loading.then((s) => s!);
    // A background reload has no caller awaiting it: without this its failure would be an
    // unhandled rejection. The first load's failure still reaches the caller that awaits it.
    loading.catch((err: unknown) => this.logger.warn({ err, msg: 'Reloading vehicle categories failed; serving the cached copy' }));
    return stale;
  }

  private async load(): Promise<Snapshot> {
    const generation = this.generation;
    const list = await this.categories.findAllOrdered();
    const snapshot = { list, byId: new Map(list.map((c) => [c.id, c])) };
    if (generation === this.generation) this.last = snapshot;
    return snapshot;
  }
}

function activeIn(snapshot: Snapshot, id: number): VehicleCategoryEntity | undefined {
  const category = snapshot.byId.get(id);
  return category?.isActive ? category : undefined;
}
