import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AuditedBy, AuditService } from '../audit/audit.service';
import type { LedgerEntryKind } from './entities/ledger-entry.entity';
import { WalletError } from './wallets.errors';
import { TipTransferPart, TipTransferRow, tipTransferRefusal, tipTransferSql } from './tip-transfer.repository';
import { LedgerReport, NewLedgerEntry, walletCoversSql, WalletRow, WalletsRepository } from './wallets.repository';
export type { TipTransferPart, TipTransferRow };

export interface RidePaymentInput {
  rideId: string;
  passengerId: number;
  driverId: number;
  fareMinor: number;
  commissionMinor: number;
}

export interface CardPaymentBooking {
  /** The ledger transfer's id (the card payment's). */
  transferId: string;
  rideId: string;
  driverId: number;
  amountMinor: number;
  /** Kept by the platform out of a fare; 0 for fees and tips. */
  commissionMinor: number;
  purpose: 'fare' | 'fee' | 'tip';
}

const CARD_KINDS: Record<CardPaymentBooking['purpose'], [LedgerEntryKind, LedgerEntryKind]> = {
  fare: ['card_fare', 'ride_earning'],
  fee: ['cancellation_fee', 'fee_earning'],
  tip: ['card_tip', 'tip_earning'],
};

/**
 * Wallets and their double-entry ledger. Every movement is a transfer whose entries sum to zero,
 * written with the balance changes in one transaction, so a balance always equals its entries.
 */
@Injectable()
export class WalletsService {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  /** Creates the user's wallet if missing (registration). */
  async ensureWallet(userId: number, manager?: EntityManager): Promise<void> {
    await this.wallets.insertForUser(userId, this.config.currency, manager);
  }

  async getWallet(userId: number, manager?: EntityManager): Promise<WalletRow> {
    const wallet = await this.wallets.findByUserId(userId, manager);
    if (!wallet) throw new WalletError('WALLET_NOT_FOUND');
    return wallet;
  }

  /** Whether the user's wallet covers the amount now (no lock: a hint, enforced again at payment). */
  async covers(userId: number, amountMinor: number, manager?: EntityManager): Promise<boolean> {
    const wallet = await this.wallets.findByUserId(userId, manager);
    return wallet !== undefined && wallet.balanceMinor >= amountMinor;
  }

  /** covers' rule as SQL (expressions of the caller's statement): accepting a bid judges it in its one statement. */
  coversSql(userIdExpr: string, amountExpr: string): string {
    return walletCoversSql(userIdExpr, amountExpr);
  }

  /**
   * Pays a completed wallet ride inside the caller's transaction: the passenger pays the fare, the
   * driver receives it less the commission, the platform keeps the commission. The ledger's unique
   * (ride_id, kind) makes a second payment of the same ride fail instead of paying twice.
   */
  async payRide(manager: EntityManager, input: RidePaymentInput): Promise<void> {
    const { rideId, passengerId, driverId, fareMinor, commissionMinor } = input;
    const locked = await this.wallets.lockByUserIds([passengerId, driverId], manager);
    const passenger = locked.find((w) => w.userId === passengerId);
    const driver = locked.find((w) => w.userId === driverId);
    if (!passenger || !driver) throw new WalletError('WALLET_NOT_FOUND');
    if (passenger.balanceMinor < fareMinor) throw new WalletError('INSUFFICIENT_FUNDS');
    const entries: NewLedgerEntry[] = [
      { walletId: passenger.id, amountMinor: -fareMinor, kind: 'ride_fare', rideId },
      { walletId: driver.id, amountMinor: fareMinor - commissionMinor, kind: 'ride_earning', rideId },
    ];
    if (commissionMinor > 0) {
      const platform = await this.wallets.findOrCreateSystemWallet('platform', this.config.currency, manager);
      entries.push({ walletId: platform, amountMinor: commissionMinor, kind: 'ride_commission', rideId });
    }
    await this.wallets.recordTransfer(
      randomUUID(),
      entries.filter((e) => e.amountMinor !== 0),
      manager,
    );
  }

  /**
   * A tip wallet to wallet, no commission, whatever the ride's payment method: CTEs for the tip
   * command's one statement (tip-transfer.repository.ts), the ledger's unique (ride_id, kind)
   * refusing a second tip of the same ride.
   */
  tipTransferSql(part: TipTransferPart, param: (value: unknown) => string): string {
    return tipTransferSql(part, param);
  }

