import { acceptedRide, bookRide, cancel, onlineDriver, placeBid, setStatus } from './ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { ResponseValidator } from '../foundation/openapi-validator';
import { waitFor } from '../support/wait';

type Message = { id: string; ride_id: string; sender_role: string; text: string; created_at: string };
type Page = { items: Message[]; page: number; limit: number; total: number };

/** In-ride chat over REST (CONTRACT §11): who may send and read, when, what is stored, the limit. */
describe('in-ride chat: POST/GET /rides/{ride_id}/messages', () => {
  let t: TestApp;
  let validator: ResponseValidator;

  beforeAll(async () => {
    t = await startTestApp();
    validator = new ResponseValidator((await t.request({ method: 'GET', url: '/docs-json' })).json());
  });
  afterAll(() => t?.close());

  const send = (user: TestUser, rideId: string, payload: unknown) =>
    t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/messages`, token: user.accessToken, payload: payload as object });
  const read = (user: TestUser, rideId: string, query = '') =>
    t.request({ method: 'GET', url: `/api/v1/rides/${rideId}/messages${query}`, token: user.accessToken });
  /** The response matches the OpenAPI document's schema for it (closed objects: no undocumented field). */
  const documented = (method: string, url: string, res: { statusCode: number; json(): unknown }) =>
    expect(validator.check(method, url, res.statusCode, res.json())).toEqual([]);

  it('both parties send and read; each message has the contract shape, oldest first', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const first = await send(passenger, rideId, { text: 'Hi, I am at the gate' });
    expect(first.statusCode).toBe(201);
    documented('post', `/api/v1/rides/${rideId}/messages`, first);
    const sent: Message = first.json();
    expect(sent).toEqual({ id: expect.any(String), ride_id: rideId, sender_role: 'passenger', text: 'Hi, I am at the gate', created_at: expect.any(String) });
    expect(new Date(sent.created_at).toISOString()).toBe(sent.created_at);
    const second = await send(driver, rideId, { text: 'On my way' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ ride_id: rideId, sender_role: 'driver', text: 'On my way' });

    for (const user of [passenger, driver]) {
      const res = await read(user, rideId);
      expect(res.statusCode).toBe(200);
      documented('get', `/api/v1/rides/${rideId}/messages`, res);
      expect(res.json()).toEqual({ items: [sent, second.json()], page: 1, limit: 20, total: 2 });
    }
  });

  it('anyone but the two parties is told the ride does not exist (404), for sending and reading', async () => {
    const { rideId } = await acceptedRide(t);
    const strangers = [await createUser(t), await createUser(t, { role: 'driver' }), await onlineDriver(t)];
    for (const stranger of strangers) {
      expect((await send(stranger, rideId, { text: 'hello' })).statusCode).toBe(404);
      expect((await read(stranger, rideId)).statusCode).toBe(404);
    }
    const res = await send(strangers[0]!, rideId, { text: 'hello' });
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Ride not found' });
    // A driver whose bid is pending on a requested ride is not its driver either.
    const owner = await createUser(t);
    const requested = await bookRide(t, owner);
    const bidder = await onlineDriver(t);
    await placeBid(t, bidder, requested.id);
    expect((await send(bidder, requested.id, { text: 'I can come' })).statusCode).toBe(404);
    expect((await read(bidder, requested.id)).statusCode).toBe(404);
    // Unknown and malformed ids.
    expect((await send(owner, '00000000-0000-4000-8000-000000000000', { text: 'x' })).statusCode).toBe(404);
    expect((await read(owner, 'not-a-uuid')).statusCode).toBe(404);
    expect((await send(owner, 'not-a-uuid', { text: 'x' })).statusCode).toBe(404);
  });

  it('sending is open while accepted, driver_arrived and started (201), and 409 before and after; the list stays readable', async () => {
    const passenger = await createUser(t);
    const requested = await bookRide(t, passenger);
    const closed = await send(passenger, requested.id, { text: 'anyone?' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    await cancel(t, passenger, requested.id);

    const { driver, rideId } = await acceptedRide(t, { passenger });
    for (const next of ['driver_arrived', 'started', 'completed']) {
      expect((await send(passenger, rideId, { text: `before ${next}` })).statusCode).toBe(201);
      expect((await send(driver, rideId, { text: `driver before ${next}` })).statusCode).toBe(201);
      expect((await setStatus(t, driver, rideId, next)).statusCode).toBe(200);
    }
    for (const user of [passenger, driver]) {
      expect((await send(user, rideId, { text: 'after the end' })).statusCode).toBe(409);
      const page: Page = (await read(user, rideId)).json();
      expect(page.total).toBe(6);
      expect(page.items.map((m) => m.text)).toEqual([
        'before driver_arrived',
        'driver before driver_arrived',
        'before started',
        'driver before started',
        'before completed',
        'driver before completed',
      ]);
    }

    // A cancelled ride: closed to both, still readable by both.
    const other = await acceptedRide(t);
    expect((await send(other.driver, other.rideId, { text: 'there in 2' })).statusCode).toBe(201);
    expect((await cancel(t, other.passenger, other.rideId)).statusCode).toBe(200);
    for (const user of [other.passenger, other.driver]) {
      expect((await send(user, other.rideId, { text: 'sorry' })).statusCode).toBe(409);
      expect((await read(user, other.rideId)).json()).toMatchObject({ total: 1, items: [{ text: 'there in 2', sender_role: 'driver' }] });
    }
  });

  it('stores the text trimmed and counts 1 to 1000 characters after trimming', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    expect((await send(passenger, rideId, { text: '  \n\t hello there \n ' })).json()).toMatchObject({ text: 'hello there' });
    const max = 'a'.repeat(1000);
    expect((await send(passenger, rideId, { text: max })).json()).toMatchObject({ text: max });
    expect((await send(passenger, rideId, { text: `   ${max}   ` })).json()).toMatchObject({ text: max });
    // Characters, not UTF-16 units: 1000 emoji are 1000 characters.
    const emoji = '🚕'.repeat(1000);
    expect((await send(passenger, rideId, { text: emoji })).statusCode).toBe(201);

    for (const text of ['a'.repeat(1001), '🚕'.repeat(1001), '', '   ', '\n\t ']) {
      const res = await send(passenger, rideId, { text });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', details: [{ field: 'text' }] });
    }
    const stored: Page = (await read(passenger, rideId, '?limit=100')).json();
    expect(stored.items.map((m) => m.text)).toEqual(['hello there', max, max, emoji]);
  });

  it('refuses what no string may hold (NUL, a lone surrogate) and any other bad body with 400, storing nothing', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    const bodies: unknown[] = [{ text: 'hi\u0000there' }, { text: 'hi \ud83d' }, {}, { text: 42 }, { text: ['hi'] }, { text: 'hi', extra: 1 }, null, []];
    for (const body of bodies) {
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/rides/${rideId}/messages`,
        token: passenger.accessToken,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect([res.statusCode, body]).toEqual([400, body]);
    }
    expect((await read(passenger, rideId)).json()).toMatchObject({ total: 0, items: [] });
  });

  it('pages oldest first with page and limit (default 20, at most 100)', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    for (let i = 1; i <= 25; i += 1) expect((await send(i % 2 ? passenger : driver, rideId, { text: `m${i}` })).statusCode).toBe(201);
    const texts = (page: Page) => page.items.map((m) => m.text);
    const all: Page = (await read(driver, rideId)).json();
    expect([all.page, all.limit, all.total]).toEqual([1, 20, 25]);
    expect(texts(all)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}`));
    expect(texts((await read(passenger, rideId, '?page=3&limit=10')).json())).toEqual(['m21', 'm22', 'm23', 'm24', 'm25']);
    const second: Page = (await read(passenger, rideId, '?page=2&limit=10')).json();
    expect([second.page, second.limit, second.total, texts(second)]).toEqual([2, 10, 25, Array.from({ length: 10 }, (_, i) => `m${i + 11}`)]);
    expect((await read(passenger, rideId, '?page=9&limit=10')).json()).toEqual({ items: [], page: 9, limit: 10, total: 25 });
    expect(all.items.map((m) => m.sender_role).slice(0, 2)).toEqual(['passenger', 'driver']);
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?page=x', '?sort=desc']) expect((await read(passenger, rideId, query)).statusCode).toBe(400);
  });

  it('allows 30 messages a minute per user, then 429 with Retry-After; the other party is counted apart', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    for (let i = 0; i < 30; i += 1) expect((await send(passenger, rideId, { text: `n${i}` })).statusCode).toBe(201);
    const refused = await send(passenger, rideId, { text: 'one too many' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect((await send(driver, rideId, { text: 'still fine' })).statusCode).toBe(201);
    expect((await read(passenger, rideId)).json()).toMatchObject({ total: 31 });
  });

  it('a message waits for a status change in progress and is refused when that change ended the ride', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      // What a transition does: lock the ride, change its status, commit.
      await runner.startTransaction();
      await runner.query(`SELECT id FROM rides WHERE id = $1 FOR UPDATE`, [rideId]);
      const pending = send(passenger, rideId, { text: 'are you there?' });
      await waitFor('the message waiting for the ride row', async () => {
        const [row] = await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return row.n > 0;
      });
      await runner.query(`UPDATE rides SET status = 'cancelled', cancelled_at = now(), cancelled_by = 'passenger' WHERE id = $1`, [rideId]);
      await runner.commitTransaction();
      expect((await pending).statusCode).toBe(409);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    expect((await read(passenger, rideId)).json()).toMatchObject({ total: 0 });
  });

  it('an account that has not completed registration gets 403', async () => {
    const { rideId } = await acceptedRide(t);
    const unregistered = await createUser(t, { registered: false });
    expect((await send(unregistered, rideId, { text: 'hi' })).statusCode).toBe(403);
    expect((await read(unregistered, rideId)).statusCode).toBe(403);
  });

  it('messages sent at once by both parties are each stored once', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? driver : passenger, rideId, { text: `c${i}` })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const page: Page = (await read(passenger, rideId)).json();
    expect(page.items.map((m) => m.text).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`).sort());
    expect(new Set(page.items.map((m) => m.id)).size).toBe(10);
  });
});
