import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Metrics } from '../../../../common/metrics/metrics';
import { rideToJson } from '../ride-view';
import { NearbyPage, NearbyPageWriter, NearbyQuery, pieceHash } from './nearby-page';
import { NearbyPageCache } from './nearby-page-cache';
import { OpenRequestsIndex } from './open-requests.index';
import { OpenRequestsRepository } from './open-requests.repository';

/**
 * Where GET /driver/rides/nearby's page is built (drivers asks RidesService, which asks this).
 * The rides come from the open-requests index once it has loaded, and from the database's one
 * indexed query (OpenRequestsRepository.findNearest) in the seconds before; either way each ride is
 * its wire JSON (rideToJson) and the page is written by the one NearbyPageWriter. From the index, a
 * page is built once per change in its area and reused by every poll until then (NearbyPageCache).
 */
@Injectable()
export class NearbyPages {
  private readonly cache: NearbyPageCache;

  constructor(
    private readonly index: OpenRequestsIndex,
    private readonly repository: OpenRequestsRepository,
    metrics: Metrics,
  ) {
    this.cache = new NearbyPageCache(index.areas);
    // The pages from the database and from memory are the same bytes: this says which one answers.
    new Gauge({
      name: 'open_requests_in_memory',
      help: "Open requests in this instance's index, -1 until its start-up load is done (nearby is answered from the database until then)",
      registers: [metrics.registry],
      collect() {
        this.set(index.ready ? index.size : -1);
      },
    });
  }

  async page(q: NearbyQuery): Promise<NearbyPage> {
    if (!this.index.ready) return this.pageFromDatabase(q);
    return this.cache.get(q, () => this.index.nearby(q)!);
  }

  /** The page from the database's rows: before the index has loaded (and, in tests, the reference the index must equal). */
  async fromDatabase(q: NearbyQuery): Promise<string> {
    return (await this.writerFromDatabase(q)).finish();
  }

  /** fromDatabase's page as sent (with its tag: the index's page of the same rides has the same one). */
  async pageFromDatabase(q: NearbyQuery): Promise<NearbyPage> {
    return (await this.writerFromDatabase(q)).page();
  }

  private async writerFromDatabase(q: NearbyQuery): Promise<NearbyPageWriter> {
    const writer = new NearbyPageWriter(q, q.radiusKm);
    for (const row of await this.repository.findNearest(q)) {
      const ride = rideToJson(row);
      const head = JSON.stringify(ride).slice(0, -1);
      writer.add(head, pieceHash(head), ride.pickup);
    }
    return writer;
  }
}
