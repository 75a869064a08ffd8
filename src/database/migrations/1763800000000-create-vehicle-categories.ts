import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVehicleCategories1763800000000 implements MigrationInterface {
  name = 'CreateVehicleCategories1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE vehicle_categories (
        id                    serial PRIMARY KEY,
        code                  varchar(32)  NOT NULL UNIQUE,
        name                  varchar(60)  NOT NULL,
        description           varchar(300) NOT NULL DEFAULT '',
        max_passengers        integer      NOT NULL CHECK (max_passengers >= 0),
        max_luggage           integer      NOT NULL CHECK (max_luggage >= 0),
        luggage_capacity      integer      NOT NULL CHECK (luggage_capacity >= 0),
        base_fare_minor       integer      NOT NULL CHECK (base_fare_minor >= 0),
        per_km_rate_minor     integer      NOT NULL CHECK (per_km_rate_minor >= 0),
        per_minute_rate_minor integer      NOT NULL CHECK (per_minute_rate_minor >= 0),
        minimum_fare_minor    integer      NOT NULL CHECK (minimum_fare_minor >= 0),
        sort_order            integer      NOT NULL DEFAULT 0,
        is_active             boolean      NOT NULL DEFAULT true,
        created_at            timestamptz  NOT NULL DEFAULT now(),
        updated_at            timestamptz  NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE vehicle_categories`);
  }
}
