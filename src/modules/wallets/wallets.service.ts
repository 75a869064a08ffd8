import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { WalletError } from './wallets.errors';
import { LedgerReport, NewLedgerEntry, WalletRow, WalletsRepository } from './wallets.repository';

export interface RidePaymentInput {
  rideId: string;
  passengerId: number;
  driverId: number;
  fareMinor: number;
  commissionMinor: number;
}

/**
 * Wallets and their double-entry ledger. Every movement is a transfer whose entries sum to zero,
 * written with the balance changes in one transaction, so a balance always equals its entries.
 */
@Injectable()
export class WalletsService {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly config: AppConfig,
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
    await this.wallets.recordTransfer(randomUUID(), entries.filter((e) => e.amountMinor !== 0), manager);
  }

  /**
   * A tip inside the caller's transaction: wallet to wallet, no commission, whatever the ride's
   * payment method. The ledger's unique (ride_id, kind) refuses a second tip of the same ride.
   */
  async payTip(manager: EntityManager, input: { rideId: string; passengerId: number; driverId: number; amountMinor: number }): Promise<void> {
    const { rideId, passengerId, driverId, amountMinor } = input;
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new WalletError('INVALID_AMOUNT');
    const locked = await this.wallets.lockByUserIds([passengerId, driverId], manager);
    const passenger = locked.find((w) => w.userId === passengerId);
    const driver = locked.find((w) => w.userId === driverId);
    if (!passenger || !driver) throw new WalletError('WALLET_NOT_FOUND');
    if (passenger.balanceMinor < amountMinor) throw new WalletError('INSUFFICIENT_FUNDS', 'Wallet balance does not cover the tip');
    await this.wallets.recordTransfer(
      randomUUID(),
      [
        { walletId: passenger.id, amountMinor: -amountMinor, kind: 'ride_tip', rideId },
        { walletId: driver.id, amountMinor, kind: 'tip_earning', rideId },
      ],
      manager,
    );
  }

  /** Every balance against its ledger entries and every transfer against zero (operator check). */
  checkLedger(): Promise<LedgerReport> {
    return this.wallets.findLedgerMismatches();
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
