import { gunzipSync } from 'node:zlib';
import { OpenRequestsIndex } from '../../src/modules/rides/read-models/open-requests/open-requests.index';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { bookRide, cancel, Json, onlineDriver } from '../rides/ride-helpers';

/** A pickup of this file's own, so other rides stay out of its pages. */
const AREA = { latitude: 34.61, longitude: 8.25 };
const URL = `/api/v1/driver/rides/nearby?latitude=${AREA.latitude}&longitude=${AREA.longitude}&radius_km=5`;

/** A booking's pickup dLat north of AREA, and a dropoff a kilometre beyond it. */
function pickup(dLat: number) {
  return { address: `Etag ${dLat}`, latitude: AREA.latitude + dLat, longitude: AREA.longitude };
}
const trip = (dLat: number) => ({ pickup: pickup(dLat), dropoff: pickup(dLat + 0.01) });

/**
 * CONTRACT §4: the nearby page carries an ETag; a poll whose If-None-Match names the current page
 * gets 304 with no body; the page is gzip when Accept-Encoding allows it. The tag changes exactly
 * when the page does: a ride added, changed or removed.
 */
describe('nearby: ETag, 304 and gzip', () => {
  let t: TestApp;
  let driver: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: 'nearby-metrics' } });
    await waitFor('the open-requests index loaded', () => t.get(OpenRequestsIndex).ready);
    driver = await onlineDriver(t);
  });
  afterAll(() => t.close());

  const poll = (headers: Record<string, string> = {}) => t.request({ method: 'GET', url: URL, token: driver.accessToken, headers });

  /** Waits until the page differs from the one tagged `etag`, and returns the new answer. */
  async function changedFrom(etag: string) {
    return waitFor('the page changed', async () => {
      const res = await poll({ 'if-none-match': etag });
      return res.statusCode === 200 ? res : undefined;
    });
  }

  it('answers 304 with no body to a poll naming the current page, and 200 with a new tag once a ride is added, changed or removed', async () => {
    const empty = await poll();
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    const emptyTag = empty.headers.etag as string;
    expect(emptyTag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(empty.headers.vary).toMatch(/Accept-Encoding/i);

    const unchanged = await poll({ 'if-none-match': emptyTag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);
    expect(unchanged.headers.etag).toBe(emptyTag);

    // Added.
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger, trip(0.001));
    const added = await changedFrom(emptyTag);
    const addedTag = added.headers.etag as string;
    expect(addedTag).not.toBe(emptyTag);
    expect((added.json() as Json[]).map((r) => r.id)).toEqual([ride.id]);
    expect((await poll({ 'if-none-match': addedTag })).statusCode).toBe(304);
    // A list of tags naming the current one, and *, match too; an old tag alone does not.
    expect((await poll({ 'if-none-match': `${emptyTag}, ${addedTag}` })).statusCode).toBe(304);
    expect((await poll({ 'if-none-match': '*' })).statusCode).toBe(304);
    expect((await poll({ 'if-none-match': emptyTag })).statusCode).toBe(200);

    // A ride far away is not on this page: the page and its tag stay.
    await bookRide(t, await createUser(t), trip(1));
    expect((await poll({ 'if-none-match': addedTag })).statusCode).toBe(304);

    // Changed: the passenger raises the offer.
    const raised = await t.request({ method: 'PUT', url: `/api/v1/rides/${ride.id}/offer`, token: passenger.accessToken, payload: { offered_fare: 999 } });
    expect(raised.statusCode).toBe(200);
    const changed = await changedFrom(addedTag);
    const changedTag = changed.headers.etag as string;
    expect(changedTag).not.toBe(addedTag);
    expect((changed.json() as Json[])[0]!.offered_fare).toBe(999);

    // Removed.
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    const removed = await changedFrom(changedTag);
    expect(removed.json()).toEqual([]);
    // The empty page again: the same bytes, the same tag as at first.
    expect(removed.headers.etag).toBe(emptyTag);
  });

  it('says on /metrics whether nearby comes from memory: open_requests_in_memory is the index size once loaded', async () => {
    const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nearby-metrics' } });
    const size = Number(/^open_requests_in_memory (-?\d+)$/m.exec(res.body)?.[1]);
    expect(size).toBe(t.get(OpenRequestsIndex).size);
    expect(size).toBeGreaterThanOrEqual(0);
  });

  it('sends gzip when Accept-Encoding allows it, which decodes to the same bytes as the plain page', async () => {
    for (let i = 0; i < 3; i += 1) await bookRide(t, await createUser(t), trip(0.002 + i * 0.001));
    const plain = await waitFor('the rides are listed', async () => {
      const res = await poll();
      return (res.json() as Json[]).length === 3 ? res : undefined;
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);

    const gzipped = await poll({ 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-type']).toMatch(/^application\/json/);
    expect(gzipped.headers.etag).toBe(plain.headers.etag);
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const decoded = gunzipSync(gzipped.rawPayload);
    expect(decoded.equals(plain.rawPayload)).toBe(true);
    expect(JSON.parse(decoded.toString('utf8'))).toEqual(plain.json());

    // Refused with q=0, or not offered: plain.
    expect((await poll({ 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();
    expect((await poll({ 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    // A 304 carries no body, compressed or not.
    const notModified = await poll({ 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
  });
});