  /** The refusal of a tip transfer that was due (its `when` held) and not written (WALLET_NOT_FOUND, INSUFFICIENT_FUNDS). */
  tipTransferRefusal(row: TipTransferRow): WalletError | undefined {
    return tipTransferRefusal(row);
  }

  /**
   * Card money that reached the platform (a captured fare, a fee taken from a hold, a card tip),
   * booked inside the caller's transaction: it enters from the external account and reaches the
   * driver's wallet, less the commission on a fare, as a wallet payment does. The ledger's unique
   * (ride_id, kind) refuses a second booking of the same capture.
   */
  async recordCardPayment(manager: EntityManager, input: CardPaymentBooking): Promise<void> {
    const { transferId, rideId, driverId, amountMinor, commissionMinor, purpose } = input;
    const [driver] = await this.wallets.lockByUserIds([driverId], manager);
    if (!driver) throw new WalletError('WALLET_NOT_FOUND');
    const external = await this.wallets.findOrCreateSystemWallet('external', this.config.currency, manager);
    const [incoming, earning] = CARD_KINDS[purpose];
    const entries: NewLedgerEntry[] = [
      { walletId: external, amountMinor: -amountMinor, kind: incoming, rideId },
      { walletId: driver.id, amountMinor: amountMinor - commissionMinor, kind: earning, rideId },
    ];
    if (commissionMinor > 0) {
      const platform = await this.wallets.findOrCreateSystemWallet('platform', this.config.currency, manager);
      entries.push({ walletId: platform, amountMinor: commissionMinor, kind: 'ride_commission', rideId });
    }
    await this.wallets.recordTransfer(
      transferId,
      entries.filter((e) => e.amountMinor !== 0),
      manager,
    );
  }

  /**
   * A cancellation fee from the passenger's wallet to the driver's (no commission), as far as the
   * balance goes (CONTRACT §12), inside the caller's transaction. Answers what was paid (0: nothing).
   */
  async payCancellationFee(manager: EntityManager, input: { rideId: string; passengerId: number; driverId: number; feeMinor: number }): Promise<number> {
    const locked = await this.wallets.lockByUserIds([input.passengerId, input.driverId], manager);
    const passenger = locked.find((w) => w.userId === input.passengerId);
    const driver = locked.find((w) => w.userId === input.driverId);
    if (!passenger || !driver) throw new WalletError('WALLET_NOT_FOUND');
    const paid = Math.min(input.feeMinor, Math.max(0, passenger.balanceMinor));
    if (paid <= 0) return 0;
    await this.wallets.recordTransfer(
      randomUUID(),
      [
        { walletId: passenger.id, amountMinor: -paid, kind: 'cancellation_fee', rideId: input.rideId },
        { walletId: driver.id, amountMinor: paid, kind: 'fee_earning', rideId: input.rideId },
      ],
      manager,
    );
    return paid;
  }

  /** What the passenger paid for a ride from the wallet (fare, fee, tip), in minor units. */
  paidFromWalletForRide(rideId: string, manager?: EntityManager): Promise<number> {
    return this.wallets.sumUserDebitsForRide(rideId, ['ride_fare', 'cancellation_fee', 'ride_tip'], manager);
  }

  /**
   * A refund, borne by the platform (the driver's earnings stand), inside the caller's transaction:
   * back to the passenger's wallet, or out through the card (to the external account).
   */
  async recordRefund(
    manager: EntityManager,
    input: { refundId: string; rideId: string; amountMinor: number; toUserId: number | null; reason: string | null },
  ): Promise<void> {
    const platform = await this.wallets.findOrCreateSystemWallet('platform', this.config.currency, manager);
    let to: number;
    if (input.toUserId === null) to = await this.wallets.findOrCreateSystemWallet('external', this.config.currency, manager);
    else {
      const [wallet] = await this.wallets.lockByUserIds([input.toUserId], manager);
      if (!wallet) throw new WalletError('WALLET_NOT_FOUND');
      to = wallet.id;
    }
    const common = { kind: 'refund' as const, rideId: input.rideId, reason: input.reason };
    await this.wallets.recordTransfer(
      input.refundId,
      [
        { walletId: platform, amountMinor: -input.amountMinor, ...common },
        { walletId: to, amountMinor: input.amountMinor, ...common },
      ],
      manager,
    );
  }

