import { AreaVersions } from './area-versions';
import { NearbyPageCache } from './nearby-page-cache';
import { NearbyPageWriter, NearbyQuery, pieceHash } from './nearby-page';

const Q: NearbyQuery = { latitude: 52.52, longitude: 13.405, radiusKm: 5, vehicleCategoryId: null, limit: 50 };

describe('NearbyPageCache', () => {
  function setup() {
    const areas = new AreaVersions();
    const cache = new NearbyPageCache(areas);
    let ids: string[] = [];
    let expiresAtMs = Infinity;
    let builds = 0;
    /** The page of the rides `ids`, all at the query's point. */
    const build = () => {
      builds += 1;
      const writer = new NearbyPageWriter(Q, Q.radiusKm);
      for (const id of ids) writer.add(`{"id":"${id}"`, pieceHash(`{"id":"${id}"`), Q);
      return { writer, expiresAtMs };
    };
    return {
      areas,
      get: (q: NearbyQuery = Q, nowMs = 0) => cache.get(q, build, nowMs),
      set: (next: string[], expires = Infinity) => ((ids = next), (expiresAtMs = expires)),
      builds: () => builds,
    };
  }

  it('builds a page once and reuses it until a change within its radius', () => {
    const s = setup();
    const first = s.get();
    expect(s.get()).toBe(first);
    expect(s.builds()).toBe(1);
    s.areas.changedAt(40.4, -3.7); // Madrid: not this page's area
    expect(s.get()).toBe(first);
    expect(s.builds()).toBe(1);
    s.set(['a']);
    s.areas.changedAt(52.53, 13.41);
    const second = s.get();
    expect(s.builds()).toBe(2);
    expect(second.bytes.toString()).toBe('[{"id":"a","distance_km":0}]');
    expect(second.etag).not.toBe(first.etag);
    expect(s.get()).toBe(second);
  });

  it('keeps the page object (and its gzip) when a rebuild gives the same bytes, and the tag follows the bytes only', () => {
    const s = setup();
    const first = s.get();
    const gzip = first.gzip();
    s.areas.changedAt(52.52, 13.405);
    expect(s.get()).toBe(first);
    expect(first.gzip()).toBe(gzip);
    expect(s.builds()).toBe(2);
    // Another query with the same rides: another entry, the same tag; other rides, another tag.
    expect(s.get({ ...Q, radiusKm: 6 }).etag).toBe(first.etag);
    s.set(['a', 'b']);
    s.areas.changedAt(52.52, 13.405);
    const two = s.get();
    s.set(['b', 'a']);
    s.areas.changedAt(52.52, 13.405);
    expect(s.get().etag).not.toBe(two.etag);
  });

  it('rebuilds once one of the page’s rides has expired, without any event', () => {
    const s = setup();
    s.set(['a'], 1000);
    s.get(Q, 0);
    expect(s.get(Q, 999)).toBeDefined();
    expect(s.builds()).toBe(1);
    s.set([]);
    expect(s.get(Q, 1000).bytes.toString()).toBe('[]');
    expect(s.builds()).toBe(2);
  });
});
