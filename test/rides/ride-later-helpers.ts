import type { RideView } from '../../src/modules/rides/read-models/ride-view';
import type { TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { bookingBody } from './ride-helpers';

/** An ISO time `minutes` from now (UTC, as a client would send it). */
export function minutesAhead(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

export function bookLater(t: TestApp, passenger: TestUser, pickupAt: string = minutesAhead(60), overrides: object = {}) {
  return t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody({ pickup_at: pickupAt, ...overrides }) });
}

/** A ride booked for later (201 expected). */
export async function scheduledRide(t: TestApp, passenger: TestUser, pickupAt?: string): Promise<RideView> {
  const res = await bookLater(t, passenger, pickupAt);
  if (res.statusCode !== 201) throw new Error(`booking for later failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Makes the rides due for the dispatcher (as if their pickup were DISPATCH_LEAD_MINUTES away). */
export async function makeDue(t: TestApp, rideIds: string[]): Promise<void> {
  await t.db.query(`UPDATE rides SET dispatch_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [rideIds]);
}

export async function scheduledList(t: TestApp, passenger: TestUser, query = '') {
  const res = await t.request({ method: 'GET', url: `/api/v1/passenger/rides/scheduled${query}`, token: passenger.accessToken });
  if (res.statusCode !== 200) throw new Error(`scheduled list failed: ${res.statusCode} ${res.body}`);
  return res.json() as { items: RideView[]; page: number; limit: number; total: number };
}