  /** The user's wallet, locked for the rest of the caller's transaction (a payout checks and debits it). */
  async lockWallet(userId: number, manager: EntityManager): Promise<WalletRow> {
    const [wallet] = await this.wallets.lockByUserIds([userId], manager);
    if (!wallet) throw new WalletError('WALLET_NOT_FOUND');
    return wallet;
  }

  /** A payout leaves the driver's wallet for the external account (the transfer is `transferId`), inside the caller's transaction. */
  async recordPayout(manager: EntityManager, input: { transferId: string; driverId: number; amountMinor: number }): Promise<void> {
    const wallet = await this.lockWallet(input.driverId, manager);
    if (wallet.balanceMinor < input.amountMinor) throw new WalletError('INSUFFICIENT_FUNDS', 'Wallet balance does not cover the payout');
    const external = await this.wallets.findOrCreateSystemWallet('external', this.config.currency, manager);
    await this.wallets.recordTransfer(
      input.transferId,
      [
        { walletId: wallet.id, amountMinor: -input.amountMinor, kind: 'payout' },
        { walletId: external, amountMinor: input.amountMinor, kind: 'payout' },
      ],
      manager,
    );
  }

  /** Every balance against its ledger entries and every transfer against zero (operator check). */
  checkLedger(): Promise<LedgerReport> {
    return this.wallets.findLedgerMismatches();
  }

  /**
   * POST /admin/wallets/{user_id}/adjust (CONTRACT §13): a signed amount moves between the user's
   * wallet and the platform's ledger account, with the audit entry in the same transaction. A
   * debit that would take the wallet below zero is refused (409) and changes nothing.
   */
  async adjust(userId: number, amountMinor: number, by: AuditedBy): Promise<{ wallet: WalletRow; transferId: string }> {
    if (!Number.isSafeInteger(amountMinor) || amountMinor === 0) throw new WalletError('INVALID_AMOUNT', 'amount must not be zero');
    return this.wallets.runInTransaction(async (manager) => {
      const [wallet] = await this.wallets.lockByUserIds([userId], manager);
      if (!wallet) throw new WalletError('WALLET_NOT_FOUND');
      if (wallet.balanceMinor + amountMinor < 0) throw new WalletError('INSUFFICIENT_FUNDS', 'Adjustment would take the wallet below zero');
      const platform = await this.wallets.findOrCreateSystemWallet('platform', this.config.currency, manager);
      const transferId = randomUUID();
      // The ledger keeps the reason's first 300 characters; the audit entry keeps all of it.
      const reason = [...by.reason.trim()].slice(0, 300).join('');
      await this.wallets.recordTransfer(
        transferId,
        [
          { walletId: wallet.id, amountMinor, kind: 'adjustment', reason },
          { walletId: platform, amountMinor: -amountMinor, kind: 'adjustment', reason },
        ],
        manager,
      );
      const after = (await this.wallets.findByUserId(userId, manager))!;
      await this.audit.record(
        {
          ...by,
          action: 'wallets.adjust',
          targetType: 'wallet',
          targetId: userId,
          details: { amount_minor: amountMinor, balance_before_minor: wallet.balanceMinor, balance_after_minor: after.balanceMinor, transfer_id: transferId },
        },
        manager,
      );
      return { wallet: after, transferId };
    });
  }

  /** Operator top-up: money enters from the external funding account, with a reason on both entries. */
  async creditFromExternal(userId: number, amountMinor: number, reason: string): Promise<WalletRow> {
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new WalletError('INVALID_AMOUNT');
    return this.wallets.runInTransaction(async (manager) => {
      const [wallet] = await this.wallets.lockByUserIds([userId], manager);
      if (!wallet) throw new WalletError('WALLET_NOT_FOUND');
      const external = await this.wallets.findOrCreateSystemWallet('external', this.config.currency, manager);
      await this.wallets.recordTransfer(
        randomUUID(),
        [
          { walletId: wallet.id, amountMinor, kind: 'funding', reason },
          { walletId: external, amountMinor: -amountMinor, kind: 'funding', reason },
        ],
        manager,
      );
      return (await this.wallets.findByUserId(userId, manager))!;
    });
  }
}
