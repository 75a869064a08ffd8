import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { RideTransitionsService } from '../transitions/ride-transitions.service';

const BATCH = 200;

/**
 * Expires requested rides nobody accepted within RIDE_REQUEST_TTL_MINUTES, in batches through
 * the `expire` sweep of RideTransitionsService (safe with several instances: see there).
 */
@Injectable()
export class RideExpiryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RideExpiryJob');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly transitions: RideTransitionsService,
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

  /** One batch of the `expire` sweep. */
  private expireBatch(): Promise<number> {
    return this.transitions.sweep('expire', BATCH);
  }
}
