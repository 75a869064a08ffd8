import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { RidesRepository } from '../../read-models/rides.repository';
import { RideError } from '../../rides.errors';
import type { CommandOutcome, CreateContext, RideCreateHandler } from '../ride-command';
import { RIDE_TRANSITIONS } from '../ride-transitions';

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_ATTEMPTS = 8;

/** Six characters no one misreads (no 0/O, 1/I/L); unique among live rides (a partial unique index). */
export function newRideCode(): string {
  let code = '';
  for (let i = 0; i < 6; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** `book`: inserts the ride, retrying on a ride-code collision; a refusal with no collision means the passenger already has a live ride. */
@Injectable()
export class BookRideHandler implements RideCreateHandler<'book'> {
  constructor(
    private readonly reads: RidesRepository,
    private readonly config: AppConfig,
  ) {}

  async create(ctx: CreateContext<'book'>): Promise<CommandOutcome<'book'>> {
    const { refusal } = RIDE_TRANSITIONS.book;
    const passengerId = ctx.actor.id;
    const request = { ...ctx.command.ride, passengerId };
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      if (await this.reads.passengerHasLiveRide(passengerId, ctx.tx)) throw new RideError(refusal);
      const { currency, rideRequestTtlMinutes: ttlMinutes } = this.config;
      if (!(await ctx.insert({ ...request, id: ctx.rideId, rideCode: newRideCode(), currency, ttlMinutes }))) continue;
      const ride = await ctx.view();
      const { latitude, longitude } = request.pickup;
      const payload = { ride_id: ctx.rideId, passenger_id: passengerId, vehicle_category_id: request.vehicleCategoryId, pickup: { latitude, longitude }, ride };
      return { result: ride, event: { name: 'ride.requested', payload } };
    }
    throw new RideError(refusal);
  }
}
