import { Writable } from 'node:stream';
import pino from 'pino';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { LiveClient } from './live-client';

type LogLine = { level: number; msg?: string; code?: string; err?: unknown; stack?: unknown; [key: string]: unknown };

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A client that breaks the WebSocket protocol must not be able to write error lines (with stacks)
 * into the log at will: one warn line per broken connection, with the reason and no stack.
 */
describe('live channel: client protocol errors in the log', () => {
  let t: TestApp;
  let user: TestUser;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
        callback();
      },
    });
    t = await startTestApp({ logger: pino({ level: 'warn' }, sink), env: { WS_MAX_PAYLOAD_BYTES: '1024' } });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const fromSockets = (): LogLine[] => lines.filter((line) => line.msg === 'WebSocket client broke the protocol; connection closed');

  it.each([
    ['an oversized frame', 1009, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', (c: LiveClient) => c.send({ type: 'ping', padding: 'x'.repeat(4096) })],
    ['invalid UTF-8 in a text frame', 1007, 'WS_ERR_INVALID_UTF8', (c: LiveClient) => c.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false })],
  ])('%s: the socket closes (%i) and the log gets one warn line without a stack', async (_label, closeCode, errorCode, misbehave) => {
    lines.length = 0;
    const client = await LiveClient.connect(t, user.accessToken);
    misbehave(client);
    expect((await client.closed).code).toBe(closeCode);
    await waitFor(() => fromSockets().length > 0);
    expect(fromSockets()).toEqual([expect.objectContaining({ level: 40, code: errorCode, reason: expect.any(String) })]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|"err"/);
  });
});
