import { randomUUID } from 'node:crypto';
import { WalletError } from './wallets.errors';

/** Where the tip transfer's part of a statement finds its values: SQL expressions over the statement's earlier parts. */
export interface TipTransferPart {
  /** Whether to pay at all (the ride's own rules held); the wallets are not even locked otherwise. */
  when: string;
  rideId: string;
  passengerId: string;
  driverId: string;
  amountMinor: number;
}

/** What the part's last CTE, `tip_transfer`, tells: both wallets found, the passenger's balance covering the tip, the transfer written. */
export interface TipTransferRow {
  tip_wallets_found: boolean;
  tip_covered: boolean;
  tip_paid: boolean;
}

/**
 * A tip wallet to wallet as CTEs of the caller's statement (the tip command's one statement), with
 * the rows and checks of every wallet transfer: both wallets locked in id order (as every transfer locks them, so two
 * transfers never deadlock), the balance judged on the locked rows, two ledger entries that sum to
 * zero under one transfer id and the matching balance changes, all or nothing. The ledger's unique
 * (ride_id, kind) still refuses a second tip of the ride. `param` adds a parameter; the CTEs are
 * named tip_*, the last `tip_transfer` (TipTransferRow).
 */
export function tipTransferSql(part: TipTransferPart, param: (value: unknown) => string): string {
  if (!Number.isSafeInteger(part.amountMinor) || part.amountMinor <= 0) throw new WalletError('INVALID_AMOUNT');
  const { when, passengerId: from, driverId: to, rideId } = part;
  const amount = `${param(part.amountMinor)}::bigint`;
  return `tip_wallets AS (
      SELECT w.id, w.user_id, w.balance_minor FROM wallets w WHERE (${when}) AND w.user_id IN (${from}, ${to}) ORDER BY w.id FOR UPDATE),
    tip_funds AS (
      SELECT count(*) = 2 AS found, coalesce(bool_or(w.user_id = ${from} AND w.balance_minor >= ${amount}), false) AS covered FROM tip_wallets w),
    tip_entries AS (
      INSERT INTO wallet_ledger_entries (wallet_id, transfer_id, amount_minor, kind, ride_id)
      SELECT w.id, ${param(randomUUID())}::uuid, CASE WHEN w.user_id = ${from} THEN -${amount} ELSE ${amount} END,
             CASE WHEN w.user_id = ${from} THEN 'ride_tip' ELSE 'tip_earning' END, ${rideId}
        FROM tip_wallets w, tip_funds f WHERE f.found AND f.covered
      RETURNING wallet_id, amount_minor),
    tip_balances AS (
      UPDATE wallets w SET balance_minor = w.balance_minor + e.amount_minor, updated_at = now() FROM tip_entries e WHERE w.id = e.wallet_id RETURNING w.id),
    tip_transfer AS (
      SELECT f.found AS tip_wallets_found, f.covered AS tip_covered, (SELECT count(*) FROM tip_balances) = 2 AS tip_paid FROM tip_funds f)`;
}

/** The refusal for a transfer `tip_transfer` did not write (no wallet, or a balance short of the tip); none when it did. */
export function tipTransferRefusal(row: TipTransferRow): WalletError | undefined {
  if (row.tip_paid) return undefined;
  if (!row.tip_wallets_found) return new WalletError('WALLET_NOT_FOUND');
  if (!row.tip_covered) return new WalletError('INSUFFICIENT_FUNDS', 'Wallet balance does not cover the tip');
  return undefined;
}
