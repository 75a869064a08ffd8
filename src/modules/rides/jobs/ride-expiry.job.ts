import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { RideSweepJob } from './ride-sweep.job';

/** Expires requested rides nobody accepted within RIDE_REQUEST_TTL_MINUTES (the `expire` sweep). */
@Injectable()
export class RideExpiryJob extends RideSweepJob {
  constructor(transitions: RideTransitionsService, config: AppConfig) {
    super(transitions, 'expire', config.rideExpirySweepSeconds);
  }
}
