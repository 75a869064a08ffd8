import type { RideView } from '../../src/modules/rides/read-models/ride-view';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { acceptedRide, bookRide, Json, setStatus } from '../rides/ride-helpers';
import { FakeTwilio, startFakeTwilio } from '../support/fake-twilio';
import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * SOS (CONTRACT §14): who may raise it and when, one open per ride, stored before anything is sent,
 * `sos_raised` to operators only, one text per emergency contact through the Twilio channel with the
 * raiser's first name and a working share link, failed texts retried and shown to operators, and
 * operators listing and resolving alerts with an audit entry.
 */
describe('SOS', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let operator: TestOperator;
  const sam = { name: 'Sam', phone: '+15551239001' };
  const kim = { name: 'Kim', phone: '+15551239002' };
  const raise = (user: TestUser, rideId: string, payload?: Json) =>
    t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/sos`, token: user.accessToken, payload: payload ?? {} });
  const contacts = (user: TestUser, list: unknown[]) =>
    t.request({ method: 'PUT', url: '/api/v1/users/me/emergency-contacts', token: user.accessToken, payload: { contacts: list } });
  const adminList = (status?: string) =>
    t.request({ method: 'GET', url: `/api/v1/admin/sos${status ? `?status=${status}` : ''}`, token: operator.accessToken });

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp({
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: twilio.from,
        TWILIO_API_BASE: twilio.url,
        PUBLIC_BASE_URL: 'https://rides.example.com',
      },
    });
    operator = await createOperator(t, 'support');
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('the passenger raises it on a live ride: 201, stored, operators told, each contact texted with the first name and a working link', async () => {
    const passenger = await createUser(t, { firstName: 'Paula' });
    await contacts(passenger, [sam, kim]);
    const { driver, rideId } = await acceptedRide(t, { passenger });
    const live = {
      operator: await LiveClient.connect(t, operator.accessToken),
      passenger: await LiveClient.connect(t, passenger.accessToken),
      driver: await LiveClient.connect(t, driver.accessToken),
    };
    const before = twilio.requests.length;
    const res = await raise(passenger, rideId, { latitude: 52.51, longitude: 13.39 });
    expect(res.statusCode).toBe(201);
    const sos = res.json();
    expect(sos).toEqual({
      id: expect.any(Number),
      ride_id: rideId,
      raised_by: 'passenger',
      status: 'open',
      latitude: 52.51,
      longitude: 13.39,
      created_at: expect.any(String),
    });
    const [row] = await t.db.query(`SELECT status, raised_by_user_id FROM sos_alerts WHERE id = $1`, [sos.id]);
    expect(row).toEqual({ status: 'open', raised_by_user_id: passenger.id });

    const event = await live.operator.next('sos_raised');
    expect(event.ride_id).toBe(rideId);
    expect(event.data).toMatchObject({ sos, ride: { id: rideId, start_pin: null } });
    await expectNothingMore([live.passenger, live.driver]);

    const texts = await waitFor('both texts delivered', () =>
      twilio.delivered().filter((r) => [sam.phone, kim.phone].includes(r.to!)).length === 2 ? twilio.requests.slice(before) : undefined,
    );
    for (const text of texts) {
      expect(text.body).toContain('Paula');
      const url = /https:\/\/rides\.example\.com(\/api\/v1\/shared-rides\/[A-Za-z0-9_-]{43})/.exec(text.body!)![1]!;
      const shared = await t.request({ method: 'GET', url });
      expect(shared.statusCode).toBe(200);
    }
    const listed = (await adminList('open')).json().items.find((s: Json) => s.id === sos.id);
    expect(listed.texts.map((x: Json) => [x.phone, x.status])).toEqual([
      [sam.phone, 'sent'],
      [kim.phone, 'sent'],
    ]);
    for (const client of Object.values(live)) await client.close();
  });

  it('the driver raises it too; a repeat by either party returns the open alert with 200; the position defaults to the driver’s last known one', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude: 52.5, longitude: 13.4 } });
    const first = await raise(driver, rideId);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ raised_by: 'driver', latitude: 52.5, longitude: 13.4 });
    const again = await raise(passenger, rideId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await raise(driver, rideId)).json().id).toBe(first.json().id);
  });

  it('two raised at once make one alert', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const answers = await Promise.all([raise(passenger, rideId), raise(driver, rideId), raise(passenger, rideId)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
  });

  it('409 outside accepted, driver_arrived and started; 404 for anyone but its passenger and driver', async () => {
    const passenger = await createUser(t);
    const requested = await bookRide(t, passenger);
    const refused = await raise(passenger, requested.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('An SOS can be raised only while the ride is accepted, the driver has arrived, or the ride has started');
    const { passenger: p2, driver, rideId } = await acceptedRide(t);
    expect((await raise(await createUser(t), rideId)).statusCode).toBe(404);
    expect((await raise(p2, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await setStatus(t, driver, rideId, 'driver_arrived');
    await setStatus(t, driver, rideId, 'started');
    await setStatus(t, driver, rideId, 'completed');
    expect((await raise(p2, rideId)).statusCode).toBe(409);
    const bad = await raise(p2, rideId, { latitude: 91 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('latitude must be a number from -90 to 90');
  });

  it('a failed text is retried and shown to operators meanwhile', async () => {
    const passenger = await createUser(t, { firstName: 'Rita' });
    await contacts(passenger, [{ name: 'Lee', phone: '+15551239077' }]);
    const { rideId } = await acceptedRide(t, { passenger });
    twilio.script.push(503);
    const sos = (await raise(passenger, rideId)).json();
    const textOf = async () => (await adminList()).json().items.find((s: Json) => s.id === sos.id).texts[0];
    const failedOnce = await waitFor('the first try failed', async () => {
      const text = await textOf();
      return text.attempts === 1 && text.last_error !== null ? text : undefined;
    });
    expect(failedOnce).toMatchObject({ status: 'pending', phone: '+15551239077' });
    const sent = await waitFor('the retry delivered', async () => {
      const text = await textOf();
      return text.status === 'sent' ? text : undefined;
    });
    expect(sent).toMatchObject({ attempts: 2, last_error: null });
    expect(twilio.delivered().filter((r) => r.to === '+15551239077')).toHaveLength(1);
  });

  it('with the SMS provider down the alert is still stored and announced; a number Twilio refuses is given up at its first refusal, not retried', async () => {
    const passenger = await createUser(t, { firstName: 'Omar' });
    await contacts(passenger, [
      { name: 'Ann', phone: '+15551239081' },
      { name: 'Bob', phone: '+15551239082' },
    ]);
    twilio.refusedNumbers.set('+15551239082', 21211);
    const { rideId } = await acceptedRide(t, { passenger });
    const watcher = await LiveClient.connect(t, operator.accessToken);
    twilio.outage = 503;
    try {
      const res = await raise(passenger, rideId);
      expect(res.statusCode).toBe(201);
      expect((await watcher.next('sos_raised')).data!.sos).toEqual(res.json());
      const textsOf = async () => (await adminList('open')).json().items.find((s: Json) => s.id === res.json().id).texts as Json[];
      const tried = await waitFor('the first tries made', async () => {
        const texts = await textsOf();
        return texts.every((x) => x.attempts === 1 && x.last_error !== null) ? texts : undefined;
      });
      expect(tried.map((x) => [x.phone, x.status])).toEqual([
        ['+15551239081', 'pending'],
        ['+15551239082', 'pending'],
      ]);
      twilio.outage = undefined;
      const settled = await waitFor('the retries settled', async () => {
        const texts = await textsOf();
        return texts.every((x) => x.status !== 'pending') ? texts : undefined;
      });
      expect(settled.map((x) => [x.phone, x.status, x.attempts])).toEqual([
        ['+15551239081', 'sent', 2],
        ['+15551239082', 'failed', 2],
      ]);
    } finally {
      twilio.outage = undefined;
      twilio.refusedNumbers.delete('+15551239082');
      await watcher.close();
    }
  });

  it('operators list open and resolved alerts and resolve one once, audited; other roles and non-operators are refused', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    const sos = (await raise(passenger, rideId)).json();
    expect((await adminList('open')).json().items.map((s: Json) => s.id)).toContain(sos.id);
    const finance = await createOperator(t, 'finance');
    const notAllowed = await t.request({
      method: 'POST',
      url: `/api/v1/admin/sos/${sos.id}/resolve`,
      token: finance.accessToken,
      payload: { reason: 'Checked' },
    });
    expect(notAllowed.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/admin/sos', token: passenger.accessToken })).statusCode).toBe(403);
    const noReason = await t.request({ method: 'POST', url: `/api/v1/admin/sos/${sos.id}/resolve`, token: operator.accessToken, payload: {} });
    expect(noReason.statusCode).toBe(400);

    const resolve = () =>
      t.request({ method: 'POST', url: `/api/v1/admin/sos/${sos.id}/resolve`, token: operator.accessToken, payload: { reason: 'Called the rider: all fine' } });
    const res = await resolve();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sos.id, status: 'resolved', resolved_by: operator.id, resolution_reason: 'Called the rider: all fine' });
    const twice = await resolve();
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('SOS alert is already resolved');
    const missing = await t.request({ method: 'POST', url: '/api/v1/admin/sos/999999/resolve', token: operator.accessToken, payload: { reason: 'Checked' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('SOS alert not found');

    expect((await adminList('open')).json().items.map((s: Json) => s.id)).not.toContain(sos.id);
    expect((await adminList('resolved')).json().items.map((s: Json) => s.id)).toContain(sos.id);
    expect((await adminList('closed')).statusCode).toBe(400);
    const audit = await t.db.query(`SELECT actor_id, action, target_type, reason FROM audit_log WHERE target_id = $1 AND action = 'sos.resolve'`, [
      String(sos.id),
    ]);
    expect(audit).toEqual([{ actor_id: operator.id, action: 'sos.resolve', target_type: 'sos', reason: 'Called the rider: all fine' }]);

    // Resolved, the ride may raise a new one.
    const next = await raise(passenger, rideId);
    expect(next.statusCode).toBe(201);
    expect(next.json().id).not.toBe(sos.id);
  });

  it('the ride in sos_raised is as no passenger sees it (no start PIN)', async () => {
    const passenger = await createUser(t);
    await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, payload: { ride_pin: 'always' } });
    const { rideId } = await acceptedRide(t, { passenger });
    const pin = ((await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken })).json() as RideView).start_pin;
    expect(pin).toMatch(/^[0-9]{4}$/);
    const watcher = await LiveClient.connect(t, operator.accessToken);
    await raise(passenger, rideId);
    const event = await watcher.next('sos_raised');
    expect((event.data!.ride as RideView).start_pin).toBeNull();
    await watcher.close();
  });
});
