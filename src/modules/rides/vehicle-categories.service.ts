import { Injectable } from '@nestjs/common';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';

const CACHE_MS = 30_000;

/**
 * Categories change rarely and are read on every estimate, so they are cached in memory for a
 * short time (an operator's edit shows within CACHE_MS on every instance).
 */
@Injectable()
export class VehicleCategoriesService {
  private cache: { list: VehicleCategoryEntity[]; byId: Map<number, VehicleCategoryEntity>; at: number } | undefined;
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

  private async snapshot(): Promise<NonNullable<VehicleCategoriesService['cache']>> {
    if (!this.cache || Date.now() - this.cache.at > CACHE_MS) {
      this.loading ??= this.categories
        .findAllOrdered()
        .then((list) => {
          this.cache = { list, byId: new Map(list.map((c) => [c.id, c])), at: Date.now() };
        })
        .finally(() => (this.loading = undefined));
      // Serve a slightly stale list rather than wait, once there is one.
      if (!this.cache) await this.loading;
    }
    return this.cache!;
  }
}
