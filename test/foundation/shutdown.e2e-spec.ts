import { Controller, Get, Module } from '@nestjs/common';
import WebSocket from 'ws';
import { Public } from '../../src/common/auth/auth.decorators';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

let slowStarted: () => void = () => undefined;

/** A request that is still running when shutdown begins. */
@Public()
@Controller('probe')
class SlowController {
  @Get('slow')
  async slow(): Promise<{ finished: boolean }> {
    slowStarted();
    await new Promise((r) => setTimeout(r, 700));
    return { finished: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

describe('graceful shutdown (app.close(), as main.ts does on SIGTERM/SIGINT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ modules: [SlowModule] });
  });
  afterAll(() => t.close());

  it('finishes in-flight requests, refuses new connections, closes WebSockets with 1001', async () => {
    const user = await createUser(t);
    const socket = new WebSocket(`${t.wsUrl}/api/v1/ws/rides/live?token=${user.accessToken}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('message', () => resolve());
      socket.once('error', reject);
    });
    const socketClosed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

    const handlerStarted = new Promise<void>((resolve) => (slowStarted = resolve));
    const inFlight = fetch(`${t.baseUrl}/api/v1/probe/slow`);
    await handlerStarted;
    const closing = t.app.close();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    expect(await socketClosed).toBe(1001);
    // Without closing keep-alive connections as they become idle, this waited for keepAliveTimeout (72 s).
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(2000);

    await expect(fetch(`${t.baseUrl}/health/live`)).rejects.toThrow();
  });
});
