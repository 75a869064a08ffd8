import { Injectable } from '@nestjs/common';
import { AcceptBidHandler } from '../bids/accept-bid.handler';
import { SubmitBidHandler } from '../bids/submit-bid.handler';
import { RateRideHandler } from '../ratings/rate-ride.handler';
import { BookRideHandler } from './handlers/book-ride.handler';
import { CANCEL_HANDLER, CompleteRideHandler, EXPIRE_HANDLER, NO_STEP_HANDLER, stepHandler } from './handlers/ride-status.handlers';
import type { RideCommandHandler, RideCreateHandler, RideSweepHandler, UserCommandType } from './ride-command';
import type { CreateCommandType, SweepCommandType } from './ride-transitions';

/** A handler for every command of the table: a command added without one fails to compile. */
export type HandlerOf<K extends UserCommandType> = K extends CreateCommandType ? RideCreateHandler<K> : RideCommandHandler<K, unknown>;
type UserHandlers = { [K in UserCommandType]: HandlerOf<K> };
type SweepHandlers = { [K in SweepCommandType]: RideSweepHandler<K> };

/** Each command's own part, by command (RideTransitionsService does the rest, from the table). */
@Injectable()
export class RideCommandHandlers {
  private readonly user: UserHandlers;
  private readonly sweeps: SweepHandlers = { expire: EXPIRE_HANDLER };

  constructor(book: BookRideHandler, bid: SubmitBidHandler, accept: AcceptBidHandler, complete: CompleteRideHandler, rate: RateRideHandler) {
    this.user = { book, bid, accept, arrive: stepHandler(), start: stepHandler(), complete, no_step: NO_STEP_HANDLER, cancel: CANCEL_HANDLER, rate };
  }

  of<K extends UserCommandType>(type: K): HandlerOf<K> {
    return this.user[type];
  }

  sweep<K extends SweepCommandType>(type: K): RideSweepHandler<K> {
    return this.sweeps[type];
  }
}

/** The providers behind RideCommandHandlers (for the module). */
export const RIDE_COMMAND_HANDLER_PROVIDERS = [RideCommandHandlers, BookRideHandler, SubmitBidHandler, AcceptBidHandler, CompleteRideHandler, RateRideHandler];
