import { JwtService } from '@nestjs/jwt';
import { EventBus } from '../../src/common/events/event-bus';
import { ConnectionRegistry } from '../../src/modules/realtime/connection-registry';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { closeSentinels, eventsCrossed, expectNothingMore, LiveClient, liveUrl } from './live-client';
import { partialBid } from '../support/event-fixtures';
import { waitFor } from '../support/wait';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('live channel: connection, protocol and protection', () => {
  let t: TestApp;
  let passenger: TestUser;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        WS_PING_INTERVAL_MS: '300',
        WS_MAX_MESSAGES_PER_SECOND: '10',
        WS_MAX_PAYLOAD_BYTES: '1024',
        WS_MAX_BUFFERED_BYTES: '65536',
      },
    });
    passenger = await createUser(t);
  });
  afterAll(() => t.close());

  /** Opens a socket with this token and expects 4401 before any message. */
  async function expectRefused(token: string | undefined): Promise<void> {
    const client = await LiveClient.open(liveUrl(t, token));
    const closed = await client.closed;
    expect(closed.code).toBe(4401);
    expect(client.received).toEqual([]);
  }

  describe('authentication', () => {
    it('refuses a connection without a token', async () => {
      await expectRefused(undefined);
      await expectRefused('');
    });

    it('refuses a malformed or tampered token', async () => {
      await expectRefused('not-a-jwt');
      const [header, payload, signature] = passenger.accessToken.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(claims.sub + 1) })).toString('base64url');
      await expectRefused(`${header}.${forged}.${signature}`);
      await expectRefused(`${header}.${payload}.${signature.slice(0, -4)}AAAA`);
    });

    it('refuses an expired access token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = t.get(JwtService).sign({ sub: String(passenger.id), role: 'passenger', type: 'access', iat: now - 3600, exp: now - 60 });
      await expectRefused(expired);
    });

    it('refuses an access token without exp (it would never expire)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const forever = t.get(JwtService).sign({ sub: String(passenger.id), role: 'passenger', type: 'access', iat: now });
      expect(JSON.parse(Buffer.from(forever.split('.')[1]!, 'base64url').toString())).not.toHaveProperty('exp');
      await expectRefused(forever);
    });

    it('refuses a refresh token', async () => {
      await expectRefused(passenger.refreshToken);
    });

    it('refuses a blocked, an inactive and a deleted user', async () => {
      const blocked = await createUser(t);
      await t.db.query('UPDATE users SET is_blocked = true WHERE id = $1', [blocked.id]);
      await expectRefused(blocked.accessToken);
      const inactive = await createUser(t);
      await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [inactive.id]);
      await expectRefused(inactive.accessToken);
      const ghost = t
        .get(JwtService)
        .sign({ sub: '987654321', role: 'passenger', type: 'access', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 });
      await expectRefused(ghost);
    });

    it('accepts the token in ?token= and answers unknown paths by closing', async () => {
      const client = await LiveClient.connect(t, passenger.accessToken);
      await client.close();
      await expect(LiveClient.open(`${t.wsUrl}/api/v1/ws/elsewhere?token=${passenger.accessToken}`)).rejects.toThrow();
    });
  });

  describe('protocol', () => {
    it('sends ride_snapshot first, with a null ride when the user has none', async () => {
      const client = await LiveClient.open(liveUrl(t, passenger.accessToken));
      const first = await client.next();
      expect(first).toEqual({ type: 'ride_snapshot', ride_id: null, data: { ride: null }, at: expect.stringMatching(ISO) });
      await client.close();
    });

    it('answers ping with pong, also a ping sent before the snapshot (which still comes first)', async () => {
      const client = await LiveClient.open(liveUrl(t, passenger.accessToken));
      client.send({ type: 'ping' });
      expect((await client.next()).type).toBe('ride_snapshot');
      expect(await client.next()).toEqual({ type: 'pong', at: expect.stringMatching(ISO) });
      client.send({ type: 'ping', id: 7 });
      expect((await client.next()).type).toBe('pong');
      await client.close();
    });

    it('delivers to every connection of a user (phone and tablet)', async () => {
      const phone = await LiveClient.connect(t, passenger.accessToken);
      const tablet = await LiveClient.connect(t, passenger.accessToken);
      t.get(EventBus).publish('bid.submitted', { ride_id: 'r-1', passenger_id: passenger.id, driver_id: 1, bid: partialBid({ id: 'b-1' }) });
      for (const c of [phone, tablet]) expect(await c.next('bid_submitted')).toMatchObject({ ride_id: 'r-1', data: { bid: partialBid({ id: 'b-1' }) } });
      await Promise.all([phone.close(), tablet.close()]);
      await waitFor('the connection unregistered', () => t.get(ConnectionRegistry).connectionsOf(passenger.id).size === 0);
    });

    it('answers malformed frames and unknown types with an error message and keeps the connection', async () => {
      const client = await LiveClient.connect(t, passenger.accessToken);
      for (const frame of ['not json', '[1,2]', '"ping"', '{"type": 5}', '{}', 'null']) {
        client.send(frame);
        expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'invalid_message', message: expect.any(String) } });
      }
      client.socket.send(Buffer.from([0xff, 0x00, 0x12]), { binary: true });
      expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'invalid_message' } });
      client.send({ type: 'dance' });
      expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'unknown_message_type', message: expect.stringContaining('dance') } });
      client.send({ type: 'ping' });
      expect((await client.next()).type).toBe('pong');
      await client.close();
    });

    it('closes a connection that sends an oversized frame (1009), other clients unaffected', async () => {
      const bystander = await LiveClient.connect(t, passenger.accessToken);
      const client = await LiveClient.connect(t, passenger.accessToken);
      client.send({ type: 'ping', padding: 'x'.repeat(4096) });
      expect((await client.closed).code).toBe(1009);
      bystander.send({ type: 'ping' });
      expect((await bystander.next()).type).toBe('pong');
      await bystander.close();
    });
  });

  describe('protection', () => {
    it('a user holds at most WS_MAX_SOCKETS_PER_USER (5) sockets: one more closes the oldest with 4429', async () => {
      const user = await createUser(t);
      const bystander = await LiveClient.connect(t, passenger.accessToken);
      const sockets: LiveClient[] = [];
      for (let i = 0; i < 5; i += 1) sockets.push(await LiveClient.connect(t, user.accessToken));
      const registry = t.get(ConnectionRegistry);
      expect(registry.connectionsOf(user.id).size).toBe(5);
      sockets.push(await LiveClient.connect(t, user.accessToken));
      // The oldest socket closes at once; were it kept open, the test's timeout fails it.
      const oldest = await sockets[0]!.closed;
      expect(oldest).toEqual({ code: 4429, reason: 'Too many live sockets: at most 5 per user' });
      expect(registry.connectionsOf(user.id).size).toBe(5);
      // The five newest keep receiving; another user's socket was never touched.
      t.get(EventBus).publish('bid.submitted', { ride_id: 'r-cap', passenger_id: user.id, driver_id: 1, bid: partialBid({ id: 'b-cap' }) });
      for (const c of sockets.slice(1)) expect((await c.next('bid_submitted')).ride_id).toBe('r-cap');
      bystander.send({ type: 'ping' });
      expect((await bystander.next()).type).toBe('pong');
      await Promise.all([...sockets.slice(1), bystander].map((c) => c.close()));
    });

    it('rate-limits a flood of pings, then closes it (1008); the service and other clients carry on', async () => {
      const other = await createUser(t);
      const bystander = await LiveClient.connect(t, other.accessToken);
      const flooder = await LiveClient.connect(t, passenger.accessToken);
      for (let i = 0; i < 500; i += 1) flooder.send({ type: 'ping' });
      const closed = await flooder.closed;
      expect(closed.code).toBe(1008);
      const types = flooder.pending().map((m) => m.type);
      expect(types.filter((type) => type === 'pong').length).toBeLessThanOrEqual(10);
      expect(types.filter((type) => type === 'error')).toEqual(['error']);
      expect(flooder.pending().find((m) => m.type === 'error')).toMatchObject({ data: { code: 'rate_limited' } });

      bystander.send({ type: 'ping' });
      expect((await bystander.next()).type).toBe('pong');
      t.get(EventBus).publish('bid.submitted', { ride_id: 'r-2', passenger_id: other.id, driver_id: 1, bid: partialBid({ id: 'b-2' }) });
      expect((await bystander.next('bid_submitted')).ride_id).toBe('r-2');
      const health = await t.request({ method: 'GET', url: '/health/live' });
      expect(health.statusCode).toBe(200);
      await bystander.close();
    });

    it('closes a client that never reads instead of buffering for it; others keep receiving', async () => {
      const slowUser = await createUser(t);
      const other = await createUser(t);
      const bystander = await LiveClient.connect(t, other.accessToken);
      const slow = await LiveClient.connect(t, slowUser.accessToken);
      // Stop reading from the TCP socket: the kernel buffers fill up, then the server's send buffer grows.
      (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const bus = t.get(EventBus);
      const bulky = partialBid({ id: 'bulky', note: 'x'.repeat(32 * 1024) });
      const registry = t.get(ConnectionRegistry);
      // Publishes until the server gives up on the slow client. Each round waits until its events have been
      // dispatched (over Redis they come back later), so no backlog of bulky events outlives the drop.
      await waitFor('the slow client dropped', async () => {
        if (registry.connectionsOf(slowUser.id).size === 0) return true;
        for (let i = 0; i < 50; i += 1) bus.publish('bid.submitted', { ride_id: 'r-slow', passenger_id: slowUser.id, driver_id: 1, bid: bulky });
        await eventsCrossed([t]);
        return registry.connectionsOf(slowUser.id).size === 0;
      });

      bus.publish('bid.submitted', { ride_id: 'r-3', passenger_id: other.id, driver_id: 1, bid: partialBid({ id: 'b-3' }) });
      // Megabytes were just written for the slow client: on a starved machine the process may need longer
      // than the usual 5 s to get round to this frame; what matters is that it arrives.
      expect((await bystander.next('bid_submitted', 30_000)).ride_id).toBe('r-3');
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      const closed = await slow.closed;
      expect([1006, 1013]).toContain(closed.code);
      await bystander.close();
      await closeSentinels([t]);
    });

    it('pings at the protocol level and drops a client that stops answering', async () => {
      const mute = await LiveClient.connect(t, passenger.accessToken, { autoPong: false });
      const healthy = await LiveClient.connect(t, passenger.accessToken);
      // Two protocol pings the healthy client answers once the mute one is gone: it is kept.
      let pings = 0;
      healthy.socket.on('ping', () => (pings += 1));
      const closed = await mute.closed;
      expect(closed.code).toBe(1006);
      const pingsAtClose = pings;
      await waitFor('two more pings to the healthy client', () => pings >= pingsAtClose + 2);
      expect(healthy.socket.readyState).toBe(healthy.socket.OPEN);
      await healthy.close();
    });

    it("closes a user's sockets with 4403 when their access is revoked", async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      const a = await LiveClient.connect(t, user.accessToken);
      const b = await LiveClient.connect(t, user.accessToken);
      const bystander = await LiveClient.connect(t, other.accessToken);
      t.get(EventBus).publish('user.access_revoked', { user_id: user.id, reason: 'blocked' });
      for (const c of [a, b]) expect((await c.closed).code).toBe(4403);
      expect(bystander.socket.readyState).toBe(bystander.socket.OPEN);
      await expectNothingMore([bystander]);
      await bystander.close();
    });
  });
});
