import type { RideView } from '../../src/modules/rides/read-models/ride-view';
import type { TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import type { Json } from './ride-helpers';

/**
 * The ride details cache (RIDE_CACHE_MS) and nearby must never show a change late
 * on the instance that made it, nor leak a ride. The TTLs here are a minute, so only invalidation can
 * make a change visible: a missed invalidation fails these tests instead of hiding behind a short TTL.
 */
export const CACHED = { RIDE_CACHE_MS: '60000', RIDE_EXPIRY_SWEEP_SECONDS: '3600' };

export function getRide(t: TestApp, user: TestUser, rideId: string) {
  return t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: user.accessToken });
}

export async function rideAs(t: TestApp, user: TestUser, rideId: string): Promise<RideView> {
  const res = await getRide(t, user, rideId);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}

export function nearby(t: TestApp, driver: TestUser, point: { latitude: number; longitude: number }, radiusKm = 5) {
  return t.request({
    method: 'GET',
    url: `/api/v1/driver/rides/nearby?latitude=${point.latitude}&longitude=${point.longitude}&radius_km=${radiusKm}`,
    token: driver.accessToken,
  });
}

export async function nearbyIds(t: TestApp, driver: TestUser, point: { latitude: number; longitude: number }): Promise<string[]> {
  const res = await nearby(t, driver, point);
  expect(res.statusCode).toBe(200);
  return (res.json() as Json[]).map((r) => r.id as string);
}

/** A pickup of its own for each nearby test, so rides of other tests stay out of its results. */
export function area(latitude: number) {
  return { address: `Test area ${latitude}`, latitude, longitude: 13.4132 };
}

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}
