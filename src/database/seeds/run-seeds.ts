import type { DataSource } from 'typeorm';
import { seedPromoCodes } from './promo-codes.seed';
import { seedVehicleCategories } from './vehicle-categories.seed';

/** Reference data every environment needs. Each seed is idempotent. */
export async function runSeeds(dataSource: DataSource): Promise<void> {
  await seedVehicleCategories(dataSource);
  await seedPromoCodes(dataSource);
}
