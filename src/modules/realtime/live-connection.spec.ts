import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveConnection } from './live-connection';
import { WsCloseCode } from './realtime.errors';
import { SharedFrame } from './ws-frames';

function fakeSocket(bufferedAmount = 0) {
  return { readyState: WebSocket.OPEN, bufferedAmount, send: jest.fn(), close: jest.fn(), terminate: jest.fn() };
}

describe('LiveConnection', () => {
  it('admits the limit per second, answers the first excess frame, drops the rest, closes a flood', () => {
    const connection = new LiveConnection(fakeSocket() as unknown as WebSocket, { maxMessagesPerSecond: 2, maxBufferedBytes: 1024 });
    const t0 = 1_000_000;
    const seen = Array.from({ length: 7 }, (_, i) => connection.admit(t0 + i));
    expect(seen).toEqual(['accept', 'accept', 'reject', 'drop', 'drop', 'drop', 'close']);
    expect(connection.admit(t0 + 1000)).toBe('accept');
  });

  it('holds frames until the snapshot is out, then sends the snapshot first', () => {
    const socket = fakeSocket();
    const connection = new LiveConnection(socket as unknown as WebSocket, { maxMessagesPerSecond: 10, maxBufferedBytes: 1024 });
    connection.send('event');
    expect(socket.send).not.toHaveBeenCalled();
    connection.open('snapshot');
    expect(socket.send.mock.calls.map((c) => c[0])).toEqual(['snapshot', 'event']);
  });

  it('closes with 1013 instead of writing past the send-buffer bound', () => {
    const socket = fakeSocket(1000);
    const connection = new LiveConnection(socket as unknown as WebSocket, { maxMessagesPerSecond: 10, maxBufferedBytes: 1024 });
    connection.open('x'.repeat(100));
    expect(socket.send).not.toHaveBeenCalled();
    expect(socket.close).toHaveBeenCalledWith(1013, expect.any(String));
  });
});

describe('LiveConnection over a real socket', () => {
  let server: WebSocketServer;
  let client: WebSocket;
  let connection: LiveConnection;

  beforeEach(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    const accepted = new Promise<LiveConnection>((resolve) =>
      server.once('connection', (socket, request) =>
        resolve(new LiveConnection(socket, { maxMessagesPerSecond: 10, maxBufferedBytes: 1 << 20 }, request.socket)),
      ),
    );
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    connection = await accepted;
  });

  afterEach(async () => {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers frames made once (7-, 16- and 64-bit lengths) as text messages, in order with ws.send frames and pings', async () => {
    const texts = ['a'.repeat(125), 'é'.repeat(700), 'b'.repeat(70_000)];
    const received: Array<{ text: string; binary: boolean }> = [];
    let pings = 0;
    client.on('ping', () => (pings += 1));
    const all = new Promise<void>((resolve) =>
      client.on('message', (data, binary) => {
        received.push({ text: (data as Buffer).toString(), binary });
        if (received.length === 5) resolve();
      }),
    );
    connection.open('snapshot');
    connection.send(new SharedFrame(Buffer.from(texts[0]!)));
    connection.socket.ping();
    connection.send(new SharedFrame(Buffer.from(texts[1]!)));
    connection.send('between');
    connection.send(new SharedFrame(Buffer.from(texts[2]!)));
    await all;
    expect(received).toEqual(['snapshot', texts[0], texts[1], 'between', texts[2]].map((text) => ({ text, binary: false })));
    expect(pings).toBe(1);
  });

  it('writes nothing once closing', async () => {
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    let messages = 0;
    client.on('message', () => (messages += 1));
    connection.open('snapshot');
    connection.close(WsCloseCode.GOING_AWAY, 'bye');
    connection.send(new SharedFrame(Buffer.from('late')));
    expect(await closed).toBe(WsCloseCode.GOING_AWAY);
    expect(messages).toBe(1);
  });
});
