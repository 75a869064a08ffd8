import type { DataSource, EntityManager } from 'typeorm';

/** Example promo codes for development and demos: one percentage with a cap, one fixed, one expired. */
const PROMOS = [
  ['WELCOME10', '10% off your ride, up to 5.00', 'percentage', 10, 500, null],
  ['FLAT5', '5.00 off any ride', 'fixed', 500, null, null],
  ['SUMMER2020', 'Expired summer campaign (20% off)', 'percentage', 20, null, '2020-09-01T00:00:00Z'],
] as const;

/** Idempotent: inserts the codes that are missing and leaves existing ones alone. */
export async function seedPromoCodes(db: DataSource | EntityManager): Promise<void> {
  for (const [code, description, type, value, cap, validUntil] of PROMOS) {
    await db.query(
      `INSERT INTO promo_codes (code, description, discount_type, discount_value, max_discount_minor, valid_until)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code) DO NOTHING`,
      [code, description, type, value, cap, validUntil],
    );
  }
}
