import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { SweepCommandType } from '../transitions/ride-transitions';
import type { RideTransitionsService } from '../transitions/ride-transitions.service';

const BATCH = 200;

/**
 * Runs one of the platform's sweeps (a `due` command of the transition table) on a timer, in
 * batches through RideTransitionsService.sweep, which locks due rides with SKIP LOCKED: safe with
 * several instances, each due ride is taken by exactly one of them.
 */
export abstract class RideSweepJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  protected stopped = false;

  protected constructor(
    private readonly transitions: RideTransitionsService,
    private readonly command: SweepCommandType,
    protected readonly everySeconds: number,
  ) {
    this.logger = new Logger(`RideSweep:${command}`);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.everySeconds * 1000);
    this.timer.unref();
  }

  /** Before the database pool closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Applies the command to every due ride now (also used by tests); returns how many it took. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await this.transitions.sweep(this.command, BATCH);
      total += taken;
      if (taken < BATCH || this.stopped) return total;
    }
  }

  /** One timed sweep (skipped while one runs), then afterSweep. */
  protected async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.sweep();
    try {
      await this.running;
    } catch (err) {
      this.logger.error({ err, msg: `Ride ${this.command} sweep failed` });
    } finally {
      this.running = undefined;
    }
    await this.afterSweep().catch((err: unknown) => this.logger.error({ err, msg: `After the ride ${this.command} sweep` }));
  }

  /** After each timed sweep (the dispatcher arms its wake-up for the next due ride). */
  protected async afterSweep(): Promise<void> {}
}
