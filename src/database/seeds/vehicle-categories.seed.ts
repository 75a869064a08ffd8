import type { DataSource, EntityManager } from 'typeorm';

/** Fares in minor units of the configured currency; luggage_capacity in litres. */
const CATEGORIES = [
  ['economy', 'Economy', 'Affordable everyday rides in compact cars', 4, 2, 300, 250, 120, 25, 600, 10],
  ['comfort', 'Comfort', 'Newer cars with extra legroom', 4, 3, 420, 350, 160, 35, 800, 20],
  ['business', 'Business', 'Premium sedans with top-rated drivers', 4, 3, 480, 600, 240, 55, 1500, 30],
  ['van', 'Van', 'Spacious vans for groups and luggage', 7, 6, 900, 500, 200, 45, 1200, 40],
  ['delivery', 'Delivery', 'Parcels and packages across town', 1, 0, 600, 300, 100, 20, 500, 50],
] as const;

/** Idempotent: inserts the categories that are missing and leaves edited ones alone. */
export async function seedVehicleCategories(db: DataSource | EntityManager): Promise<void> {
  for (const [code, name, description, pax, luggage, capacity, base, perKm, perMin, minimum, order] of CATEGORIES) {
    await db.query(
      `INSERT INTO vehicle_categories
         (code, name, description, max_passengers, max_luggage, luggage_capacity,
          base_fare_minor, per_km_rate_minor, per_minute_rate_minor, minimum_fare_minor, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (code) DO NOTHING`,
      [code, name, description, pax, luggage, capacity, base, perKm, perMin, minimum, order],
    );
  }
}
