import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { LiveClient } from './live-client';

describe('live channel: ending a session closes its sockets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('logout closes the user’s sockets with 4401; other users keep theirs', async () => {
    const [user, other] = await Promise.all([createUser(t), createUser(t)]);
    const mine = await LiveClient.connect(t, user.accessToken);
    const theirs = await LiveClient.connect(t, other.accessToken);
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken })).statusCode).toBe(200);
    const closed = await mine.closed;
    expect(closed).toMatchObject({ code: 4401, reason: 'Session ended (logout)' });
    expect((await t.request({ method: 'GET', url: '/api/v1/auth/me', token: other.accessToken })).statusCode).toBe(200);
    expect(theirs.socket.readyState).toBe(theirs.socket.OPEN);
    await theirs.close();
  });
});
