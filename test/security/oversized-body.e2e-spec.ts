import { connect } from 'node:net';
import { startTestApp, TestApp } from '../support/test-app';

const MIB = 1024 * 1024;

interface RawOutcome {
  /** Everything the server sent. */
  response: string;
  /** A write or read error the client saw (EPIPE, ECONNRESET), if any. */
  error?: string;
  /** Whether every byte of the body was handed to the kernel without an error. */
  sentAll: boolean;
}

/**
 * Sends `bodyBytes` of JSON-looking bytes with their Content-Length from a raw socket, as a phone's
 * HTTP stack does: the whole body first, reading the answer after. A server that closes the
 * connection while the body is still coming makes the client fail with a broken pipe instead.
 */
async function sendRaw(t: TestApp, path: string, bodyBytes: number, extraHeaders = ''): Promise<RawOutcome> {
  const { port } = new URL(t.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let response = '';
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n${extraHeaders}\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let sentAll = true;
  while (sent < bodyBytes && !socket.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
    const ok = await new Promise<boolean>((resolve) => socket.write(piece, (err) => resolve(!err)));
    if (!ok) {
      sentAll = false;
      break;
    }
    sent += piece.length;
  }
  if (socket.destroyed && sent < bodyBytes) sentAll = false;
  // The answer is complete once its JSON body has arrived; then the client hangs up itself.
  await new Promise<void>((resolve) => {
    const done = () => /\r\n\r\n\{.*\}$/s.test(response);
    if (done() || socket.destroyed) return resolve();
    socket.on('data', () => done() && resolve());
    void closed.then(resolve);
  });
  socket.destroy();
  await closed;
  return { response, error, sentAll };
}

function jsonOf(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

describe('a body over BODY_LIMIT_BYTES sent with Content-Length: the client reads its 413', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('7 MiB of JSON: the whole body is taken, the 413 in the error shape arrives, no broken pipe', async () => {
    const result = await sendRaw(t, '/api/v1/auth/send-otp', 7 * MIB);
    expect({ error: result.error, sentAll: result.sentAll }).toEqual({ error: undefined, sentAll: true });
    expect(result.response).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(jsonOf(result.response)).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is larger than the allowed size' });
  });

  it('the connection stays usable after the 413 (keep-alive): a second request on it is answered', async () => {
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
    const body = Buffer.alloc(7 * MIB, 0x20);
    socket.write(`POST /api/v1/auth/send-otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
    socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve, reject) => {
      socket.on('data', () => /HTTP\/1\.1 200 OK/.test(response) && /\r\n\r\n[^]*\r\n\r\n[^]*\}$/.test(response) && resolve());
      socket.on('close', () => reject(new Error(`closed after: ${response}`)));
    });
    socket.destroy();
    expect(response).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n[^]*HTTP\/1\.1 200 OK\r\n/);
  });

  it('a Content-Length far beyond any upload is still refused at once and the connection closed', async () => {
    const result = await sendRaw(t, '/api/v1/auth/send-otp', 200 * MIB);
    expect(result.response).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(result.response).toMatch(/\r\nconnection: close\r\n/i);
    expect(result.sentAll).toBe(false);
  });
});
