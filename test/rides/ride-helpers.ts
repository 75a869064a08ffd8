import { DriversService } from '../../src/modules/drivers/drivers.service';
import { createUser, CreateUserOptions, TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import type { BidView } from '../../src/modules/rides/bids/bid-view';
import type { RideView } from '../../src/modules/rides/read-models/ride-view';

export const PICKUP = { address: 'Alexanderplatz 1, Berlin', latitude: 52.5219, longitude: 13.4132 };
export const DROPOFF = { address: 'Potsdamer Platz 1, Berlin', latitude: 52.5096, longitude: 13.3759 };

/** A request or response body a test builds or only looks into; rides and bids have their own types. */
export type Json = Record<string, unknown>;

export function bookingBody(overrides: object = {}): Json & { pickup: typeof PICKUP; dropoff: typeof DROPOFF } {
  return {
    pickup: PICKUP,
    dropoff: DROPOFF,
    ride_type: 'one_way',
    vehicle_category_id: 1,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
    ...overrides,
  };
}

export async function bookRide(t: TestApp, passenger: TestUser, overrides: object = {}): Promise<RideView> {
  const res = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`book failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** An approved driver, online, placed near the default pickup. */
export async function onlineDriver(t: TestApp, options: CreateUserOptions = {}): Promise<TestUser> {
  const driver = await createUser(t, { role: 'driver', ...options });
  await t.db.query(`UPDATE drivers SET last_latitude = $2, last_longitude = $3, last_location_at = now() WHERE user_id = $1`, [
    driver.id,
    PICKUP.latitude + 0.001,
    PICKUP.longitude,
  ]);
  // Through the service, so that the matcher's memory on every instance hears of it.
  await t.get(DriversService).setOnline(driver.id, true);
  return driver;
}

export async function placeBid(t: TestApp, driver: TestUser, rideId: string, amount = 10): Promise<BidView> {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/driver/rides/${rideId}/bid`,
    token: driver.accessToken,
    payload: { amount, eta_minutes: 3 },
  });
  if (res.statusCode !== 201) throw new Error(`bid failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function accept(t: TestApp, passenger: TestUser, rideId: string, bidId: string) {
  return t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/bids/${bidId}/accept`, token: passenger.accessToken });
}

export function setStatus(t: TestApp, user: TestUser, rideId: string, status: string) {
  return t.request({ method: 'PUT', url: `/api/v1/rides/${rideId}/status`, token: user.accessToken, payload: { status } });
}

export function cancel(t: TestApp, user: TestUser, rideId: string, reason?: string) {
  return t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/cancel`, token: user.accessToken, payload: reason ? { reason } : undefined });
}

/** A ride accepted by a fresh driver at `amount`. */
export async function acceptedRide(
  t: TestApp,
  options: { passenger?: TestUser; driver?: TestUser; amount?: number; payment?: 'cash' | 'wallet' } = {},
): Promise<{ passenger: TestUser; driver: TestUser; rideId: string }> {
  const passenger = options.passenger ?? (await createUser(t));
  const driver = options.driver ?? (await onlineDriver(t));
  const ride = await bookRide(t, passenger, { payment_method: options.payment ?? 'cash' });
  const bid = await placeBid(t, driver, ride.id, options.amount ?? 10);
  const res = await accept(t, passenger, ride.id, bid.id);
  if (res.statusCode !== 200) throw new Error(`accept failed: ${res.statusCode} ${res.body}`);
  return { passenger, driver, rideId: ride.id };
}
