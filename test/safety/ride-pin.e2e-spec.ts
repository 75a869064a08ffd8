import type { RideView } from '../../src/modules/rides/read-models/ride-view';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { accept, bookRide, Json, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { createOperator, createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countRoundTrips } = require('../../bench/lib/round-trip-probe') as {
  countRoundTrips<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
};

/** The UTC offset (an Etc/GMT zone) whose clocks now show an hour from 00 to 01: deep in `night`. */
function zoneAtMidnight(): string {
  let offset = (24 - new Date().getUTCHours()) % 24;
  if (offset > 14) offset -= 24;
  // Etc/GMT names are sign-inverted: Etc/GMT-3 is UTC+3.
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/**
 * The PIN at pickup (CONTRACT §14): the setting, the PIN made at acceptance, its one audience (the
 * passenger: every passenger view and event has it, no other reader's does) and the start it guards.
 */
describe('start PIN', () => {
  let t: TestApp;
  const profile = (user: TestUser, payload: Json) => t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: user.accessToken, payload });
  const me = async (user: TestUser) => (await t.request({ method: 'GET', url: '/api/v1/auth/me', token: user.accessToken })).json();
  const rideAs = async (user: TestUser, rideId: string): Promise<RideView> =>
    (await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: user.accessToken })).json();
  const start = (driver: TestUser, rideId: string, pin?: unknown) =>
    t.request({
      method: 'PUT',
      url: `/api/v1/rides/${rideId}/status`,
      token: driver.accessToken,
      payload: pin === undefined ? { status: 'started' } : { status: 'started', pin },
    });

  beforeAll(async () => {
    t = await startTestApp({ env: { RIDE_PIN_TIMEZONE: zoneAtMidnight() } });
  });
  afterAll(() => t.close());

  /** A ride the passenger (with this setting) accepted, its driver arrived. */
  async function arrivedRide(setting: 'off' | 'always' | 'night') {
    const passenger = await createUser(t, { firstName: 'Paula' });
    expect((await profile(passenger, { ride_pin: setting })).statusCode).toBe(200);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    const bid = await placeBid(t, driver, ride.id);
    const accepted = await accept(t, passenger, ride.id, bid.id);
    expect(accepted.statusCode).toBe(200);
    expect((await setStatus(t, driver, ride.id, 'driver_arrived')).statusCode).toBe(200);
    return { passenger, driver, rideId: ride.id, pin: (accepted.json() as RideView).start_pin };
  }

  it('is a setting of the profile, off by default, shown by me; anything but off, always or night is a 400', async () => {
    const user = await createUser(t);
    expect((await me(user)).ride_pin).toBe('off');
    const bad = await profile(user, { ride_pin: 'sometimes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('ride_pin must be one of off, always, night');
    expect((await profile(user, { ride_pin: 'always' })).statusCode).toBe(200);
    expect((await me(user)).ride_pin).toBe('always');
    expect((await profile(user, { first_name: 'Ada' })).statusCode).toBe(200);
    expect((await me(user)).ride_pin).toBe('always');
  });

  it('is made at acceptance under always and night (in RIDE_PIN_TIMEZONE): 4 digits, leading zeros kept', async () => {
    for (const setting of ['always', 'night'] as const) {
      const { pin, rideId } = await arrivedRide(setting);
      expect(pin).toMatch(/^[0-9]{4}$/);
      const [row] = await t.db.query(`SELECT start_pin FROM rides WHERE id = $1`, [rideId]);
      expect(row.start_pin).toBe(pin);
    }
  });

  it('a ride without a PIN starts as before: start_pin null, pin ignored', async () => {
    const { passenger, driver, rideId, pin } = await arrivedRide('off');
    expect(pin).toBeNull();
    expect((await rideAs(passenger, rideId)).start_pin).toBeNull();
    const res = await start(driver, rideId, '9999');
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('started');
  });

  it('starts only with the PIN: missing or wrong is 400 "Wrong PIN", nothing changes', async () => {
    const { driver, rideId, pin } = await arrivedRide('always');
    for (const sent of [undefined, '', wrong(pin!), `${pin}0`, ` ${pin}`]) {
      const res = await start(driver, rideId, sent);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, message: 'Wrong PIN' });
    }
    const [row] = await t.db.query(`SELECT status, start_pin_failures FROM rides WHERE id = $1`, [rideId]);
    expect(row).toEqual({ status: 'driver_arrived', start_pin_failures: 5 });
  });

  it('after 5 wrong tries the ride answers 429 "Too many wrong PINs", even to the right PIN', async () => {
    const { driver, rideId, pin } = await arrivedRide('always');
    for (let i = 0; i < 4; i++) expect((await start(driver, rideId, wrong(pin!))).statusCode).toBe(400);
    const fifth = await start(driver, rideId, wrong(pin!));
    expect(fifth.statusCode).toBe(400);
    const locked = await start(driver, rideId, pin!);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ statusCode: 429, message: 'Too many wrong PINs' });
    expect((await start(driver, rideId, wrong(pin!))).statusCode).toBe(429);
  });

  it('the right PIN starts the ride, after some wrong tries too', async () => {
    const { driver, rideId, pin } = await arrivedRide('always');
    expect((await start(driver, rideId, wrong(pin!))).statusCode).toBe(400);
    const res = await start(driver, rideId, pin!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'started', start_pin: null });
  });

  it('the right PIN, or none on a ride without one, starts in one statement (issue 27); a wrong one takes the counting transaction', async () => {
    for (const setting of ['always', 'off'] as const) {
      const { driver, rideId, pin } = await arrivedRide(setting);
      // Awaited inside: light-my-request starts the request when it is first awaited.
      const { result, statements } = await countRoundTrips(async () => await start(driver, rideId, pin ?? undefined));
      expect(result.statusCode).toBe(200);
      expect(statements).toHaveLength(1);
    }
    const { driver, rideId, pin } = await arrivedRide('always');
    const wrongTry = await countRoundTrips(async () => await start(driver, rideId, wrong(pin!)));
    expect(wrongTry.result.statusCode).toBe(400);
    expect(wrongTry.statements).toEqual(expect.arrayContaining(['START TRANSACTION', 'COMMIT']));
  });

  it('concurrent wrong tries are each counted (the ride row is locked)', async () => {
    const { driver, rideId, pin } = await arrivedRide('always');
    const answers = await Promise.all(Array.from({ length: 7 }, () => start(driver, rideId, wrong(pin!))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const [row] = await t.db.query(`SELECT start_pin_failures FROM rides WHERE id = $1`, [rideId]);
    expect(row.start_pin_failures).toBe(5);
  });

  describe('its audience: the passenger alone', () => {
    it('in every view: the passenger has it; the driver, a bidder, nearby, the shared link and operators do not', async () => {
      const passenger = await createUser(t);
      await profile(passenger, { ride_pin: 'always' });
      const driver = await onlineDriver(t);
      const loser = await onlineDriver(t);
      const ride = await bookRide(t, passenger);
      const nearby = await t.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=52.5219&longitude=13.4132', token: driver.accessToken });
      const listed = (nearby.json() as Array<Json>).find((r) => r.id === ride.id)!;
      expect(listed).toHaveProperty('start_pin', null);
      const bid = await placeBid(t, driver, ride.id);
      await placeBid(t, loser, ride.id, 12);
      const accepted = (await accept(t, passenger, ride.id, bid.id)).json() as RideView;
      const pin = accepted.start_pin;
      expect(pin).toMatch(/^[0-9]{4}$/);

      // The passenger: details, active ride, history.
      expect((await rideAs(passenger, ride.id)).start_pin).toBe(pin);
      const active = await t.request({ method: 'GET', url: '/api/v1/passenger/rides/active', token: passenger.accessToken });
      expect(active.json().ride.start_pin).toBe(pin);
      const history = await t.request({ method: 'GET', url: '/api/v1/passenger/rides', token: passenger.accessToken });
      expect((history.json().items as RideView[]).find((r) => r.id === ride.id)!.start_pin).toBe(pin);

      // The driver: details (twice: the cached body too), active ride, the answer to each step.
      expect((await rideAs(driver, ride.id)).start_pin).toBeNull();
      expect((await rideAs(driver, ride.id)).start_pin).toBeNull();
      expect((await rideAs(passenger, ride.id)).start_pin).toBe(pin);
      const driverActive = await t.request({ method: 'GET', url: '/api/v1/driver/rides/active', token: driver.accessToken });
      expect(driverActive.json().ride.start_pin).toBeNull();
      const arrived = await setStatus(t, driver, ride.id, 'driver_arrived');
      expect(arrived.json().start_pin).toBeNull();
      expect((await rideAs(loser, ride.id)).start_pin ?? null).toBeNull();

      // The shared link's view, and anything an operator reads of the ride.
      const share = await t.request({ method: 'POST', url: `/api/v1/rides/${ride.id}/share`, token: passenger.accessToken });
      const shared = await t.request({ method: 'GET', url: `/api/v1/shared-rides/${share.json().token}` });
      expect(shared.statusCode).toBe(200);
      expect(shared.body).not.toContain(pin!);
      expect(shared.json().start_pin ?? null).toBeNull();
      const operator = await createOperator(t, 'admin');
      const asOperator = await t.request({ method: 'GET', url: `/api/v1/admin/rides/${ride.id}`, token: operator.accessToken });
      expect(asOperator.statusCode).toBe(200);
      expect(asOperator.json().start_pin).toBeNull();
      const operatorList = await t.request({ method: 'GET', url: `/api/v1/admin/rides?passenger_id=${passenger.id}`, token: operator.accessToken });
      expect(operatorList.statusCode).toBe(200);
      expect(operatorList.json().items.map((r: RideView) => [r.id, r.start_pin])).toEqual([[ride.id, null]]);
    });

    it('in every event: the passenger’s copy has it, the driver’s and a losing bidder’s do not (snapshot on connect too)', async () => {
      const passenger = await createUser(t);
      await profile(passenger, { ride_pin: 'always' });
      const driver = await onlineDriver(t);
      const loser = await onlineDriver(t);
      const ride = await bookRide(t, passenger);
      const bid = await placeBid(t, driver, ride.id);
      await placeBid(t, loser, ride.id, 12);
      const live = {
        passenger: await LiveClient.connect(t, passenger.accessToken),
        driver: await LiveClient.connect(t, driver.accessToken),
        loser: await LiveClient.connect(t, loser.accessToken),
      };
      const pin = ((await accept(t, passenger, ride.id, bid.id)).json() as RideView).start_pin;
      const pinOf = (m: { data?: Json }) => (m.data!.ride as RideView).start_pin;
      expect(pinOf(await live.passenger.next('ride_accepted'))).toBe(pin);
      expect(pinOf(await live.driver.next('ride_accepted'))).toBeNull();
      expect(pinOf(await live.loser.next('ride_accepted'))).toBeNull();

      await setStatus(t, driver, ride.id, 'driver_arrived');
      expect(pinOf(await live.passenger.next('ride_status_changed'))).toBe(pin);
      expect(pinOf(await live.driver.next('ride_status_changed'))).toBeNull();

      const again = { passenger: await LiveClient.connect(t, passenger.accessToken), driver: await LiveClient.connect(t, driver.accessToken) };
      expect(pinOf(again.passenger.received[0])).toBe(pin);
      expect(pinOf(again.driver.received[0])).toBeNull();

      expect((await start(driver, ride.id, pin!)).statusCode).toBe(200);
      for (const client of [live.passenger, again.passenger]) expect(pinOf(await client.next('ride_status_changed'))).toBe(pin);
      for (const client of [live.driver, again.driver]) expect(pinOf(await client.next('ride_status_changed'))).toBeNull();
      const everyone = [...Object.values(live), ...Object.values(again)];
      await expectNothingMore(everyone);
      for (const client of [live.driver, live.loser, again.driver]) expect(JSON.stringify(client.received)).not.toContain(`"start_pin":"${pin}"`);
      for (const client of everyone) await client.close();
    });
  });
});

/** Another 4-digit PIN. */
function wrong(pin: string): string {
  return String((Number(pin) + 1) % 10_000).padStart(4, '0');
}
