import { Injectable, Logger } from '@nestjs/common';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';

const CACHE_MS = 30_000;

type Snapshot = { list: VehicleCategoryEntity[]; byId: Map<number, VehicleCategoryEntity>; at: number };

/**
 * Categories change rarely and are read on every estimate, so they are cached in memory for a
 * short time (an operator's edit shows within CACHE_MS on every instance).
 */
@Injectable()
export class VehicleCategoriesService {
  private readonly logger = new Logger(VehicleCategoriesService.name);
  private cache: Snapshot | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly categories: VehicleCategoriesRepository) {}

  async listActive(): Promise<VehicleCategoryEntity[]> {
    return (await this.snapshot()).list.filter((c) => c.isActive);
  }

  /** The category, or undefined when it does not exist or is inactive. */
  async findActive(id: number): Promise<VehicleCategoryEntity | undefined> {
    const category = (await this.snapshot()).byId.get(id);
    return category?.isActive ? category : undefined;
  }

  private async snapshot(): Promise<Snapshot> {
    if (!this.cache || Date.now() - this.cache.at > CACHE_MS) {
      const loading = this.reload();
      // Serve a slightly stale list rather than wait, once there is one.
      if (!this.cache) await loading;
    }
    return this.cache!;
  }

  /** One query at a time; a failed one leaves the cache stale, so a later call tries again. */
  private reload(): Promise<void> {
    if (this.loading) return this.loading;
    const loading = this.categories
      .findAllOrdered()
      .then((list) => {
        this.cache = { list, byId: new Map(list.map((c) => [c.id, c])), at: Date.now() };
      })
      .finally(() => (this.loading = undefined));
    // A background reload has no caller awaiting it: without this its failure would be an
    // unhandled rejection. The first load's failure still reaches the caller that awaits it.
    loading.catch((err: unknown) => {
      if (this.cache) this.logger.warn({ err, msg: 'Reloading vehicle categories failed; serving the cached copy' });
    });
    this.loading = loading;
    return loading;
  }
}
