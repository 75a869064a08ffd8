import { LRUCache } from 'lru-cache';
import type { AreaVersions } from './area-versions';
import { NearbyPage, NearbyPageWriter, NearbyQuery } from './nearby-page';

interface CachedPage {
  page: NearbyPage;
  /** The areas' version when it was built. */
  version: number;
  /** When one of its rides expires: the page changes then without any event. */
  expiresAtMs: number;
}

/** About 1,000 pages of 50 rides (66 KB each, and their gzip). */
const MAX_BYTES = 96 * 1024 * 1024;

/**
 * Nearby's one speed choice: a page is built (serialised, hashed, and compressed when asked) once
 * per change, then reused by every poll with the same query until a ride changes in the area its
 * radius covers (AreaVersions, stamped by the index on every change it applies, after commit) or
 * one of its rides expires. A poll sees exactly the page a fresh build would give at that moment.
 */
export class NearbyPageCache {
  private readonly pages = new LRUCache<string, CachedPage>({ maxSize: MAX_BYTES, sizeCalculation: (cached) => cached.page.size });

  constructor(private readonly areas: AreaVersions) {}

  /** The current page for the query, from `build` only when the cached one (if any) is out of date. */
  get(q: NearbyQuery, build: () => { writer: NearbyPageWriter; expiresAtMs: number }, nowMs = Date.now()): NearbyPage {
    const key = `${q.latitude},${q.longitude},${q.radiusKm},${q.vehicleCategoryId},${q.limit}`;
    const cached = this.pages.get(key);
    if (cached && cached.expiresAtMs > nowMs && !this.areas.changedSince(q, q.radiusKm, cached.version)) return cached.page;
    const version = this.areas.version;
    const { writer, expiresAtMs } = build();
    // A page whose rides and distances did not change keeps its object (its bytes, and the gzip already made of them).
    const etag = writer.etag();
    const page = cached?.page.etag === etag ? cached.page : new NearbyPage(Buffer.from(writer.finish(), 'utf8'), etag);
    this.pages.set(key, { page, version, expiresAtMs });
    return page;
  }
}
