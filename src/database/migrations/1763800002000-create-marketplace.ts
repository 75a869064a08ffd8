import { MigrationInterface, QueryRunner } from 'typeorm';

const LIVE = `('requested', 'accepted', 'driver_arrived', 'started')`;
const ASSIGNED = `('accepted', 'driver_arrived', 'started')`;

export class CreateMarketplace1763800002000 implements MigrationInterface {
  name = 'CreateMarketplace1763800002000';

  async up(q: QueryRunner): Promise<void> {
    // Location columns are deliberately unindexed and the fill factor leaves room so that the
    // batched heartbeat flush is a HOT update that never touches an index.
    await q.query(`
      CREATE TABLE drivers (
        user_id             integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        status              varchar(16)  NOT NULL DEFAULT 'pending'
                              CHECK (status IN ('pending', 'approved', 'rejected', 'suspended')),
        is_online           boolean      NOT NULL DEFAULT false,
        vehicle_category_id integer      REFERENCES vehicle_categories(id),
        vehicle_make        varchar(60),
        vehicle_model       varchar(60),
        vehicle_plate       varchar(20),
        vehicle_color       varchar(30),
        vehicle_year        integer,
        license_number      varchar(40),
        rating              numeric(3,2) NOT NULL DEFAULT 5.00,
        last_latitude       double precision,
        last_longitude      double precision,
        last_heading        double precision,
        last_speed          double precision,
        last_accuracy       double precision,
        last_location_at    timestamptz,
        created_at          timestamptz  NOT NULL DEFAULT now(),
        updated_at          timestamptz  NOT NULL DEFAULT now()
      ) WITH (fillfactor = 70)`);
    await q.query(`CREATE INDEX drivers_online_idx ON drivers (vehicle_category_id) WHERE is_online AND status = 'approved'`);

    await q.query(`
      CREATE TABLE promo_codes (
        id                 serial PRIMARY KEY,
        code               varchar(40)  NOT NULL UNIQUE CHECK (code = upper(code)),
        description        varchar(300) NOT NULL DEFAULT '',
        discount_type      varchar(16)  NOT NULL CHECK (discount_type IN ('percentage', 'fixed')),
        discount_value     integer      NOT NULL CHECK (discount_value > 0),
        max_discount_minor integer      CHECK (max_discount_minor > 0),
        valid_from         timestamptz,
        valid_until        timestamptz,
        usage_limit        integer      CHECK (usage_limit >= 0),
        used_count         integer      NOT NULL DEFAULT 0,
        is_active          boolean      NOT NULL DEFAULT true,
        created_at         timestamptz  NOT NULL DEFAULT now(),
        CHECK (discount_type <> 'percentage' OR discount_value <= 100)
      )`);

    // pickup_geo is an equirectangular projection in degrees (x scaled by cos(latitude)) so that
    // the GiST index can answer both a bounding box and nearest-first order for nearby rides.
    await q.query(`
      CREATE TABLE rides (
        id                   uuid PRIMARY KEY,
        ride_code            char(6)      NOT NULL,
        status               varchar(20)  NOT NULL
                               CHECK (status IN ('requested', 'accepted', 'driver_arrived', 'started',
                                                 'completed', 'cancelled', 'expired')),
        ride_type            varchar(16)  NOT NULL CHECK (ride_type IN ('one_way', 'round_trip', 'per_hour', 'delivery')),
        passenger_id         integer      REFERENCES users(id) ON DELETE SET NULL,
        driver_id            integer      REFERENCES users(id) ON DELETE SET NULL,
        vehicle_category_id  integer      NOT NULL REFERENCES vehicle_categories(id),
        pickup_address       varchar(300) NOT NULL,
        pickup_latitude      double precision NOT NULL,
        pickup_longitude     double precision NOT NULL,
        dropoff_address      varchar(300) NOT NULL,
        dropoff_latitude     double precision NOT NULL,
        dropoff_longitude    double precision NOT NULL,
        return_address       varchar(300),
        return_latitude      double precision,
        return_longitude     double precision,
        passenger_count      integer      NOT NULL CHECK (passenger_count >= 0),
        children             integer      NOT NULL DEFAULT 0 CHECK (children >= 0),
        payment_method       varchar(16)  NOT NULL CHECK (payment_method IN ('cash', 'wallet')),
        duration_minutes     integer,
        end_scheduled_at     timestamptz,
        return_scheduled_at  timestamptz,
        promo_code           varchar(40),
        estimate             jsonb        NOT NULL,
        estimated_fare_minor bigint       NOT NULL,
        fare_minor           bigint,
        currency             char(3)      NOT NULL,
        accepted_bid_id      uuid,
        cancelled_by         varchar(16)  CHECK (cancelled_by IN ('passenger', 'driver')),
        cancel_reason        varchar(500),
        expires_at           timestamptz  NOT NULL,
        accepted_at          timestamptz,
        arrived_at           timestamptz,
        started_at           timestamptz,
        completed_at         timestamptz,
        cancelled_at         timestamptz,
        created_at           timestamptz  NOT NULL DEFAULT now(),
        updated_at           timestamptz  NOT NULL DEFAULT now(),
        pickup_geo           point GENERATED ALWAYS AS
                               (point(pickup_longitude * cosd(pickup_latitude), pickup_latitude)) STORED
      )`);
    await q.query(`CREATE UNIQUE INDEX rides_code_live_uq ON rides (ride_code) WHERE status IN ${LIVE}`);
    await q.query(`CREATE UNIQUE INDEX rides_passenger_live_uq ON rides (passenger_id) WHERE status IN ${LIVE}`);
    await q.query(`CREATE UNIQUE INDEX rides_driver_live_uq ON rides (driver_id) WHERE status IN ${ASSIGNED}`);
    await q.query(`CREATE INDEX rides_requested_geo_idx ON rides USING gist (pickup_geo) WHERE status = 'requested'`);
    await q.query(`CREATE INDEX rides_requested_expiry_idx ON rides (expires_at) WHERE status = 'requested'`);
    await q.query(`CREATE INDEX rides_passenger_history_idx ON rides (passenger_id, created_at DESC)`);
    await q.query(`CREATE INDEX rides_driver_history_idx ON rides (driver_id, completed_at DESC)`);

    await q.query(`
      CREATE TABLE bids (
        id           uuid PRIMARY KEY,
        ride_id      uuid        NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
        driver_id    integer     NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        amount_minor bigint      NOT NULL CHECK (amount_minor > 0),
        eta_minutes  integer     NOT NULL CHECK (eta_minutes >= 0),
        status       varchar(16) NOT NULL DEFAULT 'pending'
                       CHECK (status IN ('pending', 'accepted', 'rejected', 'withdrawn')),
        created_at   timestamptz NOT NULL DEFAULT now(),
        updated_at   timestamptz NOT NULL DEFAULT now(),
        UNIQUE (ride_id, driver_id)
      )`);
    await q.query(`CREATE INDEX bids_ride_amount_idx ON bids (ride_id, amount_minor)`);
    await q.query(`CREATE INDEX bids_driver_idx ON bids (driver_id)`);

    await q.query(`
      CREATE TABLE ride_events (
        id            bigserial PRIMARY KEY,
        ride_id       uuid        NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
        from_status   varchar(20),
        to_status     varchar(20) NOT NULL,
        actor_user_id integer,
        actor_role    varchar(16) NOT NULL CHECK (actor_role IN ('passenger', 'driver', 'system')),
        reason        varchar(500),
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ride_events_ride_idx ON ride_events (ride_id, id)`);

    // One row per completed ride: the primary key is what makes payment exactly-once.
    await q.query(`
      CREATE TABLE ride_payments (
        ride_id              uuid PRIMARY KEY REFERENCES rides(id) ON DELETE CASCADE,
        driver_id            integer     REFERENCES users(id) ON DELETE SET NULL,
        method               varchar(16) NOT NULL CHECK (method IN ('cash', 'wallet')),
        fare_minor           bigint      NOT NULL,
        commission_minor     bigint      NOT NULL,
        driver_earning_minor bigint      NOT NULL,
        currency             char(3)     NOT NULL,
        created_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ride_payments_driver_idx ON ride_payments (driver_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE idempotency_keys (
        user_id      integer      NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key          varchar(200) NOT NULL,
        request_hash char(64)     NOT NULL,
        ride_id      uuid,
        created_at   timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['idempotency_keys', 'ride_payments', 'ride_events', 'bids', 'rides', 'promo_codes', 'drivers']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
