import { connect, Socket } from 'node:net';
import { startTestApp, TestApp } from '../support/test-app';

const TIMEOUT_MS = 1000;

/** What the server sent on a raw connection until it closed it, or `open` if it was still open at `giveUpMs`. */
function outcome(socket: Socket, giveUpMs: number): Promise<{ response: string; closedAfterMs: number } | 'open'> {
  const started = Date.now();
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), giveUpMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
    socket.on('error', () => undefined);
  });
}

async function open(t: TestApp): Promise<Socket> {
  const { port } = new URL(t.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/** Writes one byte of `text` every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return;
    socket.write(text[i++]!);
  }, everyMs);
  return () => clearInterval(timer);
}

describe('REQUEST_TIMEOUT_MS: a request that does not arrive in time is answered 408 and closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(() => t.close());

  it.each([
    [
      'a body that trickles in',
      'POST /api/v1/auth/send-otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n',
      '{"phone":"+15550001111"}'.padEnd(64, ' '),
    ],
    ['headers that trickle in', '', 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200) + '\r\n\r\n'],
  ])('%s: 408 in the error shape, connection closed', async (_label, head, slow) => {
    const socket = await open(t);
    socket.write(head);
    const stop = trickle(socket, slow, 100);
    // Far beyond the timeout, so that a server without one is caught, yet the test ends either way.
    const result = await outcome(socket, TIMEOUT_MS * 8);
    stop();
    socket.destroy();
    expect(result).not.toBe('open');
    const { response, closedAfterMs } = result as { response: string; closedAfterMs: number };
    expect(response).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 408,
      error: 'Request Timeout',
      message: 'The request did not arrive within the time allowed',
    });
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });

  it('a request that arrives in time is served, and an idle keep-alive connection is not cut by this timeout', async () => {
    const res = await fetch(`${t.baseUrl}/health/live`);
    expect(res.status).toBe(200);
    const socket = await open(t);
    const result = outcome(socket, TIMEOUT_MS * 3);
    socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await result).toBe('open');
    socket.destroy();
  });
});
