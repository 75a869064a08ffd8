import { Injectable } from '@nestjs/common';
import type { GeoPoint } from '../../../common/events/domain-events';
import type { MaybeAsync } from '../../../common/async/maybe-async';
import { AppConfig } from '../../../config/app-config';
import { haversineKm } from '../../../common/geo';

export interface RouteLeg {
  /** Road distance, kilometres with 2 decimals. */
  distanceKm: number;
  /** Driving time, whole minutes. */
  durationMinutes: number;
}

/** Where distances and durations come from; a real routing engine can replace the default. */
export abstract class RoutingProvider {
  /** A leg, or a promise of one from an engine that must be asked (the default answers at once). */
  abstract route(from: GeoPoint, to: GeoPoint): MaybeAsync<RouteLeg>;
}

/**
 * No external engine: the great-circle distance times a road factor, and the time at an average
 * speed. Distance is rounded to 2 decimals and the duration to whole minutes (half up) so that
 * fares can be checked by hand.
 */
@Injectable()
export class GreatCircleRoutingProvider extends RoutingProvider {
  constructor(private readonly config: AppConfig) {
    super();
  }

  route(from: GeoPoint, to: GeoPoint): RouteLeg {
    const distanceKm = Math.round(haversineKm(from, to) * this.config.routingRoadFactor * 100) / 100;
    const durationMinutes = Math.round((distanceKm / this.config.routingAverageSpeedKmh) * 60);
    return { distanceKm, durationMinutes };
  }
}
