import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PushChannel } from '../../src/modules/realtime/push/push-channel';
import { startAuthApp } from '../auth/auth-helpers';
import { acceptedRide } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { FakeFcm, startFakeFcm } from '../support/fake-fcm';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { closeSentinels, expectNothingMore, LiveClient } from './live-client';

const send = (t: TestApp, user: TestUser, rideId: string, text: string) =>
  t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/messages`, token: user.accessToken, payload: { text } });

/** chat_message (CONTRACT §11): to the other party of the ride, never the sender, on every channel. */
describe('chat_message on the live socket and by push', () => {
  let dir: string;
  let fcm: FakeFcm;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chat-push-'));
    fcm = await startFakeFcm(dir);
    // A lower chat limit than the default 30 (checked in test/rides/chat.e2e-spec.ts): the setting is read.
    t = await startAuthApp({ FCM_SERVICE_ACCOUNT_FILE: fcm.serviceAccountFile, FCM_API_BASE: fcm.url, CHAT_MESSAGES_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await t?.close();
    await fcm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pushesTo = (token: string) => fcm.delivered.filter((m) => m.token === token).map((m) => (m.body as { message: Record<string, unknown> }).message);
  async function withToken(user: TestUser, token: string): Promise<string> {
    await t.db.query(`UPDATE users SET device_token = $2 WHERE id = $1`, [user.id, token]);
    return token;
  }

  it('the other party receives the message object of the 201; the sender and anyone else receive nothing', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const bystander = await createUser(t);
    const passengerSocket = await LiveClient.connect(t, passenger.accessToken);
    const driverSocket = await LiveClient.connect(t, driver.accessToken);
    const bystanderSocket = await LiveClient.connect(t, bystander.accessToken);
    const all = [passengerSocket, driverSocket, bystanderSocket];
    try {
      const fromPassenger = await send(t, passenger, rideId, '  Blue jacket, by the kiosk ');
      expect(fromPassenger.statusCode).toBe(201);
      const event = await driverSocket.next('chat_message');
      expect(event).toEqual({ type: 'chat_message', ride_id: rideId, data: { message: fromPassenger.json() }, at: expect.any(String) });
      expect(event.data).toEqual({ message: expect.objectContaining({ text: 'Blue jacket, by the kiosk', sender_role: 'passenger' }) });
      await expectNothingMore(all);

      const fromDriver = await send(t, driver, rideId, 'See you');
      expect(await passengerSocket.next('chat_message')).toMatchObject({ ride_id: rideId, data: { message: fromDriver.json() } });
      await expectNothingMore(all);
    } finally {
      await Promise.all(all.map((c) => c.close()));
    }
  });

  it('pushes chat_message to a party with no live socket, never to the sender', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const passengerToken = await withToken(passenger, `fcm-chat-passenger-${process.pid}`);
    const driverToken = await withToken(driver, `fcm-chat-driver-${process.pid}`);
    await t.get(PushChannel).idle();
    const before = { passenger: pushesTo(passengerToken).length, driver: pushesTo(driverToken).length };

    const long = `Running late, ${'traffic '.repeat(30)}`.trim();
    expect((await send(t, passenger, rideId, long)).statusCode).toBe(201);
    expect((await send(t, driver, rideId, 'No problem')).statusCode).toBe(201);
    await t.get(PushChannel).idle();
    const toDriver = pushesTo(driverToken).slice(before.driver);
    expect(toDriver).toEqual([
      {
        token: driverToken,
        data: { type: 'chat_message', ride_id: rideId },
        notification: { title: 'Message from your passenger', body: `${long.slice(0, 119)}…` },
        android: { priority: 'high' },
      },
    ]);
    const toPassenger = pushesTo(passengerToken).slice(before.passenger);
    expect(toPassenger.map((m) => [m.data, m.notification])).toEqual([
      [
        { type: 'chat_message', ride_id: rideId },
        { title: 'Message from your driver', body: 'No problem' },
      ],
    ]);

    // With a live socket, the socket gets it and no push goes out.
    const socket = await LiveClient.connect(t, driver.accessToken);
    try {
      expect((await send(t, passenger, rideId, 'Are you near?')).statusCode).toBe(201);
      expect(await socket.next('chat_message')).toMatchObject({ data: { message: { text: 'Are you near?' } } });
      await t.get(PushChannel).idle();
      expect(pushesTo(driverToken).slice(before.driver)).toHaveLength(1);
    } finally {
      await socket.close();
    }
  });

  it('CHAT_MESSAGES_PER_MINUTE sets the per-user limit; a refused message is neither stored nor delivered', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const driverSocket = await LiveClient.connect(t, driver.accessToken);
    try {
      for (const text of ['one', 'two', 'three']) {
        expect((await send(t, passenger, rideId, text)).statusCode).toBe(201);
        expect(await driverSocket.next('chat_message')).toMatchObject({ data: { message: { text } } });
      }
      const refused = await send(t, passenger, rideId, 'four');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await expectNothingMore([driverSocket]);
    } finally {
      await driverSocket.close();
    }
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}/messages`, token: driver.accessToken })).json()).toMatchObject({ total: 3 });
  });
});

describeWithRedis('chat_message across two instances (Redis pub/sub)', () => {
  let redis: TestRedis;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    redis = await startRedis();
    first = await startTestApp({ env: { REDIS_URL: redis.url } });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    if (first && second) await closeSentinels([first, second]);
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  it('a message sent through one instance reaches the other party on the other instance, once per socket, and not the sender', async () => {
    const { passenger, driver, rideId } = await acceptedRide(first);
    const driverOnSecond = await LiveClient.connect(second, driver.accessToken);
    const driverOnFirst = await LiveClient.connect(first, driver.accessToken);
    const passengerOnSecond = await LiveClient.connect(second, passenger.accessToken);
    const all = [driverOnSecond, driverOnFirst, passengerOnSecond];
    try {
      const sent = await send(first, passenger, rideId, 'Which car?');
      expect(sent.statusCode).toBe(201);
      for (const socket of [driverOnSecond, driverOnFirst]) {
        expect(await socket.next('chat_message')).toMatchObject({ type: 'chat_message', ride_id: rideId, data: { message: sent.json() } });
      }
      await expectNothingMore(all, { across: [first, second] });

      const reply = await send(second, driver, rideId, 'White Corolla');
      expect(await passengerOnSecond.next('chat_message')).toMatchObject({ data: { message: reply.json() } });
      await expectNothingMore(all, { across: [first, second] });
      // Either instance reads the same conversation.
      expect((await first.request({ method: 'GET', url: `/api/v1/rides/${rideId}/messages`, token: driver.accessToken })).json()).toMatchObject({ total: 2 });
    } finally {
      await Promise.all(all.map((c) => c.close()));
    }
  });
});
