import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import { RideBidsRepository } from './repositories/ride-bids.repository';
import { RidesRepository } from './repositories/rides.repository';
import { RideWritesRepository } from './repositories/ride-writes.repository';
import { rideToJson } from './views/ride-view';

const BATCH = 200;

/**
 * Expires requested rides nobody accepted within RIDE_REQUEST_TTL_MINUTES. Safe with several
 * instances: each batch locks its rows with FOR UPDATE SKIP LOCKED, so two sweepers never take the
 * same ride and never wait for each other.
 */
@Injectable()
export class RideExpiryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RideExpiryJob');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly writes: RideWritesRepository,
    private readonly reads: RidesRepository,
    private readonly rideBids: RideBidsRepository,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.rideExpirySweepSeconds * 1000);
    this.timer.unref();
  }

  /** Before the database pool closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Expires every due ride now (also used by tests); returns how many were expired. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.expireBatch();
      total += expired;
      if (expired < BATCH || this.stopped) return total;
    }
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.sweep();
    try {
      await this.running;
    } catch (err) {
      this.logger.error({ err, msg: 'Ride expiry sweep failed' });
    } finally {
      this.running = undefined;
    }
  }

  private async expireBatch(): Promise<number> {
    const done = await this.writes.runInTransaction(async (manager) => {
      const ids = (await this.writes.lockExpiredRequested(BATCH, manager)).map((r) => r.id);
      if (ids.length === 0) return { ids, bidders: new Map<string, number[]>() };
      await this.writes.markExpired(ids, manager);
      const bidders = await this.rideBids.withdrawPendingForRides(ids, manager);
      await this.writes.recordEvents(
        ids.map((rideId) => ({ rideId, from: 'requested' as const, to: 'expired' as const, actorUserId: null, actorRole: 'system' as const })),
        manager,
      );
      return { ids, bidders };
    });
    if (done.ids.length === 0) return 0;
    for (const row of await this.reads.findViews(done.ids)) {
      this.events.publish('ride.expired', {
        ride_id: row.id,
        passenger_id: row.passenger_id,
        bidder_driver_ids: done.bidders.get(row.id) ?? [],
        ride: rideToJson(row),
      });
    }
    return done.ids.length;
  }
}
