import { Injectable } from '@nestjs/common';
import { AcceptBidHandler } from '../bids/accept-bid.handler';
import { SubmitBidHandler } from '../bids/submit-bid.handler';
import { RaiseOfferHandler } from '../offers/raise-offer.handler';
import { TipRideHandler } from '../tips/tip-ride.handler';
import { RateRideHandler } from '../ratings/rate-ride.handler';
import { BookRideHandler } from './handlers/book-ride.handler';
import { DispatchRideHandler } from './handlers/dispatch-ride.handler';
import { ScheduleRideHandler } from './handlers/schedule-ride.handler';
import { CancelRideHandler, NoShowHandler } from './handlers/cancel-ride.handler';
import { CancellationFee } from './handlers/cancellation-fee';
import { ARRIVE_HANDLER, CompleteRideHandler, EXPIRE_HANDLER, NO_STEP_HANDLER, StartRideHandler } from './handlers/ride-status.handlers';
import type { RideActHandler, RideCommandHandler, RideCreateHandler, RideStepHandler, RideSweepHandler, UserCommandType } from './ride-command';
import type { CreateCommandType, SweepCommandType } from './ride-transitions';

/** A handler for every command of the table: a command added without one fails to compile. */
export type HandlerOf<K extends UserCommandType> = K extends CreateCommandType
  ? RideCreateHandler<K>
  : RideCommandHandler<K, unknown> | RideStepHandler<K> | RideActHandler<K> | (RideActHandler<K> & RideCommandHandler<K, unknown>);
type UserHandlers = { [K in UserCommandType]: HandlerOf<K> };
type SweepHandlers = { [K in SweepCommandType]: RideSweepHandler<K> };

/** Each command's own part, by command (RideTransitionsService does the rest, from the table). */
@Injectable()
export class RideCommandHandlers {
  private readonly user: UserHandlers;
  private readonly sweeps: SweepHandlers;

  constructor(
    book: BookRideHandler,
    schedule: ScheduleRideHandler,
    bid: SubmitBidHandler,
    accept: AcceptBidHandler,
    start: StartRideHandler,
    complete: CompleteRideHandler,
    cancel: CancelRideHandler,
    no_show: NoShowHandler,
    raise_offer: RaiseOfferHandler,
    tip: TipRideHandler,
    rate: RateRideHandler,
    dispatch: DispatchRideHandler,
  ) {
    const steps = { arrive: ARRIVE_HANDLER, start, complete, no_step: NO_STEP_HANDLER };
    this.user = { book, schedule, bid, accept, ...steps, cancel, no_show, raise_offer, tip, rate };
    this.sweeps = { expire: EXPIRE_HANDLER, dispatch };
  }

  of<K extends UserCommandType>(type: K): HandlerOf<K> {
    return this.user[type];
  }

  sweep<K extends SweepCommandType>(type: K): RideSweepHandler<K> {
    return this.sweeps[type];
  }
}

/** The providers behind RideCommandHandlers (for the module). */
export const RIDE_COMMAND_HANDLER_PROVIDERS = [
  RideCommandHandlers,
  BookRideHandler,
  ScheduleRideHandler,
  SubmitBidHandler,
  AcceptBidHandler,
  StartRideHandler,
  CompleteRideHandler,
  CancellationFee,
  CancelRideHandler,
  NoShowHandler,
  RaiseOfferHandler,
  TipRideHandler,
  RateRideHandler,
  DispatchRideHandler,
];
