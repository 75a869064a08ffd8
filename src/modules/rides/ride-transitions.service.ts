import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { DomainEventMap } from '../../common/events/domain-events';
import { EventBus } from '../../common/events/event-bus';
import { percentOf } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { WalletsService } from '../wallets/wallets.service';
import { WalletError } from '../wallets/wallets.errors';
import { BidsRepository } from './bids/bids.repository';
import { BidError } from './bids/bids.errors';
import { BiddingDriversPort } from './ports/bidding-drivers.port';
import { RidesRepository } from './repositories/rides.repository';
import { LockedRide, NewRide, RideWritesRepository } from './repositories/ride-writes.repository';
import type { RideStatus } from './ride-status';
import { DriverStep, driverStepTo, mayAct, RIDE_TRANSITIONS, RideCommandType, RideParty, RideTransitionEvent, refusalOf } from './ride-transitions';
import { isUuid } from './rides.service';
import { RideError } from './rides.errors';
import { rideToJson } from './views/ride-view';
import type { RideView } from './views/ride-view';

/** A new ride as booking prices it; the transition adds its id, code, currency and time to live. */
export type RideRequest = Omit<NewRide, 'id' | 'rideCode' | 'passengerId' | 'currency' | 'ttlMinutes'>;

export type RideCommand =
  | { type: 'book'; ride: RideRequest }
  | { type: 'accept'; bidId: string }
  | { type: DriverStep }
  | { type: 'cancel'; reason: string | null };

/** Who acts: a user (their relation to the ride decides what they may do), or the platform. */
export type RideActor = { id: number } | 'system';

type PendingEvent = { [K in RideTransitionEvent]: { name: K; payload: DomainEventMap[K] } }[RideTransitionEvent];

/** A transaction in which rides change; its transitions' events are published once it commits. */
export interface RideTransaction {
  readonly manager: EntityManager;
  apply(rideId: string, command: RideCommand, actor: RideActor): Promise<RideView>;
}

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_ATTEMPTS = 8;

