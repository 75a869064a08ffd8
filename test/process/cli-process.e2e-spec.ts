import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createUser } from '../support/factories';
import { BUILT_CLI, ensureFreshBuild } from '../support/build';
import { startTestApp, TEST_JWT_SECRET, TestApp } from '../support/test-app';
import { LiveClient } from '../realtime/live-client';
import { waitFor } from '../support/wait';

const run = promisify(execFile);

/**
 * The operator CLI as operators run it: a separate process beside a running server, on the same
 * database and WITHOUT Redis. Its commands must still reach the server's cached state and sockets.
 */
describe('operator CLI as a separate process (no Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    ensureFreshBuild();
    // A long user-state cache: without the CLI's event the server would keep serving the old state.
    t = await startTestApp({ env: { USER_STATE_CACHE_MS: '5000' } });
  }, 120_000);
  afterAll(() => t.close());

  const cli = (...args: string[]) =>
    run(process.execPath, [BUILT_CLI, ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: t.databaseUrl, JWT_SECRET: TEST_JWT_SECRET, RUN_MIGRATIONS: 'false' },
    });

  it('user:block closes the user’s sockets (4403) and refuses their token at once; user:unblock restores it at once', async () => {
    const user = await createUser(t);
    const me = () => t.request({ method: 'GET', url: '/api/v1/auth/me', token: user.accessToken });
    expect((await me()).statusCode).toBe(200); // the server now caches "active" for 5 s
    const socket = await LiveClient.connect(t, user.accessToken);

    const blocked = await cli('user:block', String(user.id));
    expect(blocked.stdout.trim()).toBe(`User ${user.id} is now blocked`);
    expect((await socket.closed).code).toBe(4403);
    expect((await me()).statusCode).toBe(403);

    await cli('user:unblock', String(user.id));
    // The notification crosses to the server (PostgreSQL NOTIFY), well before the 5 s cache would expire.
    await waitFor('the server to learn of the unblock', async () => (await me()).statusCode === 200, 4000);
  }, 60_000);
});
