import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { Metrics } from '../../common/metrics/metrics';
import { ConnectionRegistry } from './connection-registry';
import { SingleInstancePresence } from './presence/presence';
import type { LiveConnection } from './live-connection';
import type { SharedFrame } from './ws-frames';

/** A connection that records the frames written to it (as text). */
function connection(id: number, log: Array<[number, string]>): LiveConnection {
  const user: AuthenticatedUser = { id, role: 'driver', isRegistered: true };
  return { user, send: (frame: SharedFrame) => log.push([id, frame.payload.toString()]) } as unknown as LiveConnection;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('ConnectionRegistry fan-out', () => {
  it('writes a small delivery at once', () => {
    const log: Array<[number, string]> = [];
    const registry = new ConnectionRegistry(new SingleInstancePresence(), new Metrics(false));
    registry.add(connection(1, log));
    registry.sendToUsers([1, 2, null], 'hello');
    expect(log).toEqual([[1, 'hello']]);
  });

  it('a fan-out to 2,500 sockets yields to the event loop between chunks, and later frames keep their order', async () => {
    const log: Array<[number, string]> = [];
    const registry = new ConnectionRegistry(new SingleInstancePresence(), new Metrics(false));
    const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
    for (const id of ids) registry.add(connection(id, log));
    registry.sendToUsers(ids, 'ride_requested');
    registry.sendToUsers([2500], 'ride_cancelled'); // for the last driver of the fan-out
    expect(log.length).toBe(250); // the first chunk; the rest after the event loop had a turn
    await turn();
    expect(log.length).toBe(500);
    for (let chunk = 3; chunk <= 10; chunk += 1) await turn();
    expect(log.length).toBe(2500); // ten chunks: the fan-out; the later frame waits for the next turn
    await turn();
    expect(log.length).toBe(2501);
    expect(log.filter(([id]) => id === 2500).map(([, frame]) => frame)).toEqual(['ride_requested', 'ride_cancelled']);
    expect(new Set(log.filter(([, f]) => f === 'ride_requested').map(([id]) => id)).size).toBe(2500);
  });
});
