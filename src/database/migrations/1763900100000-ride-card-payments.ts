import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card rides (CONTRACT §12): `card` as a payment method of rides and of their completion payment,
 * and the ride's own record of its money: `payment_status` (null for cash and wallet rides),
 * `cancellation_fee_minor` (what a late cancel or a no-show actually took) and `refunded_minor`.
 * The provider's side (PaymentIntents, refunds) stays in the payments module's tables; these columns
 * are what the Ride object shows, written by the ride commands and the webhooks' ride port.
 */
export class RideCardPayments1763900100000 implements MigrationInterface {
  name = 'RideCardPayments1763900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_payment_method_check`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_payment_method_check CHECK (payment_method IN ('cash', 'wallet', 'card'))`);
    await q.query(`ALTER TABLE ride_payments DROP CONSTRAINT ride_payments_method_check`);
    await q.query(`ALTER TABLE ride_payments ADD CONSTRAINT ride_payments_method_check CHECK (method IN ('cash', 'wallet', 'card'))`);
    await q.query(`ALTER TABLE rides ADD COLUMN payment_status varchar(24)`);
    await q.query(
      `ALTER TABLE rides ADD CONSTRAINT rides_payment_status_check
         CHECK (payment_status IN ('pending', 'held', 'captured', 'released', 'failed', 'partially_refunded', 'refunded'))`,
    );
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_card_payment_status_check CHECK ((payment_method = 'card') = (payment_status IS NOT NULL))`);
    await q.query(`ALTER TABLE rides ADD COLUMN cancellation_fee_minor bigint`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_cancellation_fee_check CHECK (cancellation_fee_minor > 0)`);
    await q.query(`ALTER TABLE rides ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_refunded_check CHECK (refunded_minor >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM rides WHERE payment_method = 'card'`);
    await q.query(`ALTER TABLE rides DROP COLUMN refunded_minor, DROP COLUMN cancellation_fee_minor, DROP COLUMN payment_status`);
    await q.query(`ALTER TABLE ride_payments DROP CONSTRAINT ride_payments_method_check`);
    await q.query(`ALTER TABLE ride_payments ADD CONSTRAINT ride_payments_method_check CHECK (method IN ('cash', 'wallet'))`);
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_payment_method_check`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_payment_method_check CHECK (payment_method IN ('cash', 'wallet'))`);
  }
}
