import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsersAndWallets1763800001000 implements MigrationInterface {
  name = 'CreateUsersAndWallets1763800001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id                  serial PRIMARY KEY,
        phone               varchar(20)  UNIQUE,
        email               varchar(254) UNIQUE,
        first_name          varchar(100),
        last_name           varchar(100),
        role                varchar(16)  NOT NULL DEFAULT 'passenger' CHECK (role IN ('passenger', 'driver')),
        is_verified         boolean      NOT NULL DEFAULT false,
        is_phone_verified   boolean      NOT NULL DEFAULT false,
        is_email_verified   boolean      NOT NULL DEFAULT false,
        is_active           boolean      NOT NULL DEFAULT true,
        is_blocked          boolean      NOT NULL DEFAULT false,
        is_registered       boolean      NOT NULL DEFAULT false,
        registered_at       timestamptz,
        device_token        varchar(512),
        profile_picture     varchar(512),
        otp_code_hash       varchar(128),
        otp_expires_at      timestamptz,
        otp_failed_attempts integer      NOT NULL DEFAULT 0,
        otp_verified_at     timestamptz,
        refresh_token_hash  varchar(128),
        last_login_at       timestamptz,
        login_count         integer      NOT NULL DEFAULT 0,
        created_at          timestamptz  NOT NULL DEFAULT now(),
        updated_at          timestamptz  NOT NULL DEFAULT now(),
        CHECK (phone IS NULL OR phone ~ '^\\+[0-9]{1,19}$'),
        CHECK (email IS NULL OR email = lower(btrim(email)))
      )`);

    // Counters for the OTP and per-IP limits. Unlogged: losing them in a crash only resets limits.
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_counters (
        key      varchar(200) PRIMARY KEY,
        hits     integer      NOT NULL,
        reset_at timestamptz  NOT NULL
      )`);
    await q.query(`CREATE INDEX rate_limit_counters_reset_idx ON rate_limit_counters (reset_at)`);

    await q.query(`
      CREATE TABLE wallets (
        id            serial PRIMARY KEY,
        user_id       integer UNIQUE REFERENCES users(id) ON DELETE SET NULL,
        kind          varchar(16) NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'platform', 'external')),
        currency      char(3)     NOT NULL,
        balance_minor bigint      NOT NULL DEFAULT 0,
        closed_at     timestamptz,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        CHECK (kind = 'external' OR balance_minor >= 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX wallets_system_kind_uq ON wallets (kind) WHERE kind IN ('platform', 'external')`);

    // Double-entry ledger: every transfer's entries sum to zero; entries are never changed.
    await q.query(`
      CREATE TABLE wallet_ledger_entries (
        id           bigserial PRIMARY KEY,
        wallet_id    integer     NOT NULL REFERENCES wallets(id) ON DELETE RESTRICT,
        transfer_id  uuid        NOT NULL,
        amount_minor bigint      NOT NULL CHECK (amount_minor <> 0),
        kind         varchar(32) NOT NULL,
        ride_id      uuid,
        reason       varchar(300),
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX wallet_ledger_wallet_idx ON wallet_ledger_entries (wallet_id, id)`);
    await q.query(`CREATE INDEX wallet_ledger_transfer_idx ON wallet_ledger_entries (transfer_id)`);
    await q.query(`CREATE UNIQUE INDEX wallet_ledger_ride_once_uq ON wallet_ledger_entries (ride_id, kind) WHERE ride_id IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION wallet_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'wallet_ledger_entries are append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER wallet_ledger_no_update BEFORE UPDATE OR DELETE ON wallet_ledger_entries
      FOR EACH ROW EXECUTE FUNCTION wallet_ledger_immutable()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_ledger_entries`);
    await q.query(`DROP FUNCTION wallet_ledger_immutable`);
    await q.query(`DROP TABLE wallets`);
    await q.query(`DROP TABLE rate_limit_counters`);
    await q.query(`DROP TABLE users`);
  }
}
