import { MigrationInterface, QueryRunner } from 'typeorm';

/** Must equal the asExpression of RideEntity.pickupVec (TypeORM's diff compares the text). */
export const PICKUP_VEC_EXPRESSION =
  'cube(ARRAY[cosd(pickup_latitude) * cosd(pickup_longitude), cosd(pickup_latitude) * sind(pickup_longitude), sind(pickup_latitude)])';

/**
 * Nearby requests, nearest first, straight from a GiST index. The pickup becomes a 3-D unit vector:
 * the straight-line (chord) distance between two such vectors grows with the great-circle distance
 * everywhere on the sphere (no seam at ±180°, no distortion near the poles), so the index's
 * distance order (`<->`) is the exact order and a LIMIT stops after the rows it returns. The
 * category leads the index (btree_gist) so a driver's category is answered inside it. Replaces the
 * projected pickup_geo point, whose x error grew with |longitude| and which only served a box scan.
 */
export class RidesPickupVector1763800009400 implements MigrationInterface {
  name = 'RidesPickupVector1763800009400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS cube`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(`DROP INDEX rides_requested_geo_idx`);
    await q.query(`ALTER TABLE rides DROP COLUMN pickup_geo`);
    await q.query(`ALTER TABLE rides ADD COLUMN pickup_vec cube GENERATED ALWAYS AS (${PICKUP_VEC_EXPRESSION}) STORED`);
    await q.query(`CREATE INDEX rides_requested_near_idx ON rides USING gist (vehicle_category_id, pickup_vec) WHERE status = 'requested'`);
    await q.query(`DELETE FROM typeorm_metadata WHERE type = 'GENERATED_COLUMN' AND "table" = 'rides' AND name = 'pickup_geo'`);
    await q.query(
      `INSERT INTO typeorm_metadata (type, "database", "schema", "table", name, value)
       VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'rides', 'pickup_vec', $1)`,
      [PICKUP_VEC_EXPRESSION],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM typeorm_metadata WHERE type = 'GENERATED_COLUMN' AND "table" = 'rides' AND name = 'pickup_vec'`);
    await q.query(`DROP INDEX rides_requested_near_idx`);
    await q.query(`ALTER TABLE rides DROP COLUMN pickup_vec`);
    const expression = 'point(pickup_longitude * cosd(pickup_latitude), pickup_latitude)';
    await q.query(`ALTER TABLE rides ADD COLUMN pickup_geo point GENERATED ALWAYS AS (${expression}) STORED`);
    await q.query(`CREATE INDEX rides_requested_geo_idx ON rides USING gist (pickup_geo) WHERE status = 'requested'`);
    await q.query(
      `INSERT INTO typeorm_metadata (type, "database", "schema", "table", name, value)
       VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'rides', 'pickup_geo', $1)`,
      [expression],
    );
  }
}
