import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { RideSweepJob } from './ride-sweep.job';

/**
 * The dispatcher: makes rides booked for later `requested` DISPATCH_LEAD_MINUTES before their
 * pickup_at (the `dispatch` sweep), whatever other ride their passenger has under way.
 */
@Injectable()
export class RideDispatchJob extends RideSweepJob {
  constructor(transitions: RideTransitionsService, config: AppConfig) {
    super(transitions, 'dispatch', config.rideDispatchSweepSeconds);
  }
}
