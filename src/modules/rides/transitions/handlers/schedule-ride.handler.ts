import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { RideError } from '../../rides.errors';
import type { CommandOutcome, CreateContext, RideCreateHandler } from '../ride-command';
import { RIDE_TRANSITIONS } from '../ride-transitions';
import { RideWritesRepository } from '../ride-writes.repository';
import { insertWithCode } from './book-ride.handler';

/**
 * `schedule`: a ride booked for later, at most SCHEDULED_RIDES_PER_PASSENGER per passenger (counted
 * under a lock on the passenger's bookings for later). Its request's time to live counts from
 * dispatch; until then expires_at is when it would end if nobody accepted it on time.
 */
@Injectable()
export class ScheduleRideHandler implements RideCreateHandler<'schedule'> {
  // The count holds its advisory lock until the commit.
  readonly transactional = true;

  constructor(
    private readonly writes: RideWritesRepository,
    private readonly config: AppConfig,
  ) {}

  async create(ctx: CreateContext<'schedule'>): Promise<CommandOutcome<'schedule'>> {
    const passengerId = ctx.actor.id;
    const { currency, rideRequestTtlMinutes: ttlMinutes, dispatchLeadMinutes, scheduledRidesPerPassenger } = this.config;
    if ((await this.writes.lockScheduledCountOf(passengerId, ctx.tx)) >= scheduledRidesPerPassenger) {
      throw new RideError(RIDE_TRANSITIONS.schedule.refusal);
    }
    const pickupAt = new Date(ctx.command.pickupAt);
    const dispatchAt = new Date(pickupAt.getTime() - dispatchLeadMinutes * 60_000);
    const ride = await insertWithCode(
      ctx,
      { ...ctx.command.ride, passengerId, id: ctx.rideId, currency, ttlMinutes, pickupAt: pickupAt.toISOString(), dispatchAt: dispatchAt.toISOString() },
      false,
    );
    // Only a code collision eight times over refuses an insert here: too unlikely to deserve its own answer.
    if (!ride) throw new RideError(RIDE_TRANSITIONS.schedule.refusal);
    return { result: ride, event: { name: 'ride.scheduled', payload: { ride_id: ride.id, passenger_id: passengerId, ride } } };
  }
}
