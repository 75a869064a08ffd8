import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cards, holds, refunds, payouts and Stripe's webhook deliveries (CONTRACT §12).
 *
 * - card_payments: one PaymentIntent per row (a ride's fare hold, or its card tip), each attempt its
 *   own row so that its Idempotency-Key (`ride:{id}:hold`, `…:hold:2`) is never reused for other
 *   parameters. At most one live (held or captured) payment per ride and purpose: the partial
 *   unique index is what makes a second hold impossible, whatever the callers do.
 * - The ledger gains repeatable refund entries (a ride may be refunded in parts) and the platform
 *   account may go below zero: refunds are borne by the platform, whose commission may be 0.
 */
export class CreatePayments1763800017000 implements MigrationInterface {
  name = 'CreatePayments1763800017000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_customers (
        user_id            integer      PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        stripe_customer_id varchar(255) NOT NULL CONSTRAINT payment_customers_stripe_customer_id_key UNIQUE,
        default_card_id    varchar(255),
        created_at         timestamptz  NOT NULL DEFAULT now(),
        updated_at         timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE card_payments (
        id                       uuid         PRIMARY KEY,
        ride_id                  uuid         NOT NULL REFERENCES rides(id) ON DELETE RESTRICT,
        user_id                  integer      REFERENCES users(id) ON DELETE SET NULL,
        purpose                  varchar(8)   NOT NULL CONSTRAINT card_payments_purpose_check CHECK (purpose IN ('fare', 'tip')),
        attempt                  smallint     NOT NULL CONSTRAINT card_payments_attempt_check CHECK (attempt >= 1),
        status                   varchar(16)  NOT NULL
          CONSTRAINT card_payments_status_check CHECK (status IN ('held', 'captured', 'released', 'declined', 'failed')),
        stripe_payment_intent_id varchar(255) CONSTRAINT card_payments_stripe_payment_intent_id_key UNIQUE,
        card_id                  varchar(255) NOT NULL,
        amount_minor             bigint       NOT NULL CONSTRAINT card_payments_amount_minor_check CHECK (amount_minor > 0),
        captured_minor           bigint       NOT NULL DEFAULT 0,
        refunded_minor           bigint       NOT NULL DEFAULT 0,
        currency                 char(3)      NOT NULL,
        created_at               timestamptz  NOT NULL DEFAULT now(),
        updated_at               timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT card_payments_captured_check CHECK (captured_minor >= 0 AND captured_minor <= amount_minor),
        CONSTRAINT card_payments_refunded_check CHECK (refunded_minor >= 0 AND refunded_minor <= captured_minor)
      )`);
    await q.query(`CREATE UNIQUE INDEX card_payments_attempt_uq ON card_payments (ride_id, purpose, attempt)`);
    await q.query(`CREATE UNIQUE INDEX card_payments_one_live_uq ON card_payments (ride_id, purpose) WHERE status IN ('held', 'captured')`);
    await q.query(`CREATE INDEX card_payments_held_card_idx ON card_payments (card_id) WHERE status = 'held'`);

    await q.query(`
      CREATE TABLE payment_refunds (
        id           uuid         PRIMARY KEY,
        ride_id      uuid         NOT NULL REFERENCES rides(id) ON DELETE RESTRICT,
        amount_minor bigint       NOT NULL CONSTRAINT payment_refunds_amount_minor_check CHECK (amount_minor > 0),
        currency     char(3)      NOT NULL,
        source       varchar(16)  NOT NULL CONSTRAINT payment_refunds_source_check CHECK (source IN ('card', 'wallet', 'provider')),
        reason       varchar(500),
        created_at   timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payment_refunds_ride_idx ON payment_refunds (ride_id)`);
    // Each refund Stripe made, by its id: a charge.refunded event tells the ones made elsewhere.
    await q.query(`
      CREATE TABLE card_refunds (
        stripe_refund_id varchar(255) PRIMARY KEY,
        refund_id        uuid         NOT NULL REFERENCES payment_refunds(id) ON DELETE RESTRICT,
        card_payment_id  uuid         NOT NULL REFERENCES card_payments(id) ON DELETE RESTRICT,
        amount_minor     bigint       NOT NULL CONSTRAINT card_refunds_amount_minor_check CHECK (amount_minor > 0),
        created_at       timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX card_refunds_refund_idx ON card_refunds (refund_id)`);

    await q.query(`
      CREATE TABLE payout_accounts (
        driver_id         integer      PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        stripe_account_id varchar(255) NOT NULL CONSTRAINT payout_accounts_stripe_account_id_key UNIQUE,
        payouts_enabled   boolean      NOT NULL DEFAULT false,
        created_at        timestamptz  NOT NULL DEFAULT now(),
        updated_at        timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE payouts (
        id                 uuid         PRIMARY KEY,
        driver_id          integer      REFERENCES users(id) ON DELETE SET NULL,
        amount_minor       bigint       NOT NULL CONSTRAINT payouts_amount_minor_check CHECK (amount_minor > 0),
        currency           char(3)      NOT NULL,
        status             varchar(16)  NOT NULL DEFAULT 'paid' CONSTRAINT payouts_status_check CHECK (status IN ('paid')),
        stripe_transfer_id varchar(255) NOT NULL CONSTRAINT payouts_stripe_transfer_id_key UNIQUE,
        request_key        varchar(200),
        created_at         timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payouts_driver_created_idx ON payouts (driver_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX payouts_request_key_uq ON payouts (driver_id, request_key) WHERE request_key IS NOT NULL`);

    await q.query(`
      CREATE TABLE stripe_webhook_events (
        id          varchar(255) PRIMARY KEY,
        type        varchar(100) NOT NULL,
        received_at timestamptz  NOT NULL DEFAULT now()
      )`);

    await q.query(`DROP INDEX wallet_ledger_ride_once_uq`);
    await q.query(`CREATE UNIQUE INDEX wallet_ledger_ride_once_uq ON wallet_ledger_entries (ride_id, kind) WHERE ride_id IS NOT NULL AND kind <> 'refund'`);
    await q.query(`ALTER TABLE wallets DROP CONSTRAINT wallets_check`);
    await q.query(`ALTER TABLE wallets ADD CONSTRAINT wallets_check CHECK (kind IN ('external', 'platform') OR balance_minor >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE wallets DROP CONSTRAINT wallets_check`);
    await q.query(`ALTER TABLE wallets ADD CONSTRAINT wallets_check CHECK (kind = 'external' OR balance_minor >= 0)`);
    await q.query(`DROP INDEX wallet_ledger_ride_once_uq`);
    await q.query(`CREATE UNIQUE INDEX wallet_ledger_ride_once_uq ON wallet_ledger_entries (ride_id, kind) WHERE ride_id IS NOT NULL`);
    for (const table of ['stripe_webhook_events', 'payouts', 'payout_accounts', 'card_refunds', 'payment_refunds', 'card_payments', 'payment_customers']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