/** Six characters no one misreads (no 0/O, 1/I/L); unique among live rides (a partial unique index). */
export function newRideCode(): string {
  let code = '';
  for (let i = 0; i < 6; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * Where a ride changes: every status change goes through apply (or expireDue, its batch form for
 * the expiry job), checked against the one table in ride-transitions.ts. apply locks what the
 * command needs (the ride row; for accept then the bid rows, in id order, as BidsRepository
 * explains), writes the change and its ride_events row, and after commit publishes the one event
 * of the transition: this instance's caches and the gateway, and every other instance's, consume it.
 */
@Injectable()
export class RideTransitionsService {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly reads: RidesRepository,
    private readonly bids: BidsRepository,
    private readonly wallets: WalletsService,
    private readonly drivers: BiddingDriversPort,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** Applies one command in its own transaction; returns the ride as the API shows it. */
  apply(rideId: string, command: RideCommand, actor: RideActor): Promise<RideView> {
    return this.transaction((tx) => tx.apply(rideId, command, actor));
  }

  /** PUT /rides/{id}/status: the driver step that reaches `to`; a status no step reaches is refused like a wrong step. */
  advance(rideId: string, to: RideStatus, actor: RideActor): Promise<RideView> {
    const step = driverStepTo(to);
    if (step) return this.apply(rideId, { type: step }, actor);
    return this.transaction(async ({ manager }) => {
      const locked = isUuid(rideId) ? await this.writes.lockForUpdate(rideId, manager) : undefined;
      if (!locked || !mayAct('arrive', partyOf(locked, actor))) throw new RideError('RIDE_NOT_FOUND');
      throw new RideError('INVALID_STATUS_TRANSITION', `Cannot change a ride from ${locked.status} to ${to}`);
    });
  }

  /**
   * Runs `work` in one transaction (again on a deadlock or serialization failure, see
   * RideWritesRepository.runInTransaction); the events of the transitions it applied are published
   * after the commit, and only those of the attempt that committed.
   */
  async transaction<T>(work: (tx: RideTransaction) => Promise<T>): Promise<T> {
    let committed: PendingEvent[] = [];
    const result = await this.writes.runInTransaction((manager) => {
      const pending: PendingEvent[] = [];
      committed = pending;
      return work({ manager, apply: (rideId, command, actor) => this.applyIn(manager, pending, rideId, command, actor) });
    });
    this.afterCommit(committed);
    return result;
  }

  /**
   * The expiry job's batch: requested rides whose time is up, locked with SKIP LOCKED (two sweepers
   * never take the same ride, nor wait for each other), expired in one statement; returns how many.
   */
  async expireDue(limit: number): Promise<number> {
    const rule = RIDE_TRANSITIONS.expire;
    const pending: PendingEvent[] = [];
    const ids = await this.writes.runInTransaction(async (manager) => {
      pending.length = 0;
      // The lock query selects exactly the rides the table lets the platform expire: requested and due.
      const ids = (await this.writes.lockExpiredRequested(limit, manager)).map((r) => r.id);
      if (ids.length === 0 || refusalOf('expire', 'system', { status: 'requested', pastExpiry: true }) !== null) return [];
      await this.writes.markExpired(ids, manager);
      const bidders = await this.bids.withdrawPendingForRides(ids, manager);
      await this.writes.recordEvents(
        ids.map((rideId) => ({ rideId, from: 'requested' as const, to: rule.to, actorUserId: null, actorRole: 'system' as const })),
        manager,
      );
      for (const row of await this.reads.findViews(ids, manager)) {
        pending.push({
          name: rule.event,
          payload: { ride_id: row.id, passenger_id: row.passenger_id, bidder_driver_ids: bidders.get(row.id) ?? [], ride: rideToJson(row) },
        });
      }
      return ids;
    });
    this.afterCommit(pending);
    return ids.length;
  }

  /** The one after-commit hook: each event reaches this instance's caches at once, then every instance. */
  private afterCommit(events: PendingEvent[]): void {
    for (const event of events) this.publish(event);
  }

  private publish<K extends RideTransitionEvent>(event: { name: K; payload: DomainEventMap[K] }): void {
    this.events.publish(event.name, event.payload);
  }

  private async applyIn(
    manager: EntityManager,
    pending: PendingEvent[],
    rideId: string,
    command: RideCommand,
    actor: RideActor,
  ): Promise<RideView> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    if (command.type === 'book') return this.book(manager, pending, rideId, command, actor);
    if (command.type === 'accept' && !isUuid(command.bidId)) throw new BidError('BID_NOT_FOUND');

    const locked = await this.writes.lockForUpdate(rideId, manager);
    const party = locked ? partyOf(locked, actor) : undefined;
    // To anyone the table does not let act, the ride does not exist.
    if (!locked || !mayAct(command.type, party)) throw new RideError('RIDE_NOT_FOUND');
    if (command.type === 'accept') return this.accept(manager, pending, locked, command.bidId, actor);
    this.check(command.type, party, locked);

    const rule = RIDE_TRANSITIONS[command.type];
    if (command.type === 'cancel') {
      // The table lets only the passenger and the assigned driver cancel.
      const by = party === 'driver' ? 'driver' : 'passenger';
      await this.writes.setStatus(rideId, rule.to, manager, { by, reason: command.reason });
      const bidders = await this.bids.withdrawPendingForRides([rideId], manager);
      await this.record(manager, locked, rule.to, actor, party, command.reason);
      const ride = await this.view(rideId, manager);
      pending.push({
        name: 'ride.cancelled',
        payload: {
          ride_id: rideId,
          passenger_id: locked.passenger_id,
          driver_id: locked.driver_id,
          bidder_driver_ids: bidders.get(rideId) ?? [],
          cancelled_by: by,
          ride,
        },
      });
      return ride;
    }

    await this.writes.setStatus(rideId, rule.to, manager);
    await this.record(manager, locked, rule.to, actor, party);
    if (rule.to === 'completed') await this.pay(locked, manager);
    const ride = await this.view(rideId, manager);
    pending.push({
      name: 'ride.status_changed',
      payload: {
        ride_id: rideId,
        passenger_id: ride.passenger?.id ?? null,
        driver_id: locked.driver_id,
        status: rule.to,
        ride,
      },
    });
    return ride;
  }

  /** Throws the table's refusal when it does not allow the command from the ride's status. */
  private check(type: RideCommandType, party: RideParty, locked: LockedRide): void {
    const refusal = refusalOf(type, party, { status: locked.status, pastExpiry: locked.is_past_expiry });
    if (refusal === null) return;
    if (refusal === 'INVALID_STATUS_TRANSITION') {
      throw new RideError(refusal, `Cannot change a ride from ${locked.status} to ${RIDE_TRANSITIONS[type].to}`);
    }
    throw new RideError(refusal);
  }

  /** Retries on a ride-code collision; a refusal with no collision means the passenger already has a live ride. */
  private async book(
    manager: EntityManager,
    pending: PendingEvent[],
    rideId: string,
    command: Extract<RideCommand, { type: 'book' }>,
    actor: RideActor,
  ): Promise<RideView> {
    const rule = RIDE_TRANSITIONS.book;
    if (actor === 'system') throw new RideError('RIDE_NOT_FOUND');
    const request = { ...command.ride, passengerId: actor.id };
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      if (await this.reads.passengerHasLiveRide(actor.id, manager)) throw new RideError(rule.refusal);
      const inserted = await this.writes.insertRequested(
        { ...request, id: rideId, rideCode: newRideCode(), currency: this.config.currency, ttlMinutes: this.config.rideRequestTtlMinutes },
        manager,
      );
      if (!inserted) continue;
      await this.writes.recordEvents([{ rideId, from: null, to: rule.to, actorUserId: actor.id, actorRole: 'passenger' }], manager);
      const ride = await this.view(rideId, manager);
      const { latitude, longitude } = request.pickup;
      pending.push({
        name: rule.event,
        payload: { ride_id: rideId, passenger_id: actor.id, vehicle_category_id: request.vehicleCategoryId, pickup: { latitude, longitude }, ride },
      });
      return ride;
    }
    throw new RideError(rule.refusal);
  }

  /**
   * Exactly-once acceptance: the ride row is locked (by applyIn), then the bid rows the acceptance
   * settles; the ride must still be open, the bid pending, the driver approved and free (also
   * enforced by rides_driver_live_uq) and, for wallet rides, the balance must cover the amount.
   */
  private async accept(
    manager: EntityManager,
    pending: PendingEvent[],
    ride: LockedRide,
    bidId: string,
    actor: RideActor,
  ): Promise<RideView> {
    const passengerId = ride.passenger_id!;
    const seen = await this.bids.findOnRide(bidId, ride.id, manager);
    if (!seen) throw new BidError('BID_NOT_FOUND');
    this.check('accept', 'passenger', ride);
    // Lock order: the ride, then the bid rows (in id order). The driver's row is read, not locked:
    // heartbeat flushes update it, and the partial unique index rides_driver_live_uq is what
    // guarantees that a driver never holds two live rides.
    const locked = await this.bids.lockPendingForAcceptance(ride.id, seen.driver_id, manager);
    const bid = locked.find((b) => b.id === bidId);
    if (!bid) throw new BidError('BID_NOT_PENDING');
    const driver = await this.drivers.findDriver(bid.driver_id, manager);
    if (!driver || driver.status !== 'approved') throw new BidError('DRIVER_BUSY', 'Driver is no longer available');
    if ((await this.reads.findAssignedRefOfDriver(bid.driver_id, manager)) !== undefined) throw new BidError('DRIVER_BUSY');
    if (ride.payment_method === 'wallet' && !(await this.wallets.covers(passengerId, bid.amount_minor, manager))) {
      throw new WalletError('INSUFFICIENT_FUNDS');
    }
    if (!(await this.writes.assignDriver(ride.id, bid.driver_id, bid.id, bid.amount_minor, manager))) {
      throw new BidError('DRIVER_BUSY');
    }
    const rejected = await this.bids.settleAcceptance(ride.id, bid, locked, manager);
    await this.record(manager, ride, RIDE_TRANSITIONS.accept.to, actor, 'passenger');
    const view = await this.view(ride.id, manager);
    pending.push({
      name: RIDE_TRANSITIONS.accept.event,
      payload: { ride_id: ride.id, passenger_id: passengerId, driver_id: bid.driver_id, rejected_driver_ids: rejected, ride: view },
    });
    return view;
  }

  private record(manager: EntityManager, ride: LockedRide, to: RideStatus, actor: RideActor, party: RideParty, reason?: string | null) {
    return this.writes.recordEvents(
      [{ rideId: ride.id, from: ride.status, to, actorUserId: actor === 'system' ? null : actor.id, actorRole: party, reason }],
      manager,
    );
  }

  private async view(rideId: string, manager: EntityManager): Promise<RideView> {
    const row = await this.reads.findView(rideId, manager);
    if (!row) throw new RideError('RIDE_NOT_FOUND');
    return rideToJson(row);
  }

  /** Exactly once per ride: the ride row is locked and ride_payments' primary key refuses a second row. */
  private async pay(ride: LockedRide, manager: EntityManager): Promise<void> {
    const fareMinor = ride.fare_minor ?? 0;
    const commissionMinor = percentOf(fareMinor, this.config.platformCommissionPercent);
    const inserted = await this.writes.insertPayment(
      { rideId: ride.id, driverId: ride.driver_id!, method: ride.payment_method, fareMinor, commissionMinor, currency: ride.currency.trim() },
      manager,
    );
    if (!inserted) throw new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid');
    if (ride.payment_method === 'wallet' && ride.passenger_id !== null && fareMinor > 0) {
      await this.wallets.payRide(manager, {
        rideId: ride.id,
        passengerId: ride.passenger_id,
        driverId: ride.driver_id!,
        fareMinor,
        commissionMinor,
      });
    }
  }
}

/** The actor's relation to the ride; undefined for a user who is neither its passenger nor its driver. */
export function partyOf(ride: Pick<LockedRide, 'passenger_id' | 'driver_id'>, actor: RideActor): RideParty | undefined {
  if (actor === 'system') return 'system';
  if (ride.passenger_id === actor.id) return 'passenger';
  if (ride.driver_id === actor.id) return 'driver';
  return undefined;
}
