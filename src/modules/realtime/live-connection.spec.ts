import { WebSocket } from 'ws';
import { LiveConnection } from './live-connection';

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
