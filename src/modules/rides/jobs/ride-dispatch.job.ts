import { Injectable } from '@nestjs/common';
import type { DomainEventMap } from '../../../common/events/domain-events';
import { OnDomainEvent } from '../../../common/events/on-domain-event';
import { AppConfig } from '../../../config/app-config';
import { RidesRepository } from '../read-models/rides.repository';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { RideSweepJob } from './ride-sweep.job';

/**
 * Margin after a dispatch time before the wake-up sweeps: the database's clock decides what is due,
 * and a wake-up a hair early would find nothing and wake again at once.
 */
const WAKE_SLACK_MS = 200;

/**
 * The dispatcher: makes rides booked for later `requested` DISPATCH_LEAD_MINUTES before their
 * pickup_at (the `dispatch` sweep), whatever other ride their passenger has under way. Besides the
 * sweep every RIDE_DISPATCH_SWEEP_SECONDS it wakes up at the next dispatch time it knows of (the
 * earliest scheduled ride after each sweep, and every ride.scheduled from any instance), so a ride
 * is dispatched on time, not up to a sweep interval late. Instances woken together race harmlessly:
 * the sweep's SKIP LOCKED gives each ride to one of them.
 */
@Injectable()
export class RideDispatchJob extends RideSweepJob {
  private wake: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(
    transitions: RideTransitionsService,
    private readonly rides: RidesRepository,
    private readonly config: AppConfig,
  ) {
    super(transitions, 'dispatch', config.rideDispatchSweepSeconds);
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    void this.afterSweep().catch(() => undefined);
  }

  override async beforeApplicationShutdown(): Promise<void> {
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = undefined;
    await super.beforeApplicationShutdown();
  }

  protected override async afterSweep(): Promise<void> {
    const next = await this.rides.nextDispatchAt();
    if (next) this.wakeAt(next.getTime());
  }

  @OnDomainEvent('ride.scheduled')
  private scheduled(e: DomainEventMap['ride.scheduled']): void {
    if (e.ride.pickup_at) this.wakeAt(Date.parse(e.ride.pickup_at) - this.config.dispatchLeadMinutes * 60_000);
  }

  /** Sweeps at `at` if that comes before the wake-up already set and the next timed sweep. */
  private wakeAt(at: number): void {
    const delay = Math.max(0, at - Date.now()) + WAKE_SLACK_MS;
    if (this.stopped || delay > this.everySeconds * 1000 || (this.wake && this.wake.at <= at)) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(() => {
      this.wake = undefined;
      void this.tick();
    }, delay);
    timer.unref();
    this.wake = { at, timer };
  }
}
