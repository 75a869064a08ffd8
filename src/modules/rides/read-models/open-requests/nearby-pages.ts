import { Injectable } from '@nestjs/common';
import { rideToJson } from '../ride-view';
import { NearbyPageWriter, NearbyQuery } from './nearby-page';
import { OpenRequestsIndex } from './open-requests.index';
import { OpenRequestsRepository } from './open-requests.repository';

/**
 * Where GET /driver/rides/nearby's page is built (drivers asks RidesService, which asks this).
 * The rides come from the open-requests index once it has loaded, and from the database's one
 * indexed query (OpenRequestsRepository.findNearest) in the seconds before; either way each ride is
 * its wire JSON (rideToJson) and the page is written by the one NearbyPageWriter.
 */
@Injectable()
export class NearbyPages {
  constructor(
    private readonly index: OpenRequestsIndex,
    private readonly repository: OpenRequestsRepository,
  ) {}

  /** The page's JSON text; without a promise when the index answers (each promise costs the hot route microtask turns). */
  page(q: NearbyQuery): string | Promise<string> {
    return this.index.nearbyBody(q) ?? this.fromDatabase(q);
  }

  /** The page from the database's rows: before the index has loaded (and, in tests, the reference the index must equal). */
  async fromDatabase(q: NearbyQuery): Promise<string> {
    const page = new NearbyPageWriter(q, q.radiusKm);
    for (const row of await this.repository.findNearest(q)) {
      const ride = rideToJson(row);
      page.add(JSON.stringify(ride).slice(0, -1), ride.pickup);
    }
    return page.finish();
  }
}
