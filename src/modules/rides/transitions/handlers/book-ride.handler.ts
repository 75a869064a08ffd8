import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { CommandOutcome, CreateContext, RideCreateHandler } from '../ride-command';
import { RIDE_TRANSITIONS } from '../ride-transitions';
import type { NewRide } from '../ride-writes.repository';

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_ATTEMPTS = 8;

/** Six characters no one misreads (no 0/O, 1/I/L); unique among non-final rides (a partial unique index). */
export function newRideCode(): string {
  let code = '';
  for (let i = 0; i < 6; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * Inserts the ride under a fresh code, again on a code collision; undefined when refused: the
 * passenger has a live ride (`unlessLive`), or every attempt collided.
 */
export async function insertWithCode(
  ctx: Pick<CreateContext<'book'>, 'insert'>,
  ride: Omit<NewRide, 'rideCode'>,
  unlessLive: boolean,
): Promise<RideView | undefined> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const { live, view } = await ctx.insert({ ...ride, rideCode: newRideCode() }, unlessLive);
    if (live) return undefined;
    if (view) return view;
  }
  return undefined;
}

/** `book`: a ride now; refused while the passenger has a live ride (one booked for later does not count). */
@Injectable()
export class BookRideHandler implements RideCreateHandler<'book'> {
  constructor(private readonly config: AppConfig) {}

  async create(ctx: CreateContext<'book'>): Promise<CommandOutcome<'book'>> {
    const passengerId = ctx.actor.id;
    const request = { ...ctx.command.ride, passengerId };
    const { currency, rideRequestTtlMinutes: ttlMinutes } = this.config;
    const ride = await insertWithCode(ctx, { ...request, id: ctx.rideId, currency, ttlMinutes, pickupAt: null, dispatchAt: null }, true);
    if (!ride) throw new RideError(RIDE_TRANSITIONS.book.refusal);
    const { latitude, longitude } = request.pickup;
    const payload = { ride_id: ctx.rideId, passenger_id: passengerId, vehicle_category_id: request.vehicleCategoryId, pickup: { latitude, longitude }, ride };
    return { result: ride, event: { name: 'ride.requested', payload } };
  }
}
